/**
 * Capped exponential backoff with jitter, as client-go's wait.Backoff and the reflector's
 * ExponentialBackoffManager (800 ms doubling to 30 s, jitter 1.0): the n-th delay is
 * min(initial·factor^(n-1), max), plus up to `jitter` times that again, chosen at random.
 * reset() starts over after progress was made.
 */

export interface BackoffOptions {
  /** First delay; default 800 ms, as the reflector. */
  initialMs?: number;
  /** Cap before jitter; default 30 s. */
  maxMs?: number;
  /** Growth per failure; default 2. */
  factor?: number;
  /** Extra random fraction of each delay, in [0, jitter]; default 1.0. 0 makes delays exact. */
  jitter?: number;
  /** Random source in [0, 1); injectable so tests are deterministic. */
  random?: () => number;
}

export const DEFAULT_BACKOFF = { initialMs: 800, maxMs: 30_000, factor: 2, jitter: 1 } as const;

export class Backoff {
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly factor: number;
  private readonly jitter: number;
  private readonly random: () => number;
  private failures = 0;

  constructor(opts: BackoffOptions = {}) {
    this.initialMs = opts.initialMs ?? DEFAULT_BACKOFF.initialMs;
    this.maxMs = opts.maxMs ?? DEFAULT_BACKOFF.maxMs;
    this.factor = opts.factor ?? DEFAULT_BACKOFF.factor;
    this.jitter = opts.jitter ?? DEFAULT_BACKOFF.jitter;
    this.random = opts.random ?? Math.random;
    if (!(this.initialMs >= 0) || !(this.maxMs >= this.initialMs)) throw new Error('backoff: need 0 <= initialMs <= maxMs');
    if (!(this.factor >= 1)) throw new Error('backoff: factor must be >= 1');
    if (!(this.jitter >= 0)) throw new Error('backoff: jitter must be >= 0');
  }

  /** The delay before the next attempt; each call counts one more failure. */
  next(): number {
    const base = Math.min(this.initialMs * this.factor ** this.failures, this.maxMs);
    this.failures++;
    return Math.round(base + base * this.jitter * this.random());
  }

  /** Failures since the last reset. */
  get attempts(): number {
    return this.failures;
  }

  reset(): void {
    this.failures = 0;
  }
}

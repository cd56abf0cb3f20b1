/**
 * A per-host breaker: after BREAKER_THRESHOLD consecutive connection failures the host is skipped
 * for retryMs, then one trial call is let through. Server-side errors (no leader, compaction…)
 * prove the host reachable and do not count.
 */
import { EtcdHostDownError, isConnectionFailure, isTransient } from '../etcd-codec.js';

const BREAKER_THRESHOLD = 3;

export class HostBreaker {
  private failures = 0;
  private openUntil = 0;
  private trialRunning = false;

  constructor(
    readonly host: string,
    private readonly retryMs: number,
  ) {}

  /**
   * Admits one call, or throws EtcdHostDownError while the breaker is open. Returns true when
   * the call is the trial of an open breaker: pass that to settle().
   */
  admit(): boolean {
    if (this.failures < BREAKER_THRESHOLD) return false;
    if (Date.now() < this.openUntil || this.trialRunning) throw new EtcdHostDownError(this.host);
    this.trialRunning = true;
    return true;
  }

  /** Records a call's outcome (err undefined: success). */
  settle(trial: boolean, err?: unknown): void {
    if (trial) this.trialRunning = false;
    if (err === undefined) {
      this.failures = 0;
    } else if (isConnectionFailure(err)) {
      this.failures++;
      if (this.failures >= BREAKER_THRESHOLD) this.openUntil = Date.now() + this.retryMs;
    } else if (!isTransient(err)) {
      this.failures = 0;
    }
  }

  /** Ends a trial admitted for something that is not a call's outcome (a stream opened). */
  release(): void {
    this.trialRunning = false;
  }

  /** Counts a connection failure seen outside a call (a broken stream). */
  markFailed(err: unknown): void {
    this.settle(false, err);
  }

  /** The policy interface etcd3's ConnectionPool calls (synchronous results are neutral). */
  async execute<T>(fn: (context: { signal: AbortSignal }) => T | Promise<T>): Promise<T> {
    const trial = this.admit();
    try {
      const result = fn(NEVER_ABORTED);
      if (!(result instanceof Promise)) {
        if (trial) this.release();
        return result;
      }
      const value = await result;
      this.settle(trial);
      return value;
    } catch (err) {
      this.settle(trial, err);
      throw err;
    }
  }
}

/**
 * The context the pool's policies hand to calls: nothing aborts them (deadlines do), and the
 * pool ignores it, so one never-aborted signal serves every call.
 */
export const NEVER_ABORTED = { signal: new AbortController().signal };

/**
 * client-go's work queue rate limiters (util/workqueue/default_rate_limiters.go), which say how
 * long a failed item waits before it is handed out again. An item is never dropped: it waits
 * longer each time it fails, up to a cap, until its owner forgets it (after a success).
 *
 * - ItemExponentialFailureRateLimiter: base·2^failures per item, capped at max;
 * - BucketRateLimiter: an overall token bucket (golang.org/x/time/rate reservations), qps refilled,
 *   burst held: past the burst, items are spaced 1/qps apart;
 * - MaxOfRateLimiter: the longest of several;
 * - defaultControllerRateLimiter: DefaultControllerRateLimiter, exponential 5 ms … 1000 s, max'd
 *   with a 10 qps, burst 100 bucket.
 *
 * One copy for the client's controller toolkit (packages/client/src/toolkit/) and the server's own
 * controllers (runtime/controllers/), which is why it sits at the bottom layer both may import.
 */

export interface WorkQueueRateLimiter<T> {
  /** How long item waits now (ms); counts one more failure for per-item limiters. */
  when(item: T): number;
  /** Stops tracking item (it succeeded): its next failure starts from the base delay again. */
  forget(item: T): void;
  /** How many times item has failed since it was last forgotten. */
  numRequeues(item: T): number;
}

/** A time source in milliseconds; tests pass a fake one. */
export interface RateLimiterClock {
  now(): number;
}

const monotonic: RateLimiterClock = { now: () => performance.now() };

export class ItemExponentialFailureRateLimiter<T> implements WorkQueueRateLimiter<T> {
  private readonly failures = new Map<T, number>();

  constructor(
    readonly baseDelayMs = 5,
    readonly maxDelayMs = 1000 * 1000,
  ) {}

  when(item: T): number {
    const exp = this.failures.get(item) ?? 0;
    this.failures.set(item, exp + 1);
    const backoff = this.baseDelayMs * 2 ** exp;
    return Number.isFinite(backoff) ? Math.min(backoff, this.maxDelayMs) : this.maxDelayMs;
  }

  forget(item: T): void {
    this.failures.delete(item);
  }

  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }
}

/** rate.Limiter's Reserve().Delay(): one token per item added, whatever the item. */
export class BucketRateLimiter<T> implements WorkQueueRateLimiter<T> {
  private tokens: number;
  private last: number;

  constructor(
    readonly qps = 10,
    readonly burst = 100,
    private readonly clock: RateLimiterClock = monotonic,
  ) {
    this.tokens = burst;
    this.last = clock.now();
  }

  when(_item: T): number {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.qps) * 1000;
  }

  forget(_item: T): void {}

  numRequeues(_item: T): number {
    return 0;
  }
}

export class MaxOfRateLimiter<T> implements WorkQueueRateLimiter<T> {
  private readonly limiters: WorkQueueRateLimiter<T>[];

  constructor(...limiters: WorkQueueRateLimiter<T>[]) {
    this.limiters = limiters;
  }

  when(item: T): number {
    let longest = 0;
    for (const l of this.limiters) longest = Math.max(longest, l.when(item));
    return longest;
  }

  forget(item: T): void {
    for (const l of this.limiters) l.forget(item);
  }

  numRequeues(item: T): number {
    let most = 0;
    for (const l of this.limiters) most = Math.max(most, l.numRequeues(item));
    return most;
  }
}

/** client-go's DefaultTypedControllerRateLimiter, with kube's figures unless given others. */
export function defaultControllerRateLimiter<T>(
  clock: RateLimiterClock = monotonic,
  limits: { baseDelayMs?: number; maxDelayMs?: number; qps?: number; burst?: number } = {},
): WorkQueueRateLimiter<T> {
  return new MaxOfRateLimiter<T>(
    new ItemExponentialFailureRateLimiter<T>(limits.baseDelayMs ?? 5, limits.maxDelayMs ?? 1000 * 1000),
    new BucketRateLimiter<T>(limits.qps ?? 10, limits.burst ?? 100, clock),
  );
}

/**
 * Work queue rate limiters (client-go's util/workqueue default_rate_limiters.go): how long an
 * item waits before it is handed out again after a failure.
 *
 * - ItemExponentialFailureRateLimiter: base * 2^failures per item, capped (default 5 ms .. 1000 s).
 * - BucketRateLimiter: one token bucket for all items (default 10 qps, burst 100).
 * - MaxOfRateLimiter: the longest of several; DefaultControllerRateLimiter combines the two above.
 */
import { realClock, type ToolkitClock } from './clock.js';

export interface WorkQueueRateLimiter<T> {
  /** How long item should wait now; counts a failure for per-item limiters. */
  when(item: T): number;
  /** Stops tracking item (it succeeded). */
  forget(item: T): void;
  /** How many times item has failed since it was last forgotten. */
  numRequeues(item: T): number;
}

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

/** An overall token bucket (golang.org/x/time/rate reservations): waits space items 1/qps apart past the burst. */
export class BucketRateLimiter<T> implements WorkQueueRateLimiter<T> {
  private tokens: number;
  private last: number;

  constructor(
    readonly qps = 10,
    readonly burst = 100,
    private readonly clock: ToolkitClock = realClock,
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
    return Math.max(0, ...this.limiters.map((l) => l.when(item)));
  }

  forget(item: T): void {
    for (const l of this.limiters) l.forget(item);
  }

  numRequeues(item: T): number {
    return Math.max(0, ...this.limiters.map((l) => l.numRequeues(item)));
  }
}

/** client-go's DefaultTypedControllerRateLimiter: per-item 5 ms..1000 s exponential, overall 10 qps burst 100. */
export function defaultControllerRateLimiter<T>(clock: ToolkitClock = realClock): WorkQueueRateLimiter<T> {
  return new MaxOfRateLimiter<T>(new ItemExponentialFailureRateLimiter<T>(5, 1000 * 1000), new BucketRateLimiter<T>(10, 100, clock));
}

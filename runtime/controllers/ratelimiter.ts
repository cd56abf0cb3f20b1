/**
 * client-go's workqueue rate limiters (util/workqueue/default_rate_limiters.go), which say how
 * long a failed key waits before it is processed again. A key is never dropped: it waits longer
 * each time it fails, up to a cap, until the controller forgets it (after a success).
 *
 * - ItemExponentialFailureRateLimiter: base·2^failures per key, capped at max;
 * - BucketRateLimiter: an overall token bucket (golang.org/x/time/rate), qps refilled, burst held;
 * - MaxOfRateLimiter: the longest of several;
 * - DefaultControllerRateLimiter (the garbage collector's and the ClusterRole aggregation
 *   controller's queues): exponential 5 ms … 1000 s, max'd with a 10 qps, burst 100 bucket;
 * - the namespace controller's nsControllerRateLimiter (pkg/controller/namespace/
 *   namespace_controller.go): the same but capped at 60 s, "so that we retry namespace deletion at
 *   least every minute, never longer".
 */

export interface RateLimiter<K> {
  /** How long `key` waits before it is added again (ms); counts one more failure of it. */
  when(key: K): number;
  /** Stops tracking `key`: its next failure starts from the base delay again. */
  forget(key: K): void;
  /** How many times `key` has failed since it was last forgotten. */
  numRequeues(key: K): number;
}

/** Milliseconds of a monotonic clock; tests pass a fake one. */
export type Clock = () => number;

export class ItemExponentialFailureRateLimiter<K> implements RateLimiter<K> {
  private readonly failures = new Map<K, number>();
  constructor(
    private readonly baseDelayMs: number,
    private readonly maxDelayMs: number,
  ) {}

  when(key: K): number {
    const exp = this.failures.get(key) ?? 0;
    this.failures.set(key, exp + 1);
    return Math.min(this.baseDelayMs * 2 ** exp, this.maxDelayMs);
  }

  forget(key: K): void {
    this.failures.delete(key);
  }

  numRequeues(key: K): number {
    return this.failures.get(key) ?? 0;
  }
}

/** rate.Limiter's Reserve().Delay(): one token per key added, whatever the key. */
export class BucketRateLimiter<K> implements RateLimiter<K> {
  private tokens: number;
  private last: number;
  constructor(
    private readonly qps: number,
    private readonly burst: number,
    private readonly now: Clock = () => performance.now(),
  ) {
    this.tokens = burst;
    this.last = now();
  }

  when(): number {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.qps);
    this.last = t;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.qps) * 1000;
  }

  forget(): void {}

  numRequeues(): number {
    return 0;
  }
}

export class MaxOfRateLimiter<K> implements RateLimiter<K> {
  private readonly limiters: RateLimiter<K>[];
  constructor(...limiters: RateLimiter<K>[]) {
    this.limiters = limiters;
  }

  when(key: K): number {
    let longest = 0;
    for (const l of this.limiters) longest = Math.max(longest, l.when(key));
    return longest;
  }

  forget(key: K): void {
    for (const l of this.limiters) l.forget(key);
  }

  numRequeues(key: K): number {
    let most = 0;
    for (const l of this.limiters) most = Math.max(most, l.numRequeues(key));
    return most;
  }
}

export interface ControllerRateLimits {
  /** First retry delay; doubles per failure. kube: 5 ms. */
  baseDelayMs?: number;
  /** Longest retry delay. kube: 1000 s (the namespace controller: 60 s). */
  maxDelayMs?: number;
  /** The overall bucket's refill, keys per second. kube: 10. */
  qps?: number;
  /** The overall bucket's size. kube: 100. */
  burst?: number;
  now?: Clock;
}

/** workqueue.DefaultControllerRateLimiter, with kube's figures unless given others. */
export function controllerRateLimiter<K>(limits: ControllerRateLimits = {}): RateLimiter<K> {
  return new MaxOfRateLimiter<K>(
    new ItemExponentialFailureRateLimiter<K>(limits.baseDelayMs ?? 5, limits.maxDelayMs ?? 1_000_000),
    new BucketRateLimiter<K>(limits.qps ?? 10, limits.burst ?? 100, limits.now),
  );
}

/** The namespace controller's longest retry delay (nsControllerRateLimiter). */
export const NAMESPACE_MAX_DELAY_MS = 60_000;

/**
 * Client-side rate limiting: a token bucket, as client-go's flowcontrol.NewTokenBucketRateLimiter.
 * The bucket starts full (burst tokens) and refills at qps tokens per second. Every attempt a
 * RestClient makes, retries included, takes one token first.
 */

export interface RateLimiter {
  /** Resolves once the caller may send one request; rejects with the signal's reason if aborted. */
  wait(signal?: AbortSignal): Promise<void>;
  /** Takes a token if one is available now; never waits. */
  tryAccept(): boolean;
}

/** Time source, injectable so tests need not sleep. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  now: () => performance.now(),
  sleep: abortableSleep,
};

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Token bucket with reservations, like golang.org/x/time/rate: a waiter takes its token at once
 * (the balance may go negative) and sleeps until the bucket would have refilled it, so concurrent
 * callers are spaced 1/qps apart in arrival order without a queue.
 */
export class TokenBucketRateLimiter implements RateLimiter {
  private tokens: number;
  private last: number;

  constructor(
    readonly qps: number,
    readonly burst: number,
    private readonly clock: Clock = realClock,
  ) {
    if (!(qps > 0)) throw new Error(`rate limiter qps must be > 0, got ${qps}`);
    if (!(burst >= 1)) throw new Error(`rate limiter burst must be >= 1, got ${burst}`);
    this.tokens = burst;
    this.last = clock.now();
  }

  tryAccept(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  async wait(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    this.refill();
    this.tokens -= 1;
    if (this.tokens >= 0) return;
    const delayMs = (-this.tokens / this.qps) * 1000;
    try {
      await this.clock.sleep(delayMs, signal);
    } catch (err) {
      this.tokens += 1; // give back the reservation we will not use
      throw err;
    }
  }

  private refill(): void {
    const now = this.clock.now();
    const elapsed = Math.max(0, now - this.last) / 1000;
    this.last = now;
    this.tokens = Math.min(this.burst, this.tokens + elapsed * this.qps);
  }
}

/** Never waits; used when qps <= 0. */
export const unlimited: RateLimiter = {
  wait: async (signal) => signal?.throwIfAborted(),
  tryAccept: () => true,
};

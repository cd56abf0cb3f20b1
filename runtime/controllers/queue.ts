/**
 * A work queue with client-go workqueue semantics (a rate-limiting queue): a key is queued at
 * most once; a key added while it is being processed is processed again afterwards (never
 * concurrently); a failed key is added again after its rate limiter's delay (addRateLimited), for
 * as long as it fails, never dropped: kube's garbage collector, namespace controller and ClusterRole
 * aggregation controller call AddRateLimited on every error and Forget only after a success.
 * shutDown() clears every timer and ends run(), so a stopped controller leaves no handle behind.
 */
import { controllerRateLimiter, type ControllerRateLimits, type RateLimiter } from './ratelimiter.js';

/** The rate limiter's figures (ratelimiter.ts; kube's DefaultControllerRateLimiter unless given), or a rate limiter. */
export interface WorkQueueOptions extends ControllerRateLimits {
  rateLimiter?: RateLimiter<unknown>;
  metrics?: WorkQueueMetrics;
}

/**
 * Hooks a caller observes the queue through, as client-go's MetricsProvider (and the client
 * toolkit's WorkQueueMetrics, packages/client/src/toolkit/workqueue.ts). They run synchronously
 * and must not throw.
 */
export interface WorkQueueMetrics {
  /**
   * A key was added again through the rate limiter (addRateLimited): one failure, the retries
   * counter (workqueue_retries_total). A key is never dropped, so no moment says its retries ran
   * out; what must outlast a bounded retry budget (a test of an outage) counts these instead of
   * waiting a time.
   */
  retry?(key: unknown): void;
}

export class WorkQueue<K> {
  private readonly items: K[] = [];
  private readonly queued = new Set<K>();
  private readonly processing = new Set<K>();
  private readonly dirty = new Set<K>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private wake: (() => void) | undefined;
  private stopped = false;
  private readonly rateLimiter: RateLimiter<K>;
  private readonly metrics: WorkQueueMetrics;

  constructor(opts: WorkQueueOptions = {}) {
    this.rateLimiter = (opts.rateLimiter as RateLimiter<K> | undefined) ?? controllerRateLimiter<K>(opts);
    this.metrics = opts.metrics ?? {};
  }

  get shuttingDown(): boolean {
    return this.stopped;
  }

  /** Number of keys waiting or being processed (timers not counted). */
  get length(): number {
    return this.queued.size + this.processing.size;
  }

  add(key: K): void {
    if (this.stopped || this.queued.has(key)) return;
    if (this.processing.has(key)) {
      this.dirty.add(key);
      return;
    }
    this.queued.add(key);
    this.items.push(key);
    this.wake?.();
  }

  /** Adds `key` after `delayMs` (at once when it is not positive), as client-go's AddAfter. */
  addAfter(key: K, delayMs: number): void {
    if (this.stopped) return;
    if (!(delayMs > 0)) return this.add(key);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.add(key);
    }, delayMs);
    timer.unref?.();
    this.timers.add(timer);
  }

  /** Adds `key` again once its rate limiter allows it: the longer it keeps failing, the later (AddRateLimited). */
  addRateLimited(key: K): void {
    this.metrics.retry?.(key);
    this.addAfter(key, this.rateLimiter.when(key));
  }

  /** How many times `key` has been added rate-limited since it was last forgotten (NumRequeues). */
  numRequeues(key: K): number {
    return this.rateLimiter.numRequeues(key);
  }

  /** Clears the failures of a key that was processed successfully (Forget). */
  forget(key: K): void {
    this.rateLimiter.forget(key);
  }

  shutDown(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.wake?.();
  }

  /**
   * Processes keys one at a time until shutDown(). A key `handle` succeeds with is forgotten (the
   * controllers' Forget); its errors are passed to `onError`, which adds it again (addRateLimited);
   * run() itself never rejects.
   */
  async run(handle: (key: K) => Promise<void>, onError: (key: K, err: unknown) => void): Promise<void> {
    while (!this.stopped) {
      const key = this.items.shift();
      if (key === undefined) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
        continue;
      }
      this.queued.delete(key);
      this.processing.add(key);
      try {
        await handle(key);
        this.forget(key);
      } catch (err) {
        if (!this.stopped) onError(key, err);
      } finally {
        this.processing.delete(key);
        if (this.dirty.delete(key)) this.add(key);
      }
    }
  }
}

/**
 * The server's controllers' work queue: client-go's rate-limiting queue (the one copy,
 * runtime/api/workqueue.ts, which the client toolkit shares) with the controllers' loop around it.
 * A key is queued at most once; a key added while it is being processed is processed again
 * afterwards (never concurrently); a delayed key waits for its earliest delay; a failed key is
 * added again after its rate limiter's delay (addRateLimited), for as long as it fails, never
 * dropped: kube's garbage collector, namespace controller and ClusterRole aggregation controller
 * call AddRateLimited on every error and Forget only after a success. shutDown() clears every
 * timer and ends run() without handing out what is still queued, so a stopped controller leaves
 * no handle behind and touches no storage after it stopped.
 */
import { WorkQueue as SharedQueue, type QueueClock } from '../api/workqueue.js';
import { controllerRateLimiter, type ControllerRateLimits, type RateLimiter } from './ratelimiter.js';

/** The rate limiter's figures (ratelimiter.ts; kube's DefaultControllerRateLimiter unless given), or a rate limiter. */
export interface WorkQueueOptions extends ControllerRateLimits {
  rateLimiter?: RateLimiter<unknown>;
  metrics?: WorkQueueMetrics;
}

/**
 * Hooks a caller observes the queue through, as client-go's MetricsProvider (the shared queue's
 * WorkQueueMetrics). They run synchronously and must not throw.
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

/** Real timers that do not keep the process alive: a controller's pending retry is no reason to stay up. */
const unrefClock: QueueClock = {
  now: () => Date.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, Math.max(0, ms));
    timer.unref?.();
    return { cancel: () => clearTimeout(timer) };
  },
};

export class WorkQueue<K> {
  private readonly queue: SharedQueue<K>;
  /** Keys handed out by run() and not yet done. */
  private inFlight = 0;

  constructor(opts: WorkQueueOptions = {}) {
    const rateLimiter = (opts.rateLimiter as RateLimiter<K> | undefined) ?? controllerRateLimiter<K>(opts);
    this.queue = new SharedQueue<K>({ clock: unrefClock, rateLimiter, metrics: opts.metrics });
  }

  get shuttingDown(): boolean {
    return this.queue.shuttingDown();
  }

  /** Number of keys waiting or being processed (delayed ones not counted). */
  get length(): number {
    return this.queue.len() + this.inFlight;
  }

  add(key: K): void {
    this.queue.add(key);
  }

  /** Adds `key` after `delayMs` (at once when it is not positive), as client-go's AddAfter. */
  addAfter(key: K, delayMs: number): void {
    this.queue.addAfter(key, delayMs > 0 ? delayMs : 0);
  }

  /** Adds `key` again once its rate limiter allows it: the longer it keeps failing, the later (AddRateLimited). */
  addRateLimited(key: K): void {
    this.queue.addRateLimited(key);
  }

  /** How many times `key` has been added rate-limited since it was last forgotten (NumRequeues). */
  numRequeues(key: K): number {
    return this.queue.numRequeues(key);
  }

  /** Clears the failures of a key that was processed successfully (Forget). */
  forget(key: K): void {
    this.queue.forget(key);
  }

  shutDown(): void {
    this.queue.shutDown();
  }

  /**
   * Processes keys one at a time until shutDown(). A key `handle` succeeds with is forgotten (the
   * controllers' Forget); its errors are passed to `onError`, which adds it again (addRateLimited);
   * run() itself never rejects.
   */
  async run(handle: (key: K) => Promise<void>, onError: (key: K, err: unknown) => void): Promise<void> {
    for (;;) {
      const next = await this.queue.get();
      if (next.shutdown) return;
      const key = next.item;
      if (this.queue.shuttingDown()) {
        this.queue.done(key);
        return;
      }
      this.inFlight++;
      try {
        await handle(key);
        this.forget(key);
      } catch (err) {
        if (!this.queue.shuttingDown()) onError(key, err);
      } finally {
        this.inFlight--;
        this.queue.done(key);
      }
    }
  }
}

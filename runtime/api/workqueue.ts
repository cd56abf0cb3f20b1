/**
 * The work queue controllers pull keys from, with client-go's semantics (util/workqueue: queue.go,
 * delaying_queue.go, rate_limiting_queue.go). One copy for the client's controller toolkit
 * (packages/client/src/toolkit/workqueue.ts re-exports it) and the server's own controllers
 * (runtime/controllers/queue.ts runs its loop over it), which is why it sits at the bottom layer
 * both may import, beside its rate limiters.
 *
 *
 * - An item waiting in the queue is there once: adding it again does nothing (dirty set).
 * - An item being processed (handed out by get(), not yet done()) is never handed out again; if it
 *   is added meanwhile it is queued again when done() is called (processing set).
 * - addAfter(item, ms) adds it later (the earliest of several pending delays wins);
 *   addRateLimited(item) adds it after the rate limiter's delay; forget(item) resets its failures;
 *   numRequeues(item) counts them.
 * - shutDown(): adds are ignored, get() hands out what is still queued, then answers shutdown.
 *   shutDownWithDrain() also waits until every item handed out is done.
 * - Metrics hooks (client-go's MetricsProvider): adds, depth, queue latency, work duration, retries.
 */
import { defaultControllerRateLimiter, type WorkQueueRateLimiter } from './ratelimiter.js';

export interface QueueTimer {
  cancel(): void;
}

/** The time source of delayed adds (the client toolkit's ToolkitClock has this shape; tests pass a fake one). */
export interface QueueClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls fn after ms (never synchronously); cancel() stops it. */
  after(ms: number, fn: () => void): QueueTimer;
}

/** Real timers, which keep the process alive while a delayed add waits (as the client toolkit's realClock). */
export const realQueueClock: QueueClock = {
  now: () => Date.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, Math.max(0, ms));
    return { cancel: () => clearTimeout(timer) };
  },
};

export interface WorkQueueMetrics<T> {
  /** An item was added (it was not already waiting). */
  add?(item: T): void;
  /** Items waiting now. */
  depth?(depth: number): void;
  /** An item was handed out after waiting queuedMs. */
  get?(item: T, queuedMs: number): void;
  /** An item was done after workMs of processing. */
  done?(item: T, workMs: number): void;
  /** An item was re-added through the rate limiter. */
  retry?(item: T): void;
}

export interface WorkQueueOptions<T> {
  name?: string;
  clock?: QueueClock;
  rateLimiter?: WorkQueueRateLimiter<T>;
  metrics?: WorkQueueMetrics<T>;
}

export interface QueueItem<T> {
  item: T;
  shutdown: false;
}

export class WorkQueue<T> {
  readonly name: string;
  private readonly clock: QueueClock;
  private readonly rateLimiter: WorkQueueRateLimiter<T>;
  private readonly metrics: WorkQueueMetrics<T>;
  private queue: T[] = [];
  private readonly dirty = new Set<T>();
  private readonly processing = new Set<T>();
  private readonly addedAt = new Map<T, number>();
  private readonly startedAt = new Map<T, number>();
  private readonly waiting = new Map<T, { at: number; timer: QueueTimer }>();
  private readonly getters: ((item: QueueItem<T> | { shutdown: true }) => void)[] = [];
  private drainWaiters: (() => void)[] = [];
  private shuttingDownFlag = false;

  constructor(opts: WorkQueueOptions<T> = {}) {
    this.name = opts.name ?? '';
    this.clock = opts.clock ?? realQueueClock;
    this.rateLimiter = opts.rateLimiter ?? defaultControllerRateLimiter<T>(this.clock);
    this.metrics = opts.metrics ?? {};
  }

  /** Items waiting to be handed out (not those being processed or delayed). */
  len(): number {
    return this.queue.length;
  }

  shuttingDown(): boolean {
    return this.shuttingDownFlag;
  }

  add(item: T): void {
    if (this.shuttingDownFlag || this.dirty.has(item)) return;
    this.metrics.add?.(item);
    this.dirty.add(item);
    if (this.processing.has(item)) return;
    this.push(item);
  }

  /** Adds item after ms (now when ms <= 0); a pending later delay is brought forward, an earlier one kept. */
  addAfter(item: T, ms: number): void {
    if (this.shuttingDownFlag) return;
    if (ms <= 0) return this.add(item);
    const at = this.clock.now() + ms;
    const pending = this.waiting.get(item);
    if (pending && pending.at <= at) return;
    pending?.timer.cancel();
    const timer = this.clock.after(ms, () => {
      this.waiting.delete(item);
      this.add(item);
    });
    this.waiting.set(item, { at, timer });
  }

  addRateLimited(item: T): void {
    this.metrics.retry?.(item);
    this.addAfter(item, this.rateLimiter.when(item));
  }

  forget(item: T): void {
    this.rateLimiter.forget(item);
  }

  numRequeues(item: T): number {
    return this.rateLimiter.numRequeues(item);
  }

  /**
   * The next item (now, or when one is added); `shutdown: true` once the queue is shut down and
   * empty. Call done(item) when finished with it.
   */
  get(): Promise<QueueItem<T> | { shutdown: true }> {
    if (this.queue.length > 0) return Promise.resolve(this.take());
    if (this.shuttingDownFlag) return Promise.resolve({ shutdown: true });
    return new Promise((resolve) => this.getters.push(resolve));
  }

  done(item: T): void {
    const started = this.startedAt.get(item);
    this.startedAt.delete(item);
    if (started !== undefined) this.metrics.done?.(item, this.clock.now() - started);
    this.processing.delete(item);
    if (this.dirty.has(item)) this.push(item);
    if (this.processing.size === 0 && this.drainWaiters.length) {
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const w of waiters) w();
    }
  }

  /** Stops accepting adds and delayed adds; waiting getters get shutdown once the queue is empty. */
  shutDown(): void {
    this.shuttingDownFlag = true;
    for (const { timer } of this.waiting.values()) timer.cancel();
    this.waiting.clear();
    if (this.queue.length === 0) {
      for (const g of this.getters.splice(0)) g({ shutdown: true });
    }
  }

  /** shutDown(), then resolves once every item handed out has been done() (client-go's ShutDownWithDrain). */
  shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  private push(item: T): void {
    this.addedAt.set(item, this.clock.now());
    const getter = this.getters.shift();
    if (getter) {
      this.queue.push(item);
      getter(this.take());
    } else {
      this.queue.push(item);
    }
    this.metrics.depth?.(this.queue.length);
  }

  private take(): QueueItem<T> {
    const item = this.queue.shift()!;
    this.metrics.depth?.(this.queue.length);
    this.processing.add(item);
    this.dirty.delete(item);
    const now = this.clock.now();
    this.metrics.get?.(item, now - (this.addedAt.get(item) ?? now));
    this.addedAt.delete(item);
    this.startedAt.set(item, now);
    if (this.shuttingDownFlag && this.queue.length === 0) {
      for (const g of this.getters.splice(0)) g({ shutdown: true });
    }
    return { item, shutdown: false };
  }
}

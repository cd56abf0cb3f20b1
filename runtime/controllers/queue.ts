/**
 * A work queue with client-go workqueue semantics: a key is queued at most once; a key added
 * while it is being processed is processed again afterwards (never concurrently); failures are
 * retried with exponential backoff, a bounded number of times. shutDown() clears every timer and
 * ends run(), so a stopped controller leaves no handle behind.
 */
import { StatusError } from '../api/status.js';

/** A failure that passes by itself: the storage unreachable or overloaded (503, 504, 429). See WorkQueue.retryLater. */
export function isTransient(err: unknown): boolean {
  return err instanceof StatusError && (err.status.code === 503 || err.status.code === 504 || err.status.code === 429);
}

export interface WorkQueueOptions {
  /** First retry delay; doubles per failure. Default 20 ms. */
  baseDelayMs?: number;
  /** Longest retry delay. Default 10 s. */
  maxDelayMs?: number;
  /** Failures after which a key is dropped until something adds it again. Default 8. */
  maxRetries?: number;
}

export class WorkQueue<K> {
  private readonly items: K[] = [];
  private readonly queued = new Set<K>();
  private readonly processing = new Set<K>();
  private readonly dirty = new Set<K>();
  private readonly failures = new Map<K, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private wake: (() => void) | undefined;
  private stopped = false;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly maxRetries: number;

  constructor(opts: WorkQueueOptions = {}) {
    this.baseDelayMs = opts.baseDelayMs ?? 20;
    this.maxDelayMs = opts.maxDelayMs ?? 10_000;
    this.maxRetries = opts.maxRetries ?? 8;
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

  addAfter(key: K, delayMs: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.add(key);
    }, delayMs);
    timer.unref?.();
    this.timers.add(timer);
  }

  /** Schedules a retry with backoff; false (and the key forgotten) once retries are exhausted. */
  retry(key: K): boolean {
    const n = (this.failures.get(key) ?? 0) + 1;
    if (n > this.maxRetries) {
      this.failures.delete(key);
      return false;
    }
    this.failures.set(key, n);
    this.addAfter(key, Math.min(this.baseDelayMs * 2 ** (n - 1), this.maxDelayMs));
    return true;
  }

  /**
   * Adds a key again after the longest retry delay, whatever its failures (kube's controllers
   * retry every failure for as long as it lasts): for an error that outlasted the retries but
   * passes by itself, such as the storage being unreachable.
   */
  retryLater(key: K): void {
    this.addAfter(key, this.maxDelayMs);
  }

  /** Clears the failure count of a key that was processed successfully. */
  forget(key: K): void {
    this.failures.delete(key);
  }

  shutDown(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.wake?.();
  }

  /**
   * Processes keys one at a time until shutDown(). `handle` errors are passed to `onError`, which
   * decides about retrying; run() itself never rejects.
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

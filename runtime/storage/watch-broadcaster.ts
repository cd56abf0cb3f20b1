/**
 * The in-process fan-out of committed changes to watchers, shared by the backends.
 *
 * Contracts:
 * - A watcher receives every item published after it was registered, in publish order, converted
 *   by its own `convert` (which returns undefined to skip an item); nothing is dropped. Buffers
 *   are unbounded for now.
 * - stop() (or breaking out of a for-await loop) ends the iteration at once: a pending next()
 *   resolves done, and buffered events are discarded.
 * - A watcher created with an error yields nothing and rejects its first next() with it.
 */
import type { StorageEvent, Watcher } from './interface.js';

/** One watcher's queue of events, consumed as an async iterator. */
export class QueueWatcher implements Watcher {
  private buffer: StorageEvent[] = [];
  private head = 0;
  private waiting: { resolve: (r: IteratorResult<StorageEvent>) => void; reject: (e: unknown) => void } | undefined;
  private stopped = false;
  private error: unknown;

  constructor(private readonly onStop: (w: QueueWatcher) => void = () => {}) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  push(event: StorageEvent): void {
    if (this.stopped || this.error !== undefined) return;
    if (this.waiting) {
      const { resolve } = this.waiting;
      this.waiting = undefined;
      resolve({ value: event, done: false });
      return;
    }
    this.buffer.push(event);
  }

  /** Ends the watch with an error: delivered after the events already buffered. */
  fail(error: unknown): void {
    if (this.stopped || this.error !== undefined) return;
    this.error = error;
    this.onStop(this);
    if (this.waiting && this.head >= this.buffer.length) {
      const { reject } = this.waiting;
      this.waiting = undefined;
      this.stopped = true;
      reject(error);
    }
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.buffer = [];
    this.head = 0;
    this.onStop(this);
    if (this.waiting) {
      const { resolve } = this.waiting;
      this.waiting = undefined;
      resolve({ value: undefined, done: true });
    }
  }

  next(): Promise<IteratorResult<StorageEvent>> {
    if (this.stopped) return Promise.resolve({ value: undefined, done: true });
    if (this.head < this.buffer.length) return Promise.resolve({ value: this.shift(), done: false });
    if (this.error !== undefined) {
      const error = this.error;
      this.stopped = true;
      return Promise.reject(error);
    }
    if (this.waiting) return Promise.reject(new Error('watcher: next() called while a previous next() is pending'));
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<StorageEvent> {
    return {
      next: () => this.next(),
      return: () => {
        this.stop();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }

  private shift(): StorageEvent {
    const event = this.buffer[this.head++];
    if (this.head > 1024 && this.head * 2 > this.buffer.length) {
      this.buffer = this.buffer.slice(this.head);
      this.head = 0;
    }
    return event;
  }
}

/** Fans published items out to registered watchers; T is the backend's change record. */
export class WatchBroadcaster<T> {
  private readonly subscribers = new Map<QueueWatcher, (item: T) => StorageEvent | undefined>();
  private closed = false;

  /**
   * A watcher that first yields `initial` (events the caller read from history), then every item
   * published from now on that `convert` maps to an event. If convert throws, that watcher fails.
   */
  watch(convert: (item: T) => StorageEvent | undefined, initial: StorageEvent[] = []): QueueWatcher {
    const watcher = new QueueWatcher((w) => this.subscribers.delete(w));
    for (const event of initial) watcher.push(event);
    if (this.closed) watcher.stop();
    else this.subscribers.set(watcher, convert);
    return watcher;
  }

  /** A watcher that rejects its first next() with error. */
  failed(error: unknown): QueueWatcher {
    const watcher = new QueueWatcher();
    watcher.fail(error);
    return watcher;
  }

  publish(item: T): void {
    for (const [watcher, convert] of this.subscribers) {
      let event: StorageEvent | undefined;
      try {
        event = convert(item);
      } catch (err) {
        watcher.fail(err);
        continue;
      }
      if (event) watcher.push(event);
    }
  }

  /** The number of registered watchers. */
  get size(): number {
    return this.subscribers.size;
  }

  /** Stops every watcher; later watch() calls return stopped watchers. */
  close(): void {
    this.closed = true;
    for (const watcher of [...this.subscribers.keys()]) watcher.stop();
  }
}

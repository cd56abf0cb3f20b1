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

type Convert<T> = (item: T) => StorageEvent | undefined;

/**
 * Fans published items out to registered watchers; T is the backend's change record.
 *
 * A backend that gives the broadcaster `keyOf` may register a watcher with the key range it
 * watches (a prefix ending in '/', or one exact key: storage's keyRangeOf): publish then calls
 * only the converts of the watchers whose range holds the item's key, instead of every watcher's
 * (a server holds one watch cache per resource, each watching its own prefix). The convert still
 * decides. Each watcher still receives its items in publish order; watchers of different ranges
 * are called by range (prefixes shortest first, then the exact key), those of one range in the
 * order they were registered.
 */
export class WatchBroadcaster<T> {
  /** Watchers registered without a range: every item is offered to them. */
  private readonly everywhere = new Map<QueueWatcher, Convert<T>>();
  /** Watchers of a prefix ending in '/', by prefix. */
  private readonly byPrefix = new Map<string, Map<QueueWatcher, Convert<T>>>();
  /** Watchers of one exact key, by key. */
  private readonly byKey = new Map<string, Map<QueueWatcher, Convert<T>>>();
  private count = 0;
  private closed = false;

  constructor(private readonly keyOf?: (item: T) => string) {}

  /**
   * A watcher that first yields `initial` (events the caller read from history), then every item
   * published from now on that `convert` maps to an event. If convert throws, that watcher fails.
   * `range` (with keyOf given): the prefix ('/'-terminated) or exact key convert accepts; items
   * outside it are never offered to convert.
   */
  watch(convert: Convert<T>, initial: StorageEvent[] = [], range?: string): QueueWatcher {
    const routes = range === undefined || this.keyOf === undefined ? undefined : range.endsWith('/') ? this.byPrefix : this.byKey;
    const group = routes === undefined ? this.everywhere : (routes.get(range!) ?? routes.set(range!, new Map()).get(range!)!);
    const watcher = new QueueWatcher((w) => {
      if (!group.delete(w)) return;
      this.count--;
      if (routes !== undefined && group.size === 0) routes.delete(range!);
    });
    for (const event of initial) watcher.push(event);
    if (this.closed) watcher.stop();
    else {
      group.set(watcher, convert);
      this.count++;
    }
    return watcher;
  }

  /** A watcher that rejects its first next() with error. */
  failed(error: unknown): QueueWatcher {
    const watcher = new QueueWatcher();
    watcher.fail(error);
    return watcher;
  }

  publish(item: T): void {
    if (this.everywhere.size > 0) offer(this.everywhere, item);
    if (this.keyOf === undefined || (this.byPrefix.size === 0 && this.byKey.size === 0)) return;
    const key = this.keyOf(item);
    if (this.byPrefix.size > 0) {
      for (let i = key.indexOf('/'); i >= 0; i = key.indexOf('/', i + 1)) {
        const group = this.byPrefix.get(key.slice(0, i + 1));
        if (group !== undefined) offer(group, item);
      }
    }
    const exact = this.byKey.get(key);
    if (exact !== undefined) offer(exact, item);
  }

  /** The number of registered watchers. */
  get size(): number {
    return this.count;
  }

  /** Stops every watcher; later watch() calls return stopped watchers. */
  close(): void {
    this.closed = true;
    const groups = [this.everywhere, ...this.byPrefix.values(), ...this.byKey.values()];
    for (const group of groups) for (const watcher of [...group.keys()]) watcher.stop();
  }
}

/** Offers item to each watcher of group through its convert; a convert that throws fails its watcher. */
function offer<T>(group: Map<QueueWatcher, Convert<T>>, item: T): void {
  group.forEach((convert, watcher) => {
    let event: StorageEvent | undefined;
    try {
      event = convert(item);
    } catch (err) {
      watcher.fail(err);
      return;
    }
    if (event) watcher.push(event);
  });
}

/**
 * CacheWatcher: one watch served by the Cacher (kube's cacheWatcher). It yields, in order:
 * its initial events (a state snapshot or a replay of the event ring), the initial-events-end
 * bookmark when asked for, then live changes offered by the cacher or pumped from a backend
 * watch.
 *
 * Contracts:
 * - Live changes wait in a bounded buffer. A watcher whose consumer falls `bufferSize` changes
 *   behind is terminated (kube closes unresponsive watchers) rather than growing without bound:
 *   its iteration ends and the client re-watches from the last resourceVersion it saw.
 * - Events from the cache carry the cache's frozen, shared objects (./cached-object.ts): fan-out
 *   to many watchers copies nothing, and each object is encoded once for all of them. Objects a
 *   predicate derives (a DELETED for an object that stopped matching) are frozen too.
 * - stop() ends the iteration at once and is idempotent; end() (timeout) ends it after what is
 *   buffered, with a final bookmark when bookmarks are allowed; fail() delivers what is buffered
 *   and then rejects.
 */
import type { KubeObject } from '../../api/meta.js';
import type { StorageEvent, Watcher } from '../interface.js';
import type { KeyRange } from '../revision-log.js';
import { filterEvent, withLazyPrevObject } from '../watch-event.js';
import { deepFreeze } from './cached-object.js';
import type { CachedEvent } from './event-ring.js';

/** A progress marker: every change up to resourceVersion has been delivered. */
export interface BookmarkEvent {
  type: 'BOOKMARK';
  resourceVersion: string;
  /** Marks the end of the initial events of a sendInitialEvents watch (kube's WatchList). */
  initialEventsEnd: boolean;
}

export type CacheEvent = StorageEvent | BookmarkEvent;

export interface CacheWatcherConfig {
  range: KeyRange;
  predicate?: (obj: KubeObject) => boolean;
  allowBookmarks: boolean;
  bufferSize: number;
  /** Ends the watch gracefully after this long (kube's timeoutSeconds); undefined: never. */
  timeoutMs?: number;
  /** The revision the cache is current at, for bookmarks (0 when fed from a backend watch). */
  cacheRevision: () => number;
  /** Called once when the watcher stops receiving (stopped, ended, failed or terminated). */
  onRelease: (watcher: CacheWatcher) => void;
}

type State = 'pending' | 'active' | 'ended' | 'failed' | 'stopped';

export class CacheWatcher implements AsyncIterable<CacheEvent> {
  /** Set when the watcher was closed for falling behind. */
  terminated = false;
  /** True when live changes come from the cache's dispatch (false: a backend watch, or none yet). */
  fedByCache = false;
  private state: State = 'pending';
  private from = 0;
  private lastRevision = 0;
  private initial: CacheEvent[] = [];
  private initialHead = 0;
  private live: CacheEvent[] = [];
  private liveHead = 0;
  private error: unknown;
  private released = false;
  private source?: Watcher;
  private timer?: NodeJS.Timeout;
  private waiting?: { resolve: (r: IteratorResult<CacheEvent>) => void; reject: (e: unknown) => void };

  constructor(private readonly config: CacheWatcherConfig) {
    if (config.timeoutMs !== undefined) {
      this.timer = setTimeout(() => this.end(), config.timeoutMs);
      this.timer.unref();
    }
  }

  get isActive(): boolean {
    return this.state === 'active';
  }

  get allowBookmarks(): boolean {
    return this.config.allowBookmarks;
  }

  /**
   * Starts delivery: `initial` first, then an initial-events-end bookmark at `endBookmarkAt` (if
   * set and bookmarks are allowed), then live changes after revision `from`.
   */
  start(initial: StorageEvent[], from: number, endBookmarkAt?: number): void {
    if (this.state !== 'pending') return;
    this.initial = initial;
    if (endBookmarkAt !== undefined && this.config.allowBookmarks) {
      this.initial.push({ type: 'BOOKMARK', resourceVersion: String(endBookmarkAt), initialEventsEnd: true });
    }
    this.from = from;
    this.lastRevision = from;
    this.state = 'active';
    this.wake();
  }

  /** Starts delivery from a backend watch (history older than the cache's ring), after `initial`. */
  startFromBackend(source: Watcher, from: number, initial: StorageEvent[] = [], endBookmarkAt?: number): void {
    if (this.state !== 'pending') {
      source.stop();
      return;
    }
    this.source = source;
    this.start(initial, from, endBookmarkAt);
    void this.pump(source);
  }

  /** Offers one change the cache applied; filtered by key range, revision and predicate. */
  dispatch(change: CachedEvent): void {
    if (this.state !== 'active' || change.revision <= this.from) return;
    const event = this.select(change);
    if (event) this.enqueue(event);
  }

  /** The event this watcher sees for `change` (kube's filterWithAttrsFunction), if any. */
  select(change: CachedEvent): StorageEvent | undefined {
    if (change.key < this.config.range.start || change.key >= this.config.range.end) return undefined;
    const event = filterEvent(toStorageEvent(change), this.config.predicate);
    if (event && event.object !== change.object) deepFreeze(event.object);
    return event;
  }

  /** Queues a bookmark unless the buffer is full; bookmarks never terminate a watcher. */
  bookmark(): void {
    if (this.state !== 'active' || !this.config.allowBookmarks) return;
    if (this.live.length - this.liveHead >= this.config.bufferSize) return;
    this.live.push(this.bookmarkEvent());
    this.wake();
  }

  /** Ends the watch after what is buffered; a final bookmark first when bookmarks are allowed. */
  end(): void {
    if (this.state === 'pending' || this.state === 'active') {
      if (this.state === 'active' && this.config.allowBookmarks) this.live.push(this.bookmarkEvent());
      this.state = 'ended';
      this.release();
      this.wake();
    }
  }

  /** Ends the watch with an error, delivered after what is buffered. */
  fail(error: unknown): void {
    if (this.state !== 'pending' && this.state !== 'active') return;
    this.state = 'failed';
    this.error = error;
    this.release();
    this.wake();
  }

  stop(): void {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    this.initial = [];
    this.live = [];
    this.release();
    if (this.waiting) {
      const { resolve } = this.waiting;
      this.waiting = undefined;
      resolve({ value: undefined, done: true });
    }
  }

  next(): Promise<IteratorResult<CacheEvent>> {
    const event = this.take();
    if (event) return Promise.resolve({ value: event, done: false });
    if (this.state === 'stopped' || this.state === 'ended') {
      this.state = 'stopped';
      return Promise.resolve({ value: undefined, done: true });
    }
    if (this.state === 'failed') {
      this.stop();
      return Promise.reject(this.error);
    }
    if (this.waiting) return Promise.reject(new Error('watcher: next() called while a previous next() is pending'));
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<CacheEvent> {
    return {
      next: () => this.next(),
      return: () => {
        this.stop();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }

  private enqueue(event: CacheEvent): void {
    if (this.live.length - this.liveHead >= this.config.bufferSize) {
      this.terminate();
      return;
    }
    this.live.push(event);
    if (event.type !== 'BOOKMARK') this.lastRevision = Math.max(this.lastRevision, Number(event.resourceVersion));
    this.wake();
  }

  /** Closes a watcher that fell too far behind (kube: "Forcing watcher close due to unresponsiveness"). */
  private terminate(): void {
    this.terminated = true;
    this.stop();
  }

  /** Copies a backend watch into this watcher, under the same buffer bound. */
  private async pump(source: Watcher): Promise<void> {
    try {
      for await (const event of source) {
        if (this.state !== 'active') return;
        this.enqueue(event);
      }
      this.end();
    } catch (err) {
      this.fail(err);
    }
  }

  private bookmarkEvent(): BookmarkEvent {
    const revision = Math.max(this.from, this.lastRevision, this.fedByCache ? this.config.cacheRevision() : 0);
    return { type: 'BOOKMARK', resourceVersion: String(revision), initialEventsEnd: false };
  }

  private take(): CacheEvent | undefined {
    if (this.initialHead < this.initial.length) {
      const event = this.initial[this.initialHead];
      this.initial[this.initialHead++] = undefined as never;
      if (this.initialHead === this.initial.length) {
        this.initial = [];
        this.initialHead = 0;
      }
      return event;
    }
    if (this.liveHead < this.live.length) {
      const event = this.live[this.liveHead++];
      if (this.liveHead === this.live.length) {
        this.live = [];
        this.liveHead = 0;
      } else if (this.liveHead > 1024 && this.liveHead * 2 > this.live.length) {
        this.live = this.live.slice(this.liveHead);
        this.liveHead = 0;
      }
      return event;
    }
    return undefined;
  }

  private wake(): void {
    if (!this.waiting) return;
    const { resolve, reject } = this.waiting;
    const event = this.take();
    if (event) {
      this.waiting = undefined;
      resolve({ value: event, done: false });
    } else if (this.state === 'ended' || this.state === 'stopped') {
      this.waiting = undefined;
      this.state = 'stopped';
      resolve({ value: undefined, done: true });
    } else if (this.state === 'failed') {
      this.waiting = undefined;
      this.stop();
      reject(this.error);
    }
  }

  private release(): void {
    if (this.timer) clearTimeout(this.timer);
    this.source?.stop();
    if (this.released) return;
    this.released = true;
    this.config.onRelease(this);
  }
}

/** The change as a storage event; its prevObject is decoded only if read (most watchers never do). */
export function toStorageEvent(change: CachedEvent): StorageEvent {
  const event: StorageEvent = { type: change.type, key: change.key, object: change.object, resourceVersion: String(change.revision) };
  const prev = change.prev;
  const decoded = prev?.decoded;
  if (decoded) event.prevObject = decoded;
  else if (prev) withLazyPrevObject(event, () => prev.object());
  return event;
}

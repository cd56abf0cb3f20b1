/**
 * Cacher: a Storage that serves reads and watches of one resource prefix from an in-memory watch
 * cache fed by the backend's watch (k8s.io/apiserver/pkg/storage/cacher.Cacher). Writes, and
 * anything outside the prefix, go to the backend.
 *
 * Reads (kube's API concepts, "resourceVersion in get and list"):
 * - resourceVersion unset: most recent. getList reads the backend's current revision and waits
 *   until the cache has caught up with it (ConsistentListFromCache); get is served from the cache
 *   when it is already current at the backend's revision, else by the backend (no waiting).
 * - "0": any; served from the cache as it is, without touching the backend.
 * - NotOlderThan N: waits (bounded by waitTimeoutMs) until the cache is at N or later, else
 *   TooLargeResourceVersion (504 with Retry-After, as kube).
 * - Exact N and continue tokens at N: served from the cache's history when its window still covers
 *   N, else by the backend, which keeps MVCC history until compaction (or answers Expired: 410).
 * - The window (kube's rule: older revisions are 410 Expired) is the ring's, and never reaches
 *   below the backend's compacted revision (Storage.compactedRevision, and on etcd, where another
 *   server may compact, Storage.isCompacted before history is served): a watch, an Exact list or
 *   a continue token at a compacted revision goes to the backend, which answers Expired, even
 *   while the ring still holds that history.
 *
 * Objects: the cache keeps each object as its JSON bytes plus the attributes selectors read
 * (./cache-entry.ts) and decodes on demand; objects handed out are deep-frozen and shared by
 * every read and watcher, never copied (kube's cacher shares them too), and written from the
 * stored bytes (./cached-object.ts). Callers that modify an object they read copy it first.
 *
 * Progress: the backends publish each commit to their watchers before the write resolves, so once
 * the reflector has drained its watch, the cache is current at the backend's revision read before
 * (the role etcd's progress notifications play for kube). `progressNotify: false` declares a
 * backend without that guarantee: consistent reads and watches from "now" then go to the backend.
 */
import type { KubeObject } from '../../api/meta.js';
import { decodeContinue, encodeContinue } from '../continue.js';
import {
  StorageError,
  type DeleteOptions,
  type GetOptions,
  type ListOptions,
  type ListResult,
  type Storage,
  type StorageEvent,
  type UpdateFunc,
  type UpdateOptions,
  type Watcher,
  type WatchOptions,
} from '../interface.js';
import { LogStorage } from '../log-storage.js';
import { parseResourceVersion } from '../objects.js';
import { keyRangeOf } from '../revision-log.js';
import type { CacheEntry } from './cache-entry.js';
import { adoptObject } from './cached-object.js';
import { setLazyItems } from './lazy-items.js';
import { loaded } from './memory-release.js';
import { CacheWatcher } from './cache-watcher.js';
import { Reflector } from './reflector.js';
import {
  DEFAULT_EVENT_CAPACITY,
  DEFAULT_WAIT_TIMEOUT_MS,
  DEFAULT_WATCHER_BUFFER_SIZE,
  DEFAULT_BOOKMARK_INTERVAL_MS,
  defaultKeyFunc,
  type CacheWatchOptions,
  type CacherOptions,
} from './options.js';
import { WatchCache } from './watch-cache.js';
import { featureEnabled } from '../../api/features.js';

export type { CacheWatchOptions, CacherOptions };

/** How long a request waits for the cache's first list before answering 503. */
const READY_TIMEOUT_MS = 10_000;
/** How often a waiting read re-reads the backend's revision. */
const PROGRESS_POLL_MS = 50;

export class Cacher implements Storage {
  readonly prefix: string;
  private readonly cache: WatchCache;
  private readonly reflector: Reflector;
  private readonly watchers = new Set<CacheWatcher>();
  private readonly progressNotify: boolean;
  private readonly watcherBufferSize: number;
  private readonly waitTimeoutMs: number;
  private readonly bookmarkTimer: NodeJS.Timeout;
  private readonly keyFunc: (obj: KubeObject) => string;
  private ready = false;
  private readyWaiters = new Set<(ready: boolean) => void>();
  private generation = 0;
  private closed = false;
  /** A background progress request (see isConsistent) is in flight. */
  private progressPending = false;

  constructor(
    readonly backend: Storage,
    options: CacherOptions,
  ) {
    this.prefix = options.prefix.endsWith('/') ? options.prefix : `${options.prefix}/`;
    this.cache = new WatchCache(options.eventCapacity ?? DEFAULT_EVENT_CAPACITY, this.prefix);
    this.progressNotify = options.progressNotify ?? backend instanceof LogStorage;
    this.watcherBufferSize = options.watcherBufferSize ?? DEFAULT_WATCHER_BUFFER_SIZE;
    this.waitTimeoutMs = options.waitTimeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
    this.keyFunc = options.keyFunc ?? defaultKeyFunc(this.prefix);
    // The cache keeps keys without its prefix; an object keyed outside it could never be read from it.
    this.reflector = new Reflector(backend, this.prefix, (obj) => this.cache.localKey(this.keyFunc(obj)), {
      onReplace: (entries, revision) => this.replace(entries, revision),
      onEvent: (event) => this.processEvent(event),
      onBroken: () => this.becomeUnready(),
    });
    this.bookmarkTimer = setInterval(() => void this.sendBookmarks(), options.bookmarkIntervalMs ?? DEFAULT_BOOKMARK_INTERVAL_MS);
    this.bookmarkTimer.unref();
    this.reflector.start();
  }

  /** Whether the cache holds a listed state and follows the backend's watch. */
  get isReady(): boolean {
    return this.ready;
  }

  /** The revision the cache is current at. */
  get revision(): number {
    return this.cache.revision;
  }

  /** The number of open watches (cache-fed and backend fall-backs). */
  get watcherCount(): number {
    return this.watchers.size;
  }

  // ---- writes: straight to the backend ----

  async create(key: string, obj: KubeObject): Promise<KubeObject> {
    this.ensureOpen(key);
    return this.backend.create(key, obj);
  }

  async guaranteedUpdate(key: string, opts: UpdateOptions, tryUpdate: UpdateFunc): Promise<KubeObject> {
    this.ensureOpen(key);
    // kube's Cacher.GuaranteedUpdate: the cached object is the backend's first guess (cachedExistingObject).
    const cached = this.ready && key.startsWith(this.prefix) ? this.cache.get(key) : undefined;
    return this.backend.guaranteedUpdate(key, cached ? { ...opts, cachedExistingObject: cached } : opts, tryUpdate);
  }

  async delete(key: string, opts?: DeleteOptions): Promise<KubeObject> {
    this.ensureOpen(key);
    return this.backend.delete(key, opts);
  }

  async compact(revision: string): Promise<void> {
    this.ensureOpen('');
    await this.backend.compact(revision);
    // As the Storage contract requires of compact: older reads and watches get Expired (from the backend).
    this.cache.forgetBefore(Number(revision));
  }

  // ---- reads ----

  async get(key: string, opts: GetOptions = {}): Promise<KubeObject | undefined> {
    this.ensureOpen(key);
    const requested = parseResourceVersion(key, opts.resourceVersion, false);
    if (!key.startsWith(this.prefix) || (requested === 0 && !this.ready)) return this.backend.get(key, opts);
    if (requested === undefined) {
      if (!(await this.isConsistent())) return this.backend.get(key, opts);
    } else {
      await this.waitUntilReady(key);
      await this.waitUntilFresh(key, requested);
    }
    const obj = this.cache.get(key);
    if (obj) return obj;
    if (opts.ignoreNotFound) return undefined;
    throw new StorageError('KeyNotFound', key, `key ${key} not found`);
  }

  /**
   * get(key) of the most recent state when it can be answered at once (no waiting, no await):
   * the cached object if the cache is ready and current at the backend's latest revision, read
   * synchronously from a backend that offers `currentRevisionNow()`. Undefined means "call get()"
   * (cache behind or not ready, no synchronous revision, key absent or outside the prefix, closed).
   */
  getIfCurrent(key: string): KubeObject | undefined {
    if (this.closed || !this.ready || !this.progressNotify || !key.startsWith(this.prefix)) return undefined;
    const current = (this.backend as { currentRevisionNow?(): number }).currentRevisionNow?.();
    if (current === undefined || this.cache.revision < current) return undefined;
    return this.cache.get(key);
  }

  async getList(keyPrefix: string, opts: ListOptions = {}): Promise<ListResult> {
    this.ensureOpen(keyPrefix);
    const prefix = keyPrefix.endsWith('/') ? keyPrefix : `${keyPrefix}/`;
    if (!prefix.startsWith(this.prefix)) return this.backend.getList(keyPrefix, opts);
    const position = await this.listPosition(prefix, opts);
    this.ensureOpen(keyPrefix);
    return (position && this.listFromCache(prefix, position, opts)) ?? this.backend.getList(keyPrefix, opts);
  }

  async currentRevision(): Promise<string> {
    this.ensureOpen('');
    return this.backend.currentRevision();
  }

  async healthCheck(): Promise<void> {
    this.ensureOpen('');
    return this.backend.healthCheck();
  }

  // ---- watch ----

  watch(keyPrefix: string, opts: WatchOptions = {}): Watcher {
    if (!keyPrefix.startsWith(this.prefix) && !this.closed) return this.backend.watch(keyPrefix, opts);
    // Without bookmarks a CacheWatcher yields only storage events.
    return this.watchEvents(keyPrefix, { resourceVersion: opts.resourceVersion, predicate: opts.predicate }) as unknown as Watcher;
  }

  /** A watch with kube's cacher options (initial events, bookmarks, timeout). Errors surface from its iterator. */
  watchEvents(keyPrefix: string, opts: CacheWatchOptions = {}): CacheWatcher {
    const watcher = new CacheWatcher({
      range: keyRangeOf(keyPrefix),
      predicate: opts.predicate,
      allowBookmarks: opts.allowBookmarks ?? false,
      bufferSize: this.watcherBufferSize,
      timeoutMs: opts.timeoutMs,
      cacheRevision: () => this.cache.revision,
      onRelease: (w) => this.watchers.delete(w),
    });
    try {
      this.ensureOpen(keyPrefix);
      const requested = parseResourceVersion(keyPrefix, opts.resourceVersion, false);
      this.watchers.add(watcher);
      // "Now" is the revision at the moment of the call, so writes issued after it are seen.
      const fromNow = !opts.sendInitialEvents && !requested;
      const now = fromNow ? this.backend.currentRevision() : undefined;
      now?.catch(() => undefined);
      this.startWatch(watcher, keyPrefix, opts, requested, now).catch((err) => watcher.fail(err));
    } catch (err) {
      watcher.fail(err);
    }
    return watcher;
  }

  /** Stops the reflector and every watch; the backend stays open (it is shared). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.ready = false;
    clearInterval(this.bookmarkTimer);
    this.reflector.stop();
    this.cache.cancelWaiters();
    for (const resolve of this.readyWaiters) resolve(false);
    this.readyWaiters.clear();
    for (const watcher of [...this.watchers]) watcher.stop();
  }

  // ---- the reflector's side ----

  private replace(entries: CacheEntry[], revision: number): void {
    this.cache.replace(entries, revision);
    let bytes = 0;
    for (const entry of entries) bytes += entry.encoded.length;
    loaded(bytes);
    this.generation++;
    this.ready = true;
    for (const resolve of this.readyWaiters) resolve(true);
    this.readyWaiters.clear();
  }

  private processEvent(event: StorageEvent): void {
    adoptObject(event.object);
    const change = this.cache.apply(event);
    for (const watcher of this.watchers) {
      if (!watcher.fedByCache) continue;
      try {
        watcher.dispatch(change);
      } catch (err) {
        // A predicate that throws ends its own watch, never the cache's.
        watcher.fail(err);
      }
    }
  }

  /** kube's terminateAllWatchers: cache-fed watches end; clients re-watch from their last version. */
  private becomeUnready(): void {
    this.ready = false;
    for (const watcher of [...this.watchers]) if (watcher.fedByCache) watcher.stop();
  }

  // ---- freshness ----

  private async waitUntilReady(key: string): Promise<void> {
    if (this.ready) return;
    this.ensureOpen(key);
    const ready = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => done(false), READY_TIMEOUT_MS);
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.readyWaiters.delete(done);
        resolve(ok);
      };
      this.readyWaiters.add(done);
    });
    this.ensureOpen(key);
    if (!ready) {
      const why = this.reflector.lastError instanceof Error ? `: ${this.reflector.lastError.message}` : '';
      throw new StorageError('Unavailable', key, `the watch cache of ${this.prefix} is not ready${why}`);
    }
  }

  /** Waits until the cache is current at `target` (kube's waitUntilFreshAndBlock). */
  private async waitUntilFresh(key: string, target: number): Promise<void> {
    if (this.cache.revision >= target) return;
    const deadline = Date.now() + this.waitTimeoutMs;
    for (;;) {
      if (this.progressNotify && (await this.requestProgress(target))) return;
      this.ensureOpen(key);
      const remaining = deadline - Date.now();
      if (this.cache.revision >= target || remaining <= 0) break;
      await this.cache.waitFor(target, Math.min(remaining, PROGRESS_POLL_MS));
      this.ensureOpen(key);
    }
    if (this.cache.revision >= target) return;
    throw new StorageError('TooLargeResourceVersion', key, `Too large resource version: ${target}, current: ${this.cache.revision}`);
  }

  /**
   * Whether the cache is current at the backend's latest revision right now, so a most-recent
   * read may be served from it (as ConsistentListFromCache does for lists) without waiting. When
   * it is behind, a progress request is started so that later reads find it current (writes to
   * other prefixes advance the backend's revision, not this cache's).
   */
  private async isConsistent(): Promise<boolean> {
    if (!this.progressNotify || !this.ready) return false;
    const current = Number(await this.backend.currentRevision());
    if (this.cache.revision >= current) return this.ready;
    if (!this.progressPending) {
      this.progressPending = true;
      void this.requestProgress(current)
        .catch(() => false)
        .finally(() => (this.progressPending = false));
    }
    return false;
  }

  /** Waits until the cache is current at the backend's latest revision (a consistent read). */
  private async waitUntilConsistent(key: string): Promise<void> {
    await this.waitUntilFresh(key, Number(await this.backend.currentRevision()));
  }

  /**
   * A progress notification: reads the backend's revision R, lets the reflector drain what the
   * backend published up to R, and then knows nothing else under the prefix changed up to R.
   * Returns whether the cache is now at `target` or later.
   */
  private async requestProgress(target: number): Promise<boolean> {
    const generation = this.generation;
    const current = Number(await this.backend.currentRevision());
    if (current < target) return this.cache.revision >= target;
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.closed || !this.ready || !this.reflector.watching || generation !== this.generation) return false;
    this.cache.advanceTo(current);
    return this.cache.revision >= target;
  }

  // ---- lists ----

  /**
   * Where a list is served from: a revision and start key (revision undefined: the cache's
   * current one), or undefined when only the backend can serve it.
   */
  private async listPosition(prefix: string, opts: ListOptions): Promise<{ revision?: number; startKey: string } | undefined> {
    if (opts.continue) {
      const position = decodeContinue(opts.continue, prefix);
      // An inconsistent continue (rv -1) goes to the backend, as kube's cacher without snapshots.
      if (position.revision === undefined) return undefined;
      return (await this.canServeAt(prefix, position.revision)) ? position : undefined;
    }
    const requested = parseResourceVersion(prefix, opts.resourceVersion, false);
    if (opts.resourceVersionMatch === 'Exact') {
      if (!requested) throw new StorageError('InvalidObject', prefix, 'resourceVersionMatch=Exact requires a non-zero resourceVersion');
      return (await this.canServeAt(prefix, requested)) ? { revision: requested, startKey: prefix } : undefined;
    }
    if (requested === undefined) {
      if (!this.progressNotify || !featureEnabled('ConsistentListFromCache')) return undefined;
      await this.waitUntilReady(prefix);
      await this.waitUntilConsistent(prefix);
    } else if (requested === 0) {
      if (!this.ready) return undefined;
    } else {
      await this.waitUntilReady(prefix);
      await this.waitUntilFresh(prefix, requested);
    }
    return { startKey: prefix };
  }

  /** Whether the cache's history covers `revision` (after waiting for it to get there). */
  private async canServeAt(prefix: string, revision: number): Promise<boolean> {
    if (!this.ready || revision < this.historyStart()) return false;
    await this.waitUntilFresh(prefix, revision);
    if (await this.compactedElsewhere(revision)) return false;
    return revision >= this.historyStart();
  }

  /**
   * For history the ring still holds at `revision`: whether the backend compacted it behind this
   * process's back (another server's compactor on etcd; Storage.isCompacted). Then the request goes
   * to the backend, which answers Expired. Current state is never asked about.
   */
  private async compactedElsewhere(revision: number): Promise<boolean> {
    if (!this.backend.isCompacted || revision >= this.cache.revision || revision < this.historyStart()) return false;
    return this.backend.isCompacted(revision);
  }

  /**
   * The oldest revision the cache may serve: its ring's, raised to the backend's compacted
   * revision when that is newer (the server's compactor compacts the backend, not this wrapper).
   */
  private historyStart(): number {
    const compacted = this.backend.compactedRevision?.() ?? 0;
    if (compacted > this.cache.historyStart) this.cache.forgetBefore(compacted);
    return this.cache.historyStart;
  }

  /** One page from the cache, shaped as the backends shape it; undefined if history moved on. */
  private listFromCache(prefix: string, position: { revision?: number; startKey: string }, opts: ListOptions): ListResult | undefined {
    const revision = position.revision ?? this.cache.revision;
    if (!this.ready || revision < this.historyStart()) return undefined;
    const range = keyRangeOf(prefix);
    const limit = opts.limit && opts.limit > 0 ? Math.floor(opts.limit) : 0;
    const page = this.cache.list(range, revision, position.startKey, limit, opts.predicate);
    // The cache's objects are frozen and shared (see cached-object.ts): no copies. They are
    // decoded only if someone reads `items` (./lazy-items.ts): a JSON response is written from
    // the entries' stored bytes.
    const result = { resourceVersion: String(revision) } as ListResult;
    setLazyItems(result, page.entries);
    if (page.more && page.lastKey !== undefined) {
      const next = `${page.lastKey}\u0000`;
      result.continue = encodeContinue(next, prefix, revision);
      if (!opts.predicate) result.remainingItemCount = this.cache.count(revision, next, range.end);
    }
    return result;
  }

  // ---- watches ----

  private async startWatch(
    watcher: CacheWatcher,
    keyPrefix: string,
    opts: CacheWatchOptions,
    requested: number | undefined,
    now: Promise<string> | undefined,
  ): Promise<void> {
    if (!keyPrefix.startsWith(this.prefix)) return this.watchBackend(watcher, keyPrefix, opts, requested, now);
    if (opts.sendInitialEvents) {
      if (requested === undefined && !this.progressNotify) return this.watchBackend(watcher, keyPrefix, opts, requested, now);
      await this.waitUntilReady(keyPrefix);
      if (requested === undefined) await this.waitUntilConsistent(keyPrefix);
      else if (requested > 0) await this.waitUntilFresh(keyPrefix, requested);
      this.ensureOpen(keyPrefix);
      const revision = this.cache.revision;
      const initial = this.cache.snapshot(keyRangeOf(keyPrefix), opts.predicate).map((entry) => addedEvent(this.cache.keyOf(entry), entry.object()));
      watcher.fedByCache = true;
      watcher.start(initial, revision, opts.initialEventsEndBookmark ? revision : undefined);
      return;
    }
    let from = requested;
    if (now) {
      from = Number(await now);
      if (!this.progressNotify) return this.watchBackend(watcher, keyPrefix, opts, from, undefined);
      await this.waitUntilReady(keyPrefix);
      await this.waitUntilFresh(keyPrefix, from);
    } else {
      await this.waitUntilReady(keyPrefix);
    }
    this.ensureOpen(keyPrefix);
    if ((from as number) < this.historyStart() || (await this.compactedElsewhere(from as number))) return this.watchBackend(watcher, keyPrefix, opts, from, undefined);
    // The ring may have moved on while etcd was asked.
    this.ensureOpen(keyPrefix);
    if ((from as number) < this.historyStart()) return this.watchBackend(watcher, keyPrefix, opts, from, undefined);
    this.startFrom(watcher, from as number);
  }

  /** Registers a cache-fed watcher at `from`, first replaying the ring's later changes. */
  private startFrom(watcher: CacheWatcher, from: number): void {
    const replay: StorageEvent[] = [];
    if (from < this.cache.revision) {
      for (const change of this.cache.eventsSince(from)) {
        const event = watcher.select(change);
        if (event) replay.push(event);
      }
    }
    watcher.fedByCache = true;
    watcher.start(replay, from);
  }

  /**
   * Serves a watch from the backend: history older than the ring (the backend answers Expired
   * once it is compacted), or a backend without progress notifications.
   */
  private async watchBackend(
    watcher: CacheWatcher,
    keyPrefix: string,
    opts: CacheWatchOptions,
    requested: number | undefined,
    now: Promise<string> | undefined,
  ): Promise<void> {
    const predicate = opts.predicate;
    let from = now ? await now : String(requested ?? '');
    let initial: StorageEvent[] = [];
    if (opts.sendInitialEvents) {
      const list = await this.backend.getList(keyPrefix, { predicate, resourceVersion: from });
      from = list.resourceVersion;
      // A single-key watch lists nothing under `<key>/`; its state is the key itself.
      const items = keyPrefix.endsWith('/') ? list.items : await this.backend.get(keyPrefix, { ignoreNotFound: true }).then((o) => (o && (!predicate || predicate(o)) ? [o] : []));
      initial = items.map((object) => addedEvent(keyPrefix.endsWith('/') ? this.keyFunc(object) : keyPrefix, object));
    }
    this.ensureOpen(keyPrefix);
    const source = this.backend.watch(keyPrefix, { resourceVersion: from, predicate });
    watcher.startFromBackend(source, Number(from), initial, opts.sendInitialEvents && opts.initialEventsEndBookmark ? Number(from) : undefined);
  }

  private async sendBookmarks(): Promise<void> {
    const targets = [...this.watchers].filter((w) => w.allowBookmarks && w.isActive);
    if (targets.length === 0) return;
    if (this.progressNotify && this.ready) await this.requestProgress(0).catch(() => false);
    for (const watcher of targets) watcher.bookmark();
  }

  private ensureOpen(key: string): void {
    if (this.closed) throw new StorageError('Unavailable', key, 'storage is closed');
  }
}

function addedEvent(key: string, object: KubeObject): StorageEvent {
  return { type: 'ADDED', key, object, resourceVersion: object.metadata.resourceVersion ?? '' };
}

/**
 * The store's watch (the Watch half of kube's generic registry Store over the cacher): turns a
 * storage watch into API watch events, with kube's starting points:
 *
 * - sendInitialEvents unset (the legacy rules): resourceVersion unset → the state at the most
 *   recent revision as synthetic ADDED events, then changes; "0" → the same from any recent
 *   state; N → every change after N.
 * - sendInitialEvents=true (kube's WatchList): the state not older than resourceVersion, then a
 *   BOOKMARK annotated `k8s.io/initial-events-end: "true"` (with allowWatchBookmarks), then changes.
 * - sendInitialEvents=false: changes after resourceVersion (unset: after now), no state.
 *
 * Bookmarks (allowWatchBookmarks) carry an object of the resource's kind with only
 * metadata.resourceVersion set. Storage errors (Expired, TooLargeResourceVersion) end the stream
 * with one ERROR event carrying the Status.
 */
import type { KubeObject, WatchEvent } from '../api/meta.js';
import type { QualifiedResource } from '../api/status.js';
import { Cacher } from '../storage/cacher/cacher.js';
import type { CacheEvent } from '../storage/cacher/cache-watcher.js';
import type { CacheWatchOptions } from '../storage/cacher/options.js';
import type { Storage, Watcher } from '../storage/interface.js';
import { interpretStorageError, toStatus } from './errors.js';

/** The annotation of the bookmark that ends a WatchList's initial events. */
export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

/** A running watch; iterate once. stop() ends the iteration and releases storage resources. */
export interface StoreWatch extends AsyncIterable<WatchEvent> {
  stop(): void;
}

export interface StoreWatchConfig {
  storage: Storage;
  /** The prefix watched, or one object's key (a metadata.name field selector). */
  watchKey: string;
  /** The prefix the initial state is listed from (plain storage only). */
  listPrefix: string;
  resourceVersion?: string;
  predicate?: (obj: KubeObject) => boolean;
  allowWatchBookmarks?: boolean;
  sendInitialEvents?: boolean;
  timeoutSeconds?: number;
  qualifiedResource: QualifiedResource;
  /** apiVersion and kind of the bookmark objects. */
  apiVersion: string;
  kind: string;
}

/**
 * The longest delay a Node timer takes (2^31 - 1 ms, about 24.8 days): a longer one fires at once
 * (TimeoutOverflowWarning), so a watch asking for timeoutSeconds=3000000 would end after 1 ms and
 * its client reconnect in a loop. Longer watches end after this long instead.
 */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A watch's timeout in ms (undefined: none), at most MAX_TIMER_MS. */
function watchTimeoutMs(timeoutSeconds: number | undefined): number | undefined {
  return timeoutSeconds ? Math.min(timeoutSeconds * 1000, MAX_TIMER_MS) : undefined;
}

export function startStoreWatch(config: StoreWatchConfig): StoreWatch {
  const storage = config.storage as Storage & Partial<WatchEventSource>;
  return storage instanceof Cacher || typeof storage.watchEvents === 'function' ? cachedWatch(storage as WatchEventSource, config) : storageWatch(config);
}

/**
 * What a watch-cache-backed storage offers besides Storage: the Cacher's event watch (initial
 * events, bookmarks, timeouts). A converting storage over a Cacher (runtime/conversion) has it too.
 */
export interface WatchEventSource {
  watchEvents(keyPrefix: string, opts?: CacheWatchOptions): AsyncIterable<CacheEvent> & { stop(): void };
}

/** Whether the watch starts with the current state (kube's "Get State and Start at …"). */
function wantsInitialState(config: StoreWatchConfig): boolean {
  if (config.sendInitialEvents !== undefined) return config.sendInitialEvents;
  return !config.resourceVersion || config.resourceVersion === '0';
}

function cachedWatch(cacher: WatchEventSource, config: StoreWatchConfig): StoreWatch {
  const watcher = cacher.watchEvents(config.watchKey, {
    resourceVersion: config.resourceVersion,
    predicate: config.predicate,
    sendInitialEvents: wantsInitialState(config),
    initialEventsEndBookmark: config.sendInitialEvents === true,
    allowBookmarks: config.allowWatchBookmarks ?? false,
    timeoutMs: watchTimeoutMs(config.timeoutSeconds),
  });
  let stopped = false;
  async function* events(): AsyncGenerator<WatchEvent> {
    try {
      for await (const event of watcher) yield toWatchEvent(event, config);
    } catch (err) {
      if (!stopped) yield errorEvent(err, config);
    } finally {
      watcher.stop();
    }
  }
  const iterable = events();
  return {
    [Symbol.asyncIterator]: () => iterable,
    stop() {
      stopped = true;
      watcher.stop();
    },
  };
}

/** The same watch over a storage without a cache: a list for the state, then a storage watch. */
function storageWatch(config: StoreWatchConfig): StoreWatch {
  const { storage, predicate } = config;
  let stopped = false;
  let watcher: Watcher | undefined;
  const timeoutMs = watchTimeoutMs(config.timeoutSeconds);
  const timer = timeoutMs !== undefined ? setTimeout(() => stop(), timeoutMs) : undefined;
  function stop(): void {
    stopped = true;
    if (timer) clearTimeout(timer);
    watcher?.stop();
  }
  async function* events(): AsyncGenerator<WatchEvent> {
    try {
      let from = config.resourceVersion;
      if (wantsInitialState(config)) {
        // One list read gives the objects and the revision they were read at, atomically.
        const list = await storage.getList(config.listPrefix, { predicate, resourceVersion: from });
        for (const object of list.items) yield { type: 'ADDED', object };
        from = list.resourceVersion;
        if (config.sendInitialEvents && config.allowWatchBookmarks) yield bookmarkEvent(from, true, config);
      }
      if (stopped) return;
      watcher = storage.watch(config.watchKey, { resourceVersion: from, predicate });
      for await (const event of watcher) yield { type: event.type, object: event.object };
    } catch (err) {
      if (!stopped) yield errorEvent(err, config);
    } finally {
      stop();
    }
  }
  const iterable = events();
  return { [Symbol.asyncIterator]: () => iterable, stop };
}

function toWatchEvent(event: CacheEvent, config: StoreWatchConfig): WatchEvent {
  if (event.type === 'BOOKMARK') return bookmarkEvent(event.resourceVersion, event.initialEventsEnd, config);
  return { type: event.type, object: event.object };
}

/** kube's bookmark: an object of the kind with only its resourceVersion (and the end annotation). */
function bookmarkEvent(resourceVersion: string, initialEventsEnd: boolean, config: StoreWatchConfig): WatchEvent {
  const metadata: KubeObject['metadata'] = { resourceVersion };
  if (initialEventsEnd) metadata.annotations = { [INITIAL_EVENTS_END_ANNOTATION]: 'true' };
  return { type: 'BOOKMARK', object: { apiVersion: config.apiVersion, kind: config.kind, metadata } };
}

function errorEvent(err: unknown, config: StoreWatchConfig): WatchEvent {
  return { type: 'ERROR', object: toStatus(interpretStorageError(err, config.qualifiedResource, '')) as never };
}

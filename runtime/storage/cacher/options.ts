/** The Cacher's options and defaults (kube's cacher Config). */
import type { KubeObject } from '../../api/meta.js';

/** Recent changes kept for watch resumption and exact reads. */
export const DEFAULT_EVENT_CAPACITY = 1000;
/** Live changes a watcher may fall behind before it is closed. */
export const DEFAULT_WATCHER_BUFFER_SIZE = 1000;
/** kube's bookmark frequency (a bookmark about every minute). */
export const DEFAULT_BOOKMARK_INTERVAL_MS = 60_000;
/** kube's blockTimeout: how long a read waits for the cache to reach a resourceVersion. */
export const DEFAULT_WAIT_TIMEOUT_MS = 3_000;

export interface CacherOptions {
  /** The resource prefix served from the cache, e.g. `/registry/example.com/widgets/`. */
  prefix: string;
  eventCapacity?: number;
  watcherBufferSize?: number;
  bookmarkIntervalMs?: number;
  waitTimeoutMs?: number;
  /** The key an object lives under (kube's KeyFunc); default `<prefix>[<namespace>/]<name>`. */
  keyFunc?: (obj: KubeObject) => string;
  /** Whether the backend publishes commits before writes resolve; default: it is a LogStorage. */
  progressNotify?: boolean;
}

export interface CacheWatchOptions {
  /** As in WatchOptions; '' / '0' without sendInitialEvents: changes after the current revision. */
  resourceVersion?: string;
  predicate?: (obj: KubeObject) => boolean;
  /** First the state (at most recent for '', any for '0', not older than N) as ADDED events. */
  sendInitialEvents?: boolean;
  /** After the initial events, a bookmark annotated `k8s.io/initial-events-end` (kube's WatchList). */
  initialEventsEndBookmark?: boolean;
  allowBookmarks?: boolean;
  /** End the watch after this long, with a final bookmark when bookmarks are allowed. */
  timeoutMs?: number;
}

export function defaultKeyFunc(prefix: string): (obj: KubeObject) => string {
  return (obj) => {
    const { namespace, name } = obj.metadata ?? {};
    return namespace ? `${prefix}${namespace}/${name ?? ''}` : `${prefix}${name ?? ''}`;
  };
}

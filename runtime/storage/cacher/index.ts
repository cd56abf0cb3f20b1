/** The watch cache (k8s.io/apiserver/pkg/storage/cacher): serves reads and watches from memory. */
export { Cacher } from './cacher.js';
export {
  DEFAULT_BOOKMARK_INTERVAL_MS,
  DEFAULT_EVENT_CAPACITY,
  DEFAULT_WAIT_TIMEOUT_MS,
  DEFAULT_WATCHER_BUFFER_SIZE,
  type CacherOptions,
  type CacheWatchOptions,
} from './options.js';
export { Cachers, type SharedCacherOptions } from './cachers.js';
export { CacheWatcher, type BookmarkEvent, type CacheEvent } from './cache-watcher.js';

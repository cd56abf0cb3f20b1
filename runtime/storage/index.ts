/** The storage layer's public API: the interface, the backends, keys and continue tokens. */
export * from './interface.js';
export { openStorage, sqlitePath, etcdEndpoints, DEFAULT_SQLITE_FILE, type OpenStorageOptions } from './factory.js';
export { MemoryStorage } from './memory.js';
export { SqliteStorage } from './sqlite.js';
export { LogStorage } from './log-storage.js';
export { EtcdStorage, COMPACT_REV_KEY, type EtcdStorageOptions, type CompactTurn } from './etcd.js';
export { startCompactor, DEFAULT_COMPACTION_INTERVAL_MS, type CompactorOptions, type Compactor } from './compactor.js';
export { DEFAULT_STORAGE_PREFIX, resourcePrefix, namespacePrefix, objectKey } from './keys.js';
export { encodeContinue, decodeContinue, type ContinuePosition } from './continue.js';
export { WatchBroadcaster, QueueWatcher } from './watch-broadcaster.js';
export { filterEvent } from './watch-event.js';

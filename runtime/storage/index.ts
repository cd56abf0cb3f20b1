/** The storage layer's public API: the interface, the backends, keys and continue tokens. */
export * from './interface.js';
export { openStorage, sqlitePath, DEFAULT_SQLITE_FILE, type OpenStorageOptions } from './factory.js';
export { MemoryStorage } from './memory.js';
export { SqliteStorage } from './sqlite.js';
export { LogStorage } from './log-storage.js';
export { DEFAULT_STORAGE_PREFIX, resourcePrefix, namespacePrefix, objectKey } from './keys.js';
export { encodeContinue, decodeContinue, type ContinuePosition } from './continue.js';
export { WatchBroadcaster, QueueWatcher } from './watch-broadcaster.js';
export { filterEvent } from './watch-event.js';

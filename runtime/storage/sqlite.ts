/**
 * SqliteStorage: the embedded default backend, the Storage contract over SqliteLog (a kine-style
 * append-only log in one SQLite file; see sqlite-log.ts for durability and schema notes).
 * One process owns a database file: watchers see this process's writes.
 */
import type { Storage } from './interface.js';
import { LogStorage } from './log-storage.js';
import { SqliteLog } from './sqlite-log.js';

export class SqliteStorage extends LogStorage implements Storage {
  private readonly sqlite: SqliteLog;

  /** Opens (creating if needed) the database at path and migrates it to the current schema. */
  constructor(readonly path: string) {
    const log = new SqliteLog(path);
    super(log);
    this.sqlite = log;
  }

  /** The schema version recorded in schema_migrations. */
  get schemaVersion(): number {
    return this.sqlite.schemaVersion;
  }
}

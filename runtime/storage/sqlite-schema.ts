/**
 * The SQLite schema as ordered migrations. Each migration runs once, in version order, inside the
 * same transaction that records it in `schema_migrations`, so a database is always at exactly
 * one recorded version. Never edit a released migration; append a new one.
 */
import type Database from 'better-sqlite3';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'kv log',
    // kine's log table: one row per write, the newest row per key is the current state.
    // AUTOINCREMENT keeps revisions strictly increasing even after compaction deletes the newest
    // rows (deletions); seeding sqlite_sequence makes an empty store's revision 1, as etcd's is.
    sql: `
      CREATE TABLE kv (
        revision      INTEGER PRIMARY KEY AUTOINCREMENT,
        key           TEXT    NOT NULL,
        value         TEXT    NOT NULL,
        created       INTEGER NOT NULL,
        deleted       INTEGER NOT NULL,
        prev_revision INTEGER NOT NULL
      );
      CREATE INDEX kv_key_revision ON kv (key, revision);
      INSERT INTO sqlite_sequence (name, seq) VALUES ('kv', 1);
      CREATE TABLE compaction (
        id       INTEGER PRIMARY KEY CHECK (id = 1),
        revision INTEGER NOT NULL
      );
      INSERT INTO compaction (id, revision) VALUES (1, 0);
    `,
  },
];

/** The version a database has after every known migration ran. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/**
 * Brings db to SCHEMA_VERSION. A database written by a newer kgen (a version we do not know)
 * is refused rather than misread.
 */
export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): number {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const apply = db.transaction(() => {
    const row = db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as { version: number | null };
    const current = row.version ?? 0;
    const latest = migrations[migrations.length - 1]?.version ?? 0;
    if (current > latest) {
      throw new Error(`database schema version ${current} is newer than this kgen supports (${latest})`);
    }
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const m of migrations) {
      if (m.version <= current) continue;
      db.exec(m.sql);
      record.run(m.version, m.name, new Date().toISOString());
    }
    return Math.max(current, latest);
  });
  return apply.immediate();
}

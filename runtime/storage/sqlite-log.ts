/**
 * SqliteLog: the RevisionLog in one SQLite table, as kine keeps etcd's keyspace in SQL.
 *
 * Durability: WAL journal with synchronous=FULL, so a commit is fsynced before append() or
 * appendBatch() returns and an acknowledged write survives kill -9 or power loss. Each append is
 * one IMMEDIATE transaction (read the key's newest row, compare, insert); appendBatch() runs many
 * of those steps in one transaction, so a group of writes costs one commit and one fsync (group
 * commit; LogStorage batches the writes that arrive together). The log assumes this process is
 * the database's only writer: watchers are fed from this process's commits.
 */
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { StorageError } from './interface.js';
import type { AppendOutcome, AppendRequest, KeyRange, LogChange, LogEntry, LogRow, LogWrite, RevisionLog } from './revision-log.js';
import { migrate } from './sqlite-schema.js';

interface RowRecord {
  revision: number;
  key: string;
  value: string;
  created: number;
  deleted: number;
  prev_revision: number;
  prev_value?: string | null;
}

const COLUMNS = 'k.revision, k.key, k.value, k.created, k.deleted, k.prev_revision';

/** The key's row in effect at @rev, for keys in [@start, @end); the index yields key order. */
const LIVE_AT = `FROM kv k
  WHERE k.key >= @start AND k.key < @end AND k.revision <= @rev AND k.deleted = 0
    AND k.revision = (SELECT MAX(m.revision) FROM kv m WHERE m.key = k.key AND m.revision <= @rev)`;

/** SQLite error codes that mean "try again later" rather than a bug. */
const UNAVAILABLE_CODES = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY)/;

export class SqliteLog implements RevisionLog {
  readonly db: Database.Database;
  readonly schemaVersion: number;
  private readonly stmt: ReturnType<typeof prepare>;
  private readonly appendTx: (write: LogWrite, expected: number) => LogChange | undefined;
  private readonly batchTx: (requests: readonly AppendRequest[]) => AppendOutcome[];
  private readonly compactTx: (revision: number) => void;

  constructor(readonly path: string) {
    restrictToOwner(path);
    // better-sqlite3 (13 modules) is loaded by the first SQLite store, not by every start-up
    // (memory: and etcd storage never open one).
    const SQLite = createRequire(import.meta.url)('better-sqlite3') as typeof Database;
    this.db = new SQLite(path);
    try {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = FULL');
      this.db.pragma('busy_timeout = 5000');
      // SQLite's own default page cache (2 MB) instead of the 16 MB better-sqlite3 compiles in:
      // a server's reads come from the watch cache, and the watch cache's initial list (every
      // row) filled those 16 MB with its pages, kept as malloc memory that freeing does not give
      // back (measured with 100,000 objects: RSS -14 MB). The pages come from the OS's cache.
      this.db.pragma('cache_size = -2000');
      this.schemaVersion = migrate(this.db);
      this.stmt = prepare(this.db);
    } catch (err) {
      this.db.close();
      throw err;
    }
    const appendTx = this.db.transaction((write: LogWrite, expected: number) => this.appendRow(write, expected));
    this.appendTx = (write, expected) => appendTx.immediate(write, expected);
    const batchTx = this.db.transaction((requests: readonly AppendRequest[]) => requests.map((r) => this.appendInBatch(r)));
    this.batchTx = (requests) => batchTx.immediate(requests);
    const compactTx = this.db.transaction((revision: number) => this.compactRows(revision));
    this.compactTx = (revision) => compactTx.immediate(revision);
  }

  currentRevision(): number {
    return this.stmt.current.get() as number;
  }

  compactedRevision(): number {
    return this.stmt.compacted.get() as number;
  }

  latest(key: string): LogRow | undefined {
    const row = this.stmt.latest.get(key) as RowRecord | undefined;
    return row && toChange(row);
  }

  append(write: LogWrite, expectedRevision: number): LogChange | undefined {
    return unavailableOnBusy(write.key, () => this.appendTx(write, expectedRevision));
  }

  appendBatch(requests: readonly AppendRequest[]): AppendOutcome[] {
    return unavailableOnBusy(requests[0]?.write.key ?? '', () => this.batchTx(requests));
  }

  range(range: KeyRange, revision: number, limit: number): LogEntry[] {
    const params = { start: range.start, end: range.end, rev: revision, limit: limit > 0 ? limit : -1 };
    return this.stmt.range.all(params) as LogEntry[];
  }

  count(range: KeyRange, revision: number): number {
    return this.stmt.count.get({ start: range.start, end: range.end, rev: revision }) as number;
  }

  changes(range: KeyRange, after: number): LogChange[] {
    const rows = this.stmt.changes.all({ start: range.start, end: range.end, after }) as RowRecord[];
    return rows.map(toChange);
  }

  compact(revision: number): void {
    unavailableOnBusy('', () => this.compactTx(revision));
  }

  check(): void {
    this.stmt.compacted.get();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private appendRow(write: LogWrite, expected: number): LogChange | undefined {
    const previous = this.stmt.latest.get(write.key) as RowRecord | undefined;
    if ((previous?.revision ?? 0) !== expected) return undefined;
    const created = !write.deleted && (!previous || previous.deleted === 1);
    const prevRevision = previous?.revision ?? 0;
    const info = this.stmt.insert.run(write.key, write.value, created ? 1 : 0, write.deleted ? 1 : 0, prevRevision);
    const change: LogChange = {
      revision: Number(info.lastInsertRowid),
      key: write.key,
      value: write.value,
      created,
      deleted: write.deleted,
      prevRevision,
    };
    if (previous && !created && !write.deleted) change.prevValue = previous.value;
    return change;
  }

  /**
   * One request of a batch. A failed statement is undone by SQLite alone (statement rollback), so
   * while the transaction stays open only this request fails; if SQLite abandoned the transaction
   * (an I/O error, a full disk), the whole batch fails.
   */
  private appendInBatch(r: AppendRequest): AppendOutcome {
    try {
      return this.appendRow(r.write, r.expectedRevision);
    } catch (err) {
      if (!this.db.inTransaction) throw err;
      return { error: unavailable(r.write.key, err) };
    }
  }

  /** kine's compaction: rows a newer row at or below `revision` superseded, then old deletions. */
  private compactRows(revision: number): void {
    const since = this.compactedRevision();
    this.stmt.deleteSuperseded.run({ since, rev: revision });
    this.stmt.deleteDeletions.run({ rev: revision });
    this.stmt.setCompacted.run({ rev: revision });
  }
}

/**
 * The database holds every object, Secrets' data included: it is made, and kept, readable and
 * writable by its owner only (0600). SQLite creates the -wal and -shm files with the database's
 * mode; ones left by an older version are tightened too.
 */
function restrictToOwner(path: string): void {
  if (path === ':memory:' || path === '' || path.startsWith('file:')) return;
  closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
}

function prepare(db: Database.Database) {
  return {
    current: db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'kv'").pluck(),
    compacted: db.prepare('SELECT revision FROM compaction WHERE id = 1').pluck(),
    latest: db.prepare(`SELECT ${COLUMNS} FROM kv k WHERE k.key = ? ORDER BY k.revision DESC LIMIT 1`),
    insert: db.prepare('INSERT INTO kv (key, value, created, deleted, prev_revision) VALUES (?, ?, ?, ?, ?)'),
    range: db.prepare(`SELECT k.key, k.revision, k.value ${LIVE_AT} ORDER BY k.key LIMIT @limit`),
    count: db.prepare(`SELECT COUNT(*) ${LIVE_AT}`).pluck(),
    // `+k.key` keeps the planner on the revision (primary key) range: catch-up reads recent rows.
    changes: db.prepare(
      `SELECT ${COLUMNS}, p.value AS prev_value FROM kv k
       LEFT JOIN kv p ON p.revision = k.prev_revision AND k.created = 0 AND k.deleted = 0
       WHERE k.revision > @after AND +k.key >= @start AND +k.key < @end ORDER BY k.revision`,
    ),
    // Rows at or below the previous compaction already lost their superseded rows.
    deleteSuperseded: db.prepare(
      `DELETE FROM kv WHERE revision IN (
         SELECT prev_revision FROM kv WHERE revision > @since AND revision <= @rev AND prev_revision != 0)`,
    ),
    deleteDeletions: db.prepare('DELETE FROM kv WHERE revision <= @rev AND deleted = 1'),
    setCompacted: db.prepare('UPDATE compaction SET revision = MAX(revision, @rev) WHERE id = 1'),
  };
}

function toChange(row: RowRecord): LogChange {
  const change: LogChange = {
    revision: row.revision,
    key: row.key,
    value: row.value,
    created: row.created === 1,
    deleted: row.deleted === 1,
    prevRevision: row.prev_revision,
  };
  if (row.prev_value != null) change.prevValue = row.prev_value;
  return change;
}

function unavailableOnBusy<T>(key: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw unavailable(key, err);
  }
}

/** SQLite's "try again later" errors as StorageError('Unavailable'); anything else unchanged. */
function unavailable(key: string, err: unknown): unknown {
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && UNAVAILABLE_CODES.test(code)) {
    return new StorageError('Unavailable', key, `sqlite: ${(err as Error).message}`);
  }
  return err;
}

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
// test/run.js's TypeScript loader for the child, not tsx's costlier hooks (~1 s of CPU less per process).
const TS_LOADER = fileURLToPath(new URL('../support/ts-loader.mjs', import.meta.url));
import Database from 'better-sqlite3';
import { SqliteStorage } from '../../runtime/storage/sqlite.js';
import { migrate, SCHEMA_VERSION, type Migration } from '../../runtime/storage/sqlite-schema.js';
import { StorageError } from '../../runtime/storage/interface.js';
import { describeStorageConformance } from './conformance.js';
import { EventCollector } from './watch-helpers.js';

const root = mkdtempSync(join(tmpdir(), 'kgen-sqlite-'));
after(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
const freshPath = () => join(root, `db-${++counter}.db`);

describeStorageConformance('sqlite', async () => {
  const storage = new SqliteStorage(freshPath());
  return { storage, cleanup: () => storage.close() };
});

const thing = (name: string, spec: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Thing', metadata: { name }, spec });

describe('sqlite storage: persistence', () => {
  it('keeps data, revisions and the compacted revision across close and reopen', async () => {
    const path = freshPath();
    const first = new SqliteStorage(path);
    const a = await first.create('/registry/core/things/a', thing('a', { v: 1 }));
    await first.create('/registry/core/things/b', thing('b'));
    const compactAt = await first.currentRevision();
    await first.compact(compactAt);
    await first.create('/registry/core/things/gone', thing('gone'));
    const gone = await first.delete('/registry/core/things/gone');
    const revision = await first.currentRevision();
    await first.close();

    const second = new SqliteStorage(path);
    assert.equal(await second.currentRevision(), revision);
    assert.deepEqual(await second.get('/registry/core/things/a'), a);
    const list = await second.getList('/registry/core/things/');
    assert.deepEqual(list.items.map((o) => o.metadata.name), ['a', 'b']);
    const old = new EventCollector(second.watch('/registry/core/things/', { resourceVersion: String(Number(compactAt) - 1) }));
    await old.waitDone();
    assert.equal((old.error as StorageError).code, 'Expired');
    const catchUp = new EventCollector(second.watch('/registry/core/things/', { resourceVersion: compactAt }));
    const events = await catchUp.waitFor(2);
    catchUp.stop();
    assert.deepEqual(events.map((e) => e.type), ['ADDED', 'DELETED']);
    assert.deepEqual(events[1].object, gone);
    const next = await second.create('/registry/core/things/c', thing('c'));
    assert.ok(Number(next.metadata.resourceVersion) > Number(revision));
    await second.close();
  });

  it('creates the database and its -wal and -shm files readable by their owner only (0600), whatever the umask', async () => {
    const path = freshPath();
    const umask = process.umask(0o022);
    try {
      const s = new SqliteStorage(path);
      await s.create('/registry/core/things/a', thing('a'));
      for (const file of [path, `${path}-wal`, `${path}-shm`]) assert.equal(statSync(file).mode & 0o777, 0o600, file);
      await s.close();
      // A database left readable by an older version is tightened when opened.
      const old = freshPath();
      writeFileSync(old, '');
      chmodSync(old, 0o644);
      const reopened = new SqliteStorage(old);
      assert.equal(statSync(old).mode & 0o777, 0o600);
      await reopened.close();
    } finally {
      process.umask(umask);
    }
  });

  it('never reuses a revision after compaction removed the newest rows', async () => {
    const path = freshPath();
    const first = new SqliteStorage(path);
    await first.create('/registry/core/things/a', thing('a'));
    await first.delete('/registry/core/things/a');
    const revision = await first.currentRevision();
    await first.compact(revision);
    await first.close();
    const second = new SqliteStorage(path);
    assert.equal(await second.currentRevision(), revision);
    const created = await second.create('/registry/core/things/a', thing('a'));
    assert.equal(Number(created.metadata.resourceVersion), Number(revision) + 1);
    await second.close();
  });

  it('stores values without resourceVersion, one row per write', async () => {
    const path = freshPath();
    const s = new SqliteStorage(path);
    await s.create('/registry/core/things/a', thing('a', { v: 1 }));
    await s.guaranteedUpdate('/registry/core/things/a', {}, (cur) => ({ ...cur!, spec: { v: 2 } }));
    await s.close();
    const db = new Database(path, { readonly: true });
    const rows = db.prepare('SELECT key, value, created, deleted FROM kv ORDER BY revision').all() as Array<{ value: string }>;
    db.close();
    assert.equal(rows.length, 2);
    for (const row of rows) assert.equal(JSON.parse(row.value).metadata.resourceVersion, undefined);
  });
});

describe('sqlite storage: compaction', () => {
  it('deletes superseded rows and deletions at or below the revision, keeping later history', async () => {
    const path = freshPath();
    const s = new SqliteStorage(path);
    const k = (n: string) => `/registry/core/things/${n}`;
    await s.create(k('a'), thing('a', { v: 1 }));
    await s.guaranteedUpdate(k('a'), {}, (cur) => ({ ...cur!, spec: { v: 2 } }));
    await s.create(k('b'), thing('b'));
    await s.delete(k('b'));
    await s.create(k('c'), thing('c'));
    const compactAt = await s.currentRevision();
    await s.guaranteedUpdate(k('c'), {}, (cur) => ({ ...cur!, spec: { v: 2 } }));
    await s.guaranteedUpdate(k('c'), {}, (cur) => ({ ...cur!, spec: { v: 3 } }));
    await s.compact(compactAt);
    await s.close();
    const db = new Database(path, { readonly: true });
    const rows = db.prepare('SELECT key, value FROM kv ORDER BY revision').all() as Array<{ key: string; value: string }>;
    const compacted = db.prepare('SELECT revision FROM compaction').pluck().get();
    db.close();
    assert.deepEqual(
      rows.map((r) => `${r.key.split('/').pop()} ${JSON.stringify(JSON.parse(r.value).spec)}`),
      ['a {"v":2}', 'c {}', 'c {"v":2}', 'c {"v":3}'],
    );
    assert.equal(String(compacted), compactAt);
  });
});

describe('sqlite storage: schema', () => {
  it('records migrations and runs in WAL mode with synchronous=FULL', async () => {
    const path = freshPath();
    const s = new SqliteStorage(path);
    assert.equal(s.schemaVersion, SCHEMA_VERSION);
    await s.close();
    const db = new Database(path);
    const versions = db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all() as Array<{ version: number }>;
    assert.deepEqual(versions.map((v) => v.version), Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    db.close();
    // Reopening applies nothing twice.
    const again = new SqliteStorage(path);
    assert.equal(again.schemaVersion, SCHEMA_VERSION);
    await again.close();
    const check = new Database(path, { readonly: true });
    assert.equal((check.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get() as { n: number }).n, SCHEMA_VERSION);
    check.close();
  });

  it('applies pending migrations in order, each once, and refuses a newer schema', () => {
    const db = new Database(':memory:');
    const m: Migration[] = [
      { version: 1, name: 'one', sql: 'CREATE TABLE t (a INTEGER)' },
      { version: 2, name: 'two', sql: 'ALTER TABLE t ADD COLUMN b INTEGER' },
    ];
    assert.equal(migrate(db, m.slice(0, 1)), 1);
    assert.equal(migrate(db, m), 2);
    assert.equal(migrate(db, m), 2);
    const names = db.prepare('SELECT name FROM schema_migrations ORDER BY version').pluck().all();
    assert.deepEqual(names, ['one', 'two']);
    assert.throws(() => migrate(db, m.slice(0, 1)), /newer than this kgen supports/);
    db.close();
  });

  it('rolls back a failing migration entirely', () => {
    const db = new Database(':memory:');
    const bad: Migration[] = [{ version: 1, name: 'bad', sql: 'CREATE TABLE t (a INTEGER); CREATE TABLE t (b INTEGER);' }];
    assert.throws(() => migrate(db, bad));
    assert.equal(db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 't'").pluck().get(), 0);
    assert.equal(db.prepare('SELECT COUNT(*) FROM schema_migrations').pluck().get(), 0);
    db.close();
  });
});

describe('sqlite storage: crash safety', () => {
  it('keeps every acknowledged write when the writer is killed with SIGKILL', async () => {
    const path = freshPath();
    const script = fileURLToPath(new URL('./crash-writer.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', TS_LOADER, script, path], { stdio: ['ignore', 'pipe', 'pipe'] });
    const acknowledged: Array<{ key: string; rv: string }> = [];
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    await new Promise<void>((resolve, reject) => {
      let buffer = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) {
          const [key, rv] = line.split(' ');
          acknowledged.push({ key, rv });
        }
        if (acknowledged.length >= 200 && child.exitCode === null && !child.killed) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', (code, signal) => {
        if (signal !== 'SIGKILL') reject(new Error(`writer exited early (${code ?? signal}): ${stderr}`));
      });
    });
    await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(undefined) : child.once('exit', r)));
    assert.equal(child.signalCode, 'SIGKILL', `the writer exited with ${child.exitCode} before the kill:\n${stderr}`);

    const s = new SqliteStorage(path);
    assert.ok(acknowledged.length >= 200);
    for (const { key, rv } of acknowledged) {
      const obj = await s.get(key, { ignoreNotFound: true });
      assert.equal(obj?.metadata.resourceVersion, rv, `acknowledged write ${key} missing`);
    }
    assert.ok(Number(await s.currentRevision()) >= Number(acknowledged[acknowledged.length - 1].rv));
    await s.close();
  });
});

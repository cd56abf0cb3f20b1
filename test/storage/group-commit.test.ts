/**
 * Group commit on SQLite (runtime/storage/group-commit.ts): the writes of one event-loop turn
 * share one transaction and one fsync, each is acknowledged only after that commit, and a failure
 * fails exactly the writes it hit. Ends with SIGKILL under concurrent writers.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
// test/run.js's TypeScript loader for the child, not tsx's costlier hooks (~1 s of CPU less per process).
const TS_LOADER = fileURLToPath(new URL('../support/ts-loader.mjs', import.meta.url));
import type { KubeObject } from '../../runtime/api/meta.js';
import { StorageError, type StorageEvent } from '../../runtime/storage/interface.js';
import { LogStorage } from '../../runtime/storage/log-storage.js';
import type { AppendOutcome, AppendRequest } from '../../runtime/storage/revision-log.js';
import { SqliteLog } from '../../runtime/storage/sqlite-log.js';
import { SqliteStorage } from '../../runtime/storage/sqlite.js';

const root = mkdtempSync(join(tmpdir(), 'kgen-group-commit-'));
after(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
const freshPath = () => join(root, `db-${++counter}.db`);

const thing = (name: string, spec: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Thing', metadata: { name }, spec });
const key = (name: string) => `/registry/things/${name}`;

/** A SqliteLog that counts its group commits. */
class CountingLog extends SqliteLog {
  batches: number[] = [];
  override appendBatch(requests: readonly AppendRequest[]): AppendOutcome[] {
    this.batches.push(requests.length);
    return super.appendBatch(requests);
  }
}

function open(path = freshPath()): { storage: LogStorage; log: CountingLog } {
  const log = new CountingLog(path);
  return { storage: new LogStorage(log), log };
}

/** Collects the events of a watch from now until `count` arrived. */
async function collect(storage: LogStorage, count: number): Promise<{ events: StorageEvent[]; done: Promise<void> }> {
  const watcher = storage.watch('/registry/things/');
  const events: StorageEvent[] = [];
  const done = (async () => {
    for await (const e of watcher) {
      events.push(e);
      if (events.length === count) break;
    }
  })();
  return { events, done };
}

describe('sqlite group commit', () => {
  it('commits the writes of one turn together, in order, and shows none of them before the commit', async () => {
    const { storage, log } = open();
    const before = Number(await storage.currentRevision());
    const watch = await collect(storage, 40);
    const writes = Array.from({ length: 40 }, (_, i) => storage.create(key(`t${i}`), thing(`t${i}`, { i })));
    // Queued, not committed: invisible to reads and to the revision.
    assert.equal(await storage.get(key('t0'), { ignoreNotFound: true }), undefined);
    assert.equal(Number(await storage.currentRevision()), before);
    const created = await Promise.all(writes);
    assert.deepEqual(log.batches, [40]);
    assert.deepEqual(
      created.map((o) => Number(o.metadata.resourceVersion)),
      Array.from({ length: 40 }, (_, i) => before + 1 + i),
    );
    await watch.done;
    assert.deepEqual(
      watch.events.map((e) => [e.type, e.key, e.resourceVersion]),
      created.map((o) => ['ADDED', key(o.metadata.name!), o.metadata.resourceVersion]),
    );
    assert.deepEqual((await storage.get(key('t7')))?.spec, { i: 7 });
    await storage.close();
  });

  it('decides conflicts within a group on committed state: one create wins, concurrent updates all apply', async () => {
    const { storage, log } = open();
    const results = await Promise.allSettled([storage.create(key('same'), thing('same', { n: 1 })), storage.create(key('same'), thing('same', { n: 2 }))]);
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    assert.ok(lost.reason instanceof StorageError && lost.reason.code === 'KeyExists');
    const increment = (cur: KubeObject | undefined) => ({ ...cur!, spec: { n: (cur!.spec as { n: number }).n + 10 } });
    const updates = await Promise.all(Array.from({ length: 5 }, () => storage.guaranteedUpdate(key('same'), {}, increment)));
    const winner = (results.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<KubeObject>).value;
    const start = (winner.spec as { n: number }).n;
    assert.deepEqual((await storage.get(key('same')))?.spec, { n: start + 50 });
    assert.equal(new Set(updates.map((u) => u.metadata.resourceVersion)).size, 5);
    assert.ok(log.batches.length >= 2, 'losers retried in later groups');
    await storage.close();
  });

  it('fails a write the database rejects alone; the rest of its group commits', async () => {
    const { storage, log } = open();
    log.db.exec(`CREATE TRIGGER reject_boom BEFORE INSERT ON kv WHEN NEW.key LIKE '%boom%'
      BEGIN SELECT RAISE(ABORT, 'boom rejected'); END`);
    const watch = await collect(storage, 2);
    const results = await Promise.allSettled([
      storage.create(key('a'), thing('a')),
      storage.create(key('boom'), thing('boom')),
      storage.create(key('b'), thing('b')),
    ]);
    assert.deepEqual(log.batches, [3]);
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
    assert.match(String((results[1] as PromiseRejectedResult).reason), /boom rejected/);
    await watch.done;
    assert.deepEqual(watch.events.map((e) => e.key), [key('a'), key('b')]);
    assert.equal(await storage.get(key('boom'), { ignoreNotFound: true }), undefined);
    await storage.close();
  });

  it('fails every write of a group whose transaction fails, and nothing else', async () => {
    const path = freshPath();
    const { storage, log } = open(path);
    await storage.create(key('before'), thing('before'));
    const revision = Number(await storage.currentRevision());
    // RAISE(ROLLBACK) abandons the whole transaction, as an I/O error or a full disk does.
    log.db.exec(`CREATE TRIGGER doom BEFORE INSERT ON kv WHEN NEW.key LIKE '%doom%'
      BEGIN SELECT RAISE(ROLLBACK, 'transaction lost'); END`);
    const watch = await collect(storage, 2);
    const failed = await Promise.allSettled([
      storage.create(key('x1'), thing('x1')),
      storage.create(key('doom'), thing('doom')),
      storage.create(key('x2'), thing('x2')),
    ]);
    assert.deepEqual(failed.map((r) => r.status), ['rejected', 'rejected', 'rejected']);
    for (const r of failed) assert.match(String((r as PromiseRejectedResult).reason), /transaction lost/);
    assert.equal(Number(await storage.currentRevision()), revision);
    for (const name of ['x1', 'doom', 'x2']) assert.equal(await storage.get(key(name), { ignoreNotFound: true }), undefined);
    // The next group is unaffected and takes the next revisions.
    const next = await Promise.all([storage.create(key('y1'), thing('y1')), storage.create(key('y2'), thing('y2'))]);
    assert.deepEqual(next.map((o) => Number(o.metadata.resourceVersion)), [revision + 1, revision + 2]);
    await watch.done;
    assert.deepEqual(watch.events.map((e) => e.key), [key('y1'), key('y2')]);
    await storage.close();
    const reopened = new SqliteStorage(path);
    const names = (await reopened.getList('/registry/things/')).items.map((o) => o.metadata.name);
    assert.deepEqual(names, ['before', 'y1', 'y2']);
    await reopened.close();
  });

  it('commits the queued writes on close', async () => {
    const path = freshPath();
    const { storage } = open(path);
    const write = storage.create(key('late'), thing('late'));
    await storage.close();
    assert.equal((await write).metadata.name, 'late');
    const reopened = new SqliteStorage(path);
    assert.equal((await reopened.get(key('late')))?.metadata.resourceVersion, (await write).metadata.resourceVersion);
    await reopened.close();
  });

  it('keeps every acknowledged write when 32 concurrent writers are killed with SIGKILL', async () => {
    const path = freshPath();
    const script = fileURLToPath(new URL('./crash-writer.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', TS_LOADER, script, path, '32'], { stdio: ['ignore', 'pipe', 'pipe'] });
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
          const [k, rv] = line.split(' ');
          acknowledged.push({ key: k, rv });
        }
        if (acknowledged.length >= 400 && child.exitCode === null && !child.killed) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', (code, signal) => {
        if (signal !== 'SIGKILL') reject(new Error(`writer exited early (${code ?? signal}): ${stderr}`));
      });
    });
    await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(undefined) : child.once('exit', r)));
    assert.equal(child.signalCode, 'SIGKILL');

    const s = new SqliteStorage(path);
    assert.ok(acknowledged.length >= 400);
    for (const { key: k, rv } of acknowledged) {
      const obj = await s.get(k, { ignoreNotFound: true });
      assert.equal(obj?.metadata.resourceVersion, rv, `acknowledged write ${k} missing`);
    }
    const maxAcked = Math.max(...acknowledged.map((a) => Number(a.rv)));
    assert.ok(Number(await s.currentRevision()) >= maxAcked);
    // Revisions are dense: no acknowledged revision was handed out twice.
    assert.equal(new Set(acknowledged.map((a) => a.rv)).size, acknowledged.length);
    await s.close();
  });
});

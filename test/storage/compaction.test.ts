/**
 * The compactor (runtime/storage/compactor.ts) on every backend: with a short interval it compacts
 * to the revision observed one interval earlier, so older watches and continue tokens get Expired
 * while the retention window stays readable; on etcd several compactors coordinate through kube's
 * compact_rev_key so only one compacts per interval. The watch cache's window follows the
 * backend's compaction (issue 12, item 10): what is compacted is 410 Expired from the cache too.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Cacher } from '../../runtime/storage/cacher/index.js';
import { startCompactor } from '../../runtime/storage/compactor.js';
import { EtcdStorage } from '../../runtime/storage/etcd.js';
import { StorageError, type Storage } from '../../runtime/storage/interface.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';
import { SqliteStorage } from '../../runtime/storage/sqlite.js';
import { EtcdCluster } from '../support/etcd.js';
import { key, PREFIX, rejectsWith, widget } from './conformance-fixtures.js';
import { EventCollector } from './watch-helpers.js';

const root = mkdtempSync(join(tmpdir(), 'kgen-compaction-'));
let etcdStarted: Promise<EtcdCluster> | undefined;
const etcd = (): Promise<EtcdCluster> => (etcdStarted ??= EtcdCluster.start());
after(async () => {
  if (etcdStarted) await (await etcdStarted).stop();
  rmSync(root, { recursive: true, force: true });
});

const backends: Array<[string, () => Promise<Storage>]> = [
  ['memory', async () => new MemoryStorage()],
  ['sqlite', async () => new SqliteStorage(join(root, `db-${Date.now()}-${Math.random()}.db`))],
  ['etcd', async () => EtcdStorage.open({ endpoints: (await etcd()).endpoints })],
];

async function expectExpiredWatch(s: Storage, resourceVersion: string): Promise<void> {
  const w = new EventCollector(s.watch(PREFIX, { resourceVersion }));
  await w.waitDone();
  assert.ok(w.error instanceof StorageError && w.error.code === 'Expired', `watch from ${resourceVersion}: ${String(w.error)}`);
}

for (const [name, open] of backends) {
  describe(`compactor: ${name}`, () => {
    it('each turn compacts to the revision seen one interval earlier', async () => {
      const s = await open();
      const compacted: number[] = [];
      // Turns are driven by hand (runOnce), so no timer turn can race the assertions below.
      const compactor = startCompactor(s, {
        intervalMs: 3_600_000,
        onCompact: (rev) => compacted.push(rev),
        onError: (err) => assert.fail(String(err)),
      });
      try {
        for (let i = 0; i < 3; i++) await s.create(key('ns1', `a${i}`), widget(`a${i}`));
        const early = await s.currentRevision();
        const page = await s.getList(PREFIX, { limit: 1 });
        // Turn 1 records a revision ≥ early; turn 2 compacts to it.
        await compactor.runOnce();
        assert.deepEqual(compacted, [], 'the first turn only records a revision');
        await compactor.runOnce();
        const first = compacted[0]!;
        assert.ok(first >= Number(early), `compacted to ${first}, expected at least ${early}`);
        // The retention window (everything after the compacted revision) stays watchable.
        const fromFirst = new EventCollector(s.watch(PREFIX, { resourceVersion: String(first) }));
        for (let i = 0; i < 3; i++) await s.create(key('ns1', `b${i}`), widget(`b${i}`));
        const recent = await s.currentRevision();
        await expectExpiredWatch(s, String(first - 1));
        const caughtUp = await fromFirst.waitFor(3);
        fromFirst.stop();
        assert.deepEqual(caughtUp.map((e) => e.object.metadata.name), ['b0', 'b1', 'b2']);
        // The next turns move on to a revision at least as new as the writes above.
        await compactor.runOnce();
        await compactor.runOnce();
        assert.ok(compacted[compacted.length - 1]! >= Number(recent), `compacted to ${compacted.join(',')}, expected at least ${recent}`);
        await expectExpiredWatch(s, String(Number(recent) - 1));
        await rejectsWith(s.getList(PREFIX, { limit: 1, continue: page.continue }), 'Expired');
        assert.deepEqual(compacted, [...compacted].sort((x, y) => x - y));
      } finally {
        await compactor.stop();
        await s.close();
      }
    });

    it('stop() ends the timer; a failing turn is reported and the next one runs', async () => {
      const s = await open();
      const errors: unknown[] = [];
      const compactor = startCompactor(s, { intervalMs: 0, onError: (err) => errors.push(err) });
      await compactor.runOnce();
      await s.create(key('ns1', 'x'), widget('x'));
      await s.close();
      await compactor.runOnce();
      assert.equal(errors.length, 1);
      assert.ok(errors[0] instanceof StorageError && errors[0].code === 'Unavailable');
      await compactor.stop();
      await compactor.stop();
    });
  });
}

describe('compactor: several servers on one etcd', () => {
  it('only one of them compacts per turn, coordinated by compact_rev_key', async () => {
    const cluster = await etcd();
    const servers = await Promise.all([0, 1, 2].map(() => EtcdStorage.open({ endpoints: cluster.endpoints })));
    const compactions: Array<[number, number]> = [];
    const compactors = servers.map((s, i) =>
      startCompactor(s, { intervalMs: 0, onCompact: (rev) => compactions.push([i, rev]), onError: (err) => assert.fail(String(err)) }),
    );
    try {
      for (let round = 0; round < 4; round++) {
        await servers[0].create(key('coord', `r${round}`), widget(`r${round}`));
        // Every server takes its turn in the same interval, in a different order each round.
        for (let i = 0; i < 3; i++) await compactors[(i + round) % 3].runOnce();
      }
      // Rounds 0 and 1 only bootstrap (kube does not compact on its first turn); afterwards
      // exactly one compaction happens per round, and revisions never go backwards.
      assert.ok(compactions.length >= 2 && compactions.length <= 3, JSON.stringify(compactions));
      const revisions = compactions.map(([, rev]) => rev);
      assert.deepEqual(revisions, [...revisions].sort((x, y) => x - y));
      assert.equal(new Set(revisions).size, revisions.length);
    } finally {
      await Promise.all(compactors.map((c) => c.stop()));
      await Promise.all(servers.map((s) => s.close()));
    }
  });
});

/**
 * The probe of issue 12, item 10: the server's compactor compacts the backend (not the watch
 * cache in front of it), and a watch, an Exact list and a continue token at a compacted revision
 * were still served from the cache's ring. kube's rule: the cache answers 410 Expired for
 * revisions older than its window, and the window follows compaction.
 */
/** Names of this test's objects (etcd is shared by every test of the file). */
function mine(items: { metadata: { name?: string } }[], tag: string): string[] {
  return items.map((o) => o.metadata.name!).filter((n) => n.endsWith(`-${tag}`)).sort();
}

async function writeAndPage(s: Storage, tag: string) {
  for (let i = 0; i < 3; i++) await s.create(key(tag, `a${i}-${tag}`), widget(`a${i}-${tag}`));
  const early = await s.currentRevision();
  const page = await s.getList(PREFIX, { limit: 1 });
  assert.ok(page.continue, 'a continue token');
  for (let i = 0; i < 3; i++) await s.create(key(tag, `b${i}-${tag}`), widget(`b${i}-${tag}`));
  const now = await s.currentRevision();
  // A consistent list: the cache has caught up with every write above.
  await s.getList(PREFIX);
  return { early, page, now };
}

async function expectCompactedFromCache(cacher: Cacher, early: string, token: string, now: string, tag: string): Promise<void> {
  await rejectsWith(cacher.getList(PREFIX, { resourceVersion: early, resourceVersionMatch: 'Exact' }), 'Expired');
  await rejectsWith(cacher.getList(PREFIX, { limit: 1, continue: token }), 'Expired');
  await expectExpiredWatch(cacher, early);
  // The window itself (the compacted revision and later) is still served.
  const atNow = await cacher.getList(PREFIX, { resourceVersion: now, resourceVersionMatch: 'Exact' });
  assert.deepEqual(mine(atNow.items, tag), ['a0', 'a1', 'a2', 'b0', 'b1', 'b2'].map((n) => `${n}-${tag}`));
  const fromNow = new EventCollector(cacher.watch(PREFIX, { resourceVersion: now }));
  await cacher.create(key(tag, `c0-${tag}`), widget(`c0-${tag}`));
  assert.deepEqual((await fromNow.waitFor(1)).map((e) => e.object.metadata.name), [`c0-${tag}`]);
  fromNow.stop();
}

for (const [name, open] of backends) {
  describe(`watch cache over ${name}: its window follows compaction`, () => {
    it('a watch, an Exact list and a continue token at a compacted revision get 410 Expired, not the cache\'s history', async () => {
      const backend = await open();
      const cacher = new Cacher(backend, { prefix: PREFIX, waitTimeoutMs: 2000 });
      try {
        const tag = `w${name}`;
        const { early, page, now } = await writeAndPage(cacher, tag);
        // Before compaction the cache serves that history.
        const before = await cacher.getList(PREFIX, { resourceVersion: early, resourceVersionMatch: 'Exact' });
        assert.deepEqual(mine(before.items, tag), ['a0', 'a1', 'a2'].map((n) => `${n}-${tag}`));
        await backend.compact(now);
        await expectCompactedFromCache(cacher, early, page.continue!, now, tag);
      } finally {
        await cacher.close();
        await backend.close();
      }
    });
  });
}

describe('watch cache over etcd: a replica that did not compact', () => {
  it('answers 410 for history another server compacted, before and after its own compactor turn', async () => {
    const cluster = await etcd();
    const [a, b] = await Promise.all([0, 1].map(() => EtcdStorage.open({ endpoints: cluster.endpoints })));
    const cacher = new Cacher(b!, { prefix: PREFIX, waitTimeoutMs: 2000 });
    const compactors = [a!, b!].map((s) => startCompactor(s, { intervalMs: 0, onError: (err) => assert.fail(String(err)) }));
    try {
      // Both bootstrap the turn state; then only server a records revisions and compacts.
      await compactors[0]!.runOnce();
      await compactors[1]!.runOnce();
      const { early, page } = await writeAndPage(cacher, 'replica');
      await compactors[0]!.runOnce();
      for (let i = 0; i < 2; i++) await cacher.create(key('replica2', `d${i}`), widget(`d${i}`));
      await compactors[0]!.runOnce();
      const compacted = a!.compactedRevision();
      assert.ok(compacted > Number(early), `server a compacted to ${compacted}, past ${early}`);
      // b's compactor has not run since: b's cache asks etcd before serving that history.
      assert.ok(b!.compactedRevision() < Number(early), 'b has not been told');
      await rejectsWith(cacher.getList(PREFIX, { resourceVersion: early, resourceVersionMatch: 'Exact' }), 'Expired');
      await rejectsWith(cacher.getList(PREFIX, { limit: 1, continue: page.continue }), 'Expired');
      await expectExpiredWatch(cacher, early);
      // At its turn (which a won) b learns the exact compacted revision from compact_rev_key.
      await compactors[1]!.runOnce();
      assert.equal(b!.compactedRevision(), compacted);
      await expectExpiredWatch(cacher, early);
      // History b's ring holds after the compacted revision is still served from it.
      const after = await cacher.getList(PREFIX, { resourceVersion: String(compacted), resourceVersionMatch: 'Exact' });
      assert.ok(after.items.length > 0);
    } finally {
      await Promise.all(compactors.map((c) => c.stop()));
      await cacher.close();
      await Promise.all([a!, b!].map((s) => s.close()));
    }
  });
});

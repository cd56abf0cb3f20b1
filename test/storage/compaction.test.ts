/**
 * The compactor (runtime/storage/compactor.ts) on every backend: with a short interval it compacts
 * to the revision observed one interval earlier, so older watches and continue tokens get Expired
 * while the retention window stays readable; on etcd several compactors coordinate through kube's
 * compact_rev_key so only one compacts per interval.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
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

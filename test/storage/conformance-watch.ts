/** The watch part of the storage conformance suite (see conformance.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { StorageError, type Storage } from '../../runtime/storage/interface.js';
import { isRed, key, mutateOrRefuse, PREFIX, widget } from './conformance-fixtures.js';
import { EventCollector, summary } from './watch-helpers.js';

export function describeWatchConformance(storage: () => Storage): void {
  describe('watch', () => {
    it('from now: later changes only, with objects, prevObject and revisions', async () => {
      const s = storage();
      await s.create(key('ns1', 'old'), widget('old'));
      const w = new EventCollector(s.watch(PREFIX));
      const a = await s.create(key('ns1', 'a'), widget('a', { v: 1 }));
      const a2 = await s.guaranteedUpdate(key('ns1', 'a'), {}, (cur) => ({ ...(cur as KubeObject), spec: { v: 2 } }));
      const gone = await s.delete(key('ns1', 'a'));
      const events = await w.waitFor(3);
      w.stop();
      assert.deepEqual(summary(events), [
        `ADDED ${key('ns1', 'a')} ${a.metadata.resourceVersion}`,
        `MODIFIED ${key('ns1', 'a')} ${a2.metadata.resourceVersion}`,
        `DELETED ${key('ns1', 'a')} ${gone.metadata.resourceVersion}`,
      ]);
      assert.deepEqual(events[0].object, a);
      assert.deepEqual(events[1].object, a2);
      assert.deepEqual(events[1].prevObject, a);
      assert.deepEqual(events[2].object, gone);
      assert.equal(events[2].object.metadata.resourceVersion, gone.metadata.resourceVersion);
    });

    it("resourceVersion '0' also starts from now", async () => {
      const s = storage();
      await s.create(key('ns1', 'old'), widget('old'));
      const w = new EventCollector(s.watch(PREFIX, { resourceVersion: '0' }));
      const a = await s.create(key('ns1', 'a'), widget('a'));
      const events = await w.waitFor(1);
      w.stop();
      assert.deepEqual(summary(events), [`ADDED ${key('ns1', 'a')} ${a.metadata.resourceVersion}`]);
    });

    it('from an older revision: catch-up then live, no gap, no duplicate', async () => {
      const s = storage();
      await s.create(key('ns1', 'before'), widget('before'));
      const from = await s.currentRevision();
      const expected: string[] = [];
      for (let i = 0; i < 5; i++) {
        const o = await s.create(key('ns1', `h${i}`), widget(`h${i}`));
        expected.push(`ADDED ${key('ns1', `h${i}`)} ${o.metadata.resourceVersion}`);
      }
      const w = new EventCollector(s.watch(PREFIX, { resourceVersion: from }));
      // Writes racing the watch's start, issued in the same tick as watch() returned.
      const live = await Promise.all([0, 1, 2].map((i) => s.create(key('ns1', `l${i}`), widget(`l${i}`))));
      // Concurrent writes commit in any order (etcd): events come in revision order.
      live
        .map((o, i) => ({ rv: Number(o.metadata.resourceVersion), line: `ADDED ${key('ns1', `l${i}`)} ${o.metadata.resourceVersion}` }))
        .sort((x, y) => x.rv - y.rv)
        .forEach(({ line }) => expected.push(line));
      const events = await w.waitFor(expected.length);
      const sentinel = await s.create(key('ns1', 'zz'), widget('zz'));
      await w.waitFor(expected.length + 1);
      w.stop();
      assert.deepEqual(summary(w.events), [...expected, `ADDED ${key('ns1', 'zz')} ${sentinel.metadata.resourceVersion}`]);
      assert.equal(events.length, expected.length);
    });

    it('watching a key that does not end in / sees exactly that key', async () => {
      const s = storage();
      const w = new EventCollector(s.watch(key('ns1', 'a')));
      await s.create(key('ns1', 'ab'), widget('ab'));
      await s.create(`${key('ns1', 'a')}/child`, widget('child'));
      const a = await s.create(key('ns1', 'a'), widget('a'));
      await s.create(key('ns1', 'b'), widget('b'));
      const gone = await s.delete(key('ns1', 'a'));
      const events = await w.waitFor(2);
      w.stop();
      assert.deepEqual(summary(events), [
        `ADDED ${key('ns1', 'a')} ${a.metadata.resourceVersion}`,
        `DELETED ${key('ns1', 'a')} ${gone.metadata.resourceVersion}`,
      ]);
    });

    it('does not see changes outside its prefix', async () => {
      const s = storage();
      const w = new EventCollector(s.watch(`${PREFIX}ns1/`));
      await s.create(key('ns2', 'a'), widget('a'));
      await s.create('/registry/example.com/widgetsx/ns1/a', widget('a'));
      const mine = await s.create(key('ns1', 'a'), widget('a'));
      const events = await w.waitFor(1);
      w.stop();
      assert.deepEqual(summary(events), [`ADDED ${key('ns1', 'a')} ${mine.metadata.resourceVersion}`]);
    });

    it('a predicate turns transitions into ADDED and DELETED, as kube does', async () => {
      const s = storage();
      const k = key('ns1', 'a');
      const relabel = (color: string) => (cur: KubeObject | undefined) => {
        const obj = cur as KubeObject;
        return { ...obj, metadata: { ...obj.metadata, labels: { color } } };
      };
      const w = new EventCollector(s.watch(PREFIX, { predicate: isRed }));
      await s.create(k, widget('a', {}, { color: 'blue' }));
      const toRed = await s.guaranteedUpdate(k, {}, relabel('red'));
      const redAgain = await s.guaranteedUpdate(k, {}, (cur) => ({ ...(cur as KubeObject), spec: { v: 2 } }));
      const toBlue = await s.guaranteedUpdate(k, {}, relabel('blue'));
      await s.delete(k);
      const red = await s.create(k, widget('a', {}, { color: 'red' }));
      const gone = await s.delete(k);
      const events = await w.waitFor(5);
      w.stop();
      assert.deepEqual(summary(events), [
        `ADDED ${k} ${toRed.metadata.resourceVersion}`,
        `MODIFIED ${k} ${redAgain.metadata.resourceVersion}`,
        `DELETED ${k} ${toBlue.metadata.resourceVersion}`,
        `ADDED ${k} ${red.metadata.resourceVersion}`,
        `DELETED ${k} ${gone.metadata.resourceVersion}`,
      ]);
      // The DELETED for a transition carries the old (matching) object at the change's revision.
      assert.equal(events[2].object.metadata.labels?.color, 'red');
      assert.equal(events[2].object.metadata.resourceVersion, toBlue.metadata.resourceVersion);
      assert.deepEqual(events[0].object, toRed);
    });

    it('applies the predicate to catch-up events too', async () => {
      const s = storage();
      const from = await s.currentRevision();
      await s.create(key('ns1', 'a'), widget('a', {}, { color: 'blue' }));
      const b = await s.create(key('ns1', 'b'), widget('b', {}, { color: 'red' }));
      const w = new EventCollector(s.watch(PREFIX, { resourceVersion: from, predicate: isRed }));
      const events = await w.waitFor(1);
      w.stop();
      assert.deepEqual(summary(events), [`ADDED ${key('ns1', 'b')} ${b.metadata.resourceVersion}`]);
    });

    it('every watcher gets its own copy of each object, or a frozen shared one', async () => {
      const s = storage();
      const w1 = new EventCollector(s.watch(PREFIX));
      const w2 = new EventCollector(s.watch(PREFIX));
      await s.create(key('ns1', 'a'), widget('a', { v: 1 }));
      const [e1] = await w1.waitFor(1);
      const [e2] = await w2.waitFor(1);
      w1.stop();
      w2.stop();
      mutateOrRefuse(e1.object, (o) => (o.spec = { v: 'mutated' }));
      assert.deepEqual(e2.object.spec, { v: 1 });
      assert.deepEqual((await s.get(key('ns1', 'a')))?.spec, { v: 1 });
    });

    it('stop() ends a pending iteration promptly and is idempotent', async () => {
      const s = storage();
      const watcher = s.watch(PREFIX);
      const iterator = watcher[Symbol.asyncIterator]();
      const pending = iterator.next();
      watcher.stop();
      watcher.stop();
      assert.deepEqual(await pending, { value: undefined, done: true });
      const w = new EventCollector(s.watch(PREFIX));
      await s.create(key('ns1', 'a'), widget('a'));
      await w.waitFor(1);
      w.stop();
      await w.waitDone();
      await s.create(key('ns1', 'b'), widget('b'));
      assert.equal(w.events.length, 1);
    });

    it('breaking out of for-await stops the watcher', async () => {
      const s = storage();
      const watcher = s.watch(PREFIX);
      const consumed = (async () => {
        for await (const event of watcher) return event;
        return undefined;
      })();
      await s.create(key('ns1', 'a'), widget('a'));
      assert.equal((await consumed)?.type, 'ADDED');
      const next = await watcher[Symbol.asyncIterator]().next();
      assert.equal(next.done, true);
    });

    it('a malformed resourceVersion fails the watch with InvalidObject', async () => {
      const s = storage();
      const w = new EventCollector(s.watch(PREFIX, { resourceVersion: 'abc' }));
      await w.waitDone();
      assert.ok(w.error instanceof StorageError && w.error.code === 'InvalidObject', String(w.error));
    });
  });
}

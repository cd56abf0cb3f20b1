/**
 * Two EtcdStorage instances on one etcd, as two kgen replicas would use it: each sees the other's
 * writes through watch, in order, with the same resourceVersions, and optimistic concurrency holds
 * across them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { EtcdStorage } from '../../runtime/storage/etcd.js';
import { EtcdCluster } from '../support/etcd.js';
import { key, PREFIX, widget } from './conformance-fixtures.js';
import { EventCollector, summary } from './watch-helpers.js';

let cluster: EtcdCluster;
let a: EtcdStorage;
let b: EtcdStorage;
before(async () => {
  cluster = await EtcdCluster.start();
  a = await EtcdStorage.open({ endpoints: cluster.endpoints });
  b = await EtcdStorage.open({ endpoints: cluster.endpoints });
});
after(async () => {
  await a?.close();
  await b?.close();
  await cluster?.stop();
});

describe('etcd storage: two instances on one etcd', () => {
  it("each watch sees the other's writes in revision order with identical resourceVersions", async () => {
    const from = await a.currentRevision();
    const onA = new EventCollector(a.watch(PREFIX, { resourceVersion: from }));
    const onB = new EventCollector(b.watch(PREFIX, { resourceVersion: from }));
    const written: KubeObject[] = [];
    for (let i = 0; i < 20; i++) {
      const writer = i % 2 === 0 ? a : b;
      written.push(await writer.create(key('ns1', `r${i}`), widget(`r${i}`, { i })));
      if (i % 5 === 4) {
        written.push(await (i % 2 === 0 ? b : a).guaranteedUpdate(key('ns1', `r${i}`), {}, (cur) => ({ ...(cur as KubeObject), spec: { i, updated: true } })));
      }
    }
    written.push(await b.delete(key('ns1', 'r0')));
    const expected = written.map((o, i) => `${i === written.length - 1 ? 'DELETED' : o.spec && (o.spec as { updated?: boolean }).updated ? 'MODIFIED' : 'ADDED'} ${key('ns1', o.metadata.name as string)} ${o.metadata.resourceVersion}`);
    const eventsA = await onA.waitFor(expected.length);
    const eventsB = await onB.waitFor(expected.length);
    onA.stop();
    onB.stop();
    assert.deepEqual(summary(eventsA), expected);
    assert.deepEqual(summary(eventsB), expected);
    assert.deepEqual(eventsA.map((e) => e.object), eventsB.map((e) => e.object));
    // Reads through either instance agree on the object and its resourceVersion.
    assert.deepEqual(await a.get(key('ns1', 'r7')), await b.get(key('ns1', 'r7')));
  });

  it('500 concurrent guaranteedUpdate increments from both instances end at exactly 500', async () => {
    const k = key('ns1', 'counter');
    await a.create(k, widget('counter', { n: 0 }));
    const from = await a.currentRevision();
    const watch = new EventCollector(b.watch(k, { resourceVersion: from }));
    let attempts = 0;
    const increment = (s: EtcdStorage) =>
      s.guaranteedUpdate(k, {}, (cur) => {
        attempts++;
        const obj = cur as KubeObject;
        return { ...obj, spec: { n: (obj.spec as { n: number }).n + 1 } };
      });
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 500 }, (_, i) => increment(i % 2 === 0 ? a : b)));
    const elapsed = Date.now() - started;
    assert.deepEqual((await a.get(k))?.spec, { n: 500 });
    assert.deepEqual((await b.get(k))?.spec, { n: 500 });
    // Every increment returned a distinct revision, and the watch saw 1..500 in order.
    assert.equal(new Set(results.map((o) => o.metadata.resourceVersion)).size, 500);
    const events = await watch.waitFor(500, 10_000);
    watch.stop();
    assert.deepEqual(events.map((e) => (e.object.spec as { n: number }).n), Array.from({ length: 500 }, (_, i) => i + 1));
    assert.ok(attempts >= 500);
    console.log(`# 500 contended increments from two instances: ${elapsed} ms, ${attempts} tryUpdate calls`);
  });

  it("a watch from now works when this instance's last seen revision was compacted by the other", async () => {
    await a.create(key('ns2', 'old'), widget('old'));
    await b.create(key('ns2', 'newer'), widget('newer'));
    await b.compact(await b.currentRevision());
    const watch = new EventCollector(a.watch(`${PREFIX}ns2/`));
    // "Now" moves to etcd's current revision once the watch finds its start compacted; writes
    // from then on arrive (write until one does, rather than guess when that happened).
    const later: KubeObject[] = [];
    for (let i = 0; watch.events.length === 0 && i < 50; i++) {
      later.push(await b.create(key('ns2', `later${i}`), widget(`later${i}`)));
      await new Promise((r) => setTimeout(r, 50));
    }
    await watch.waitFor(1);
    watch.stop();
    assert.equal(watch.error, undefined);
    const first = later.findIndex((o) => o.metadata.resourceVersion === watch.events[0].resourceVersion);
    assert.ok(first >= 0, 'only writes made after the watch started are seen');
    assert.deepEqual(summary(watch.events), later.slice(first, first + watch.events.length).map((o) => `ADDED ${key('ns2', o.metadata.name as string)} ${o.metadata.resourceVersion}`));
  });

  it('a resourceVersion precondition taken on one instance is enforced on the other', async () => {
    const k = key('ns1', 'occ');
    const created = await a.create(k, widget('occ', { v: 1 }));
    await b.guaranteedUpdate(k, {}, (cur) => ({ ...(cur as KubeObject), spec: { v: 2 } }));
    await assert.rejects(
      a.guaranteedUpdate(k, { preconditions: { resourceVersion: created.metadata.resourceVersion } }, (cur) => ({ ...(cur as KubeObject), spec: { v: 3 } })),
      (err: Error & { code?: string }) => err.code === 'ResourceVersionConflicts',
    );
    await assert.rejects(a.create(k, widget('occ')), (err: Error & { code?: string }) => err.code === 'KeyExists');
    assert.deepEqual((await a.get(k))?.spec, { v: 2 });
  });
});

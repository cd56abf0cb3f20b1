/**
 * SharedIndexInformer and its Lister against a real kgen server: handler calls for the initial
 * list and for later adds, updates and deletes; lister contents by namespace, name and label
 * selector; late handlers; resync; a relist after compaction turned into handler calls; and a
 * paged initial sync of a few thousand objects.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Indexer, SharedIndexInformer, isGone, type ResourceEventHandler } from '@kgen/client';
import { objectKey, resourcePrefix } from '../../runtime/storage/keys.js';
import { startTestServer, type TestServer } from '../server/testserver.js';
import { RecordingRest, newWidget, until, widgetClient, type Widget } from './helpers.js';
import { startProxy } from './proxy.js';

const FAST = { initialMs: 10, maxMs: 80, factor: 2, jitter: 0 };

/** A handler that records `add a 1`, `update a 1->2`, `delete a 2`. */
function recorder() {
  const calls: string[] = [];
  const id = (w: Widget) => `${w.metadata.namespace}/${w.metadata.name}`;
  const handler: ResourceEventHandler<Widget> = {
    onAdd: (w, initial) => calls.push(`add ${id(w)} ${w.spec.replicas}${initial ? ' (initial)' : ''}`),
    onUpdate: (o, n) => calls.push(`update ${id(n)} ${o.spec.replicas}->${n.spec.replicas}`),
    onDelete: (w) => calls.push(`delete ${id(w)} ${w.spec.replicas}`),
  };
  return { calls, handler };
}

describe('SharedIndexInformer', () => {
  let ts: TestServer;
  let rest: RecordingRest;

  before(async () => {
    ts = await startTestServer({ log: () => {} });
    rest = new RecordingRest({ server: ts.url });
    for (const ns of ['inf-a', 'inf-b', 'inf-many']) {
      await rest.request({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } });
    }
  });
  after(async () => {
    rest.close();
    await ts.close();
  });

  it('calls handlers for the initial list and every later change, and lists from its cache', async () => {
    const a = widgetClient(rest, 'inf-a');
    const b = widgetClient(rest, 'inf-b');
    await a.create(newWidget('one', 1, { tier: 'web' }));
    await b.create(newWidget('two', 2, { tier: 'db' }));
    const informer = new SharedIndexInformer(widgetClient(rest, undefined), { labelSelector: 'tier', backoff: FAST });
    const { calls, handler } = recorder();
    const registration = informer.addEventHandler(handler);
    assert.equal(informer.hasSynced(), false);
    informer.start();
    informer.start(); // idempotent
    await informer.waitForSync();
    assert.ok(registration.hasSynced());
    assert.deepEqual([...calls].sort(), ['add inf-a/one 1 (initial)', 'add inf-b/two 2 (initial)']);

    calls.length = 0;
    await a.create(newWidget('three', 3, { tier: 'web' }));
    await a.mergePatch('one', { spec: { replicas: 10 } });
    await b.delete('two');
    await a.create(newWidget('unlabelled', 4)); // outside the informer's selector
    await until(() => calls.length === 3, 'three handler calls');
    assert.deepEqual(calls, ['add inf-a/three 3', 'update inf-a/one 1->10', 'delete inf-b/two 2']);

    const lister = informer.lister();
    const names = (ws: Widget[]) => ws.map((w) => `${w.metadata.namespace}/${w.metadata.name}`).sort();
    assert.deepEqual(names(lister.list()), ['inf-a/one', 'inf-a/three']);
    assert.deepEqual(names(lister.list('tier=web,!missing')), ['inf-a/one', 'inf-a/three']);
    assert.deepEqual(names(lister.list('tier in (db)')), []);
    assert.deepEqual(names(lister.namespace('inf-a').list()), ['inf-a/one', 'inf-a/three']);
    assert.deepEqual(lister.namespace('inf-b').list(), []);
    assert.equal(lister.namespace('inf-a').get('one')?.spec.replicas, 10);
    assert.equal(lister.get('inf-a/three')?.spec.replicas, 3);
    assert.equal(lister.namespace('inf-a').get('unlabelled'), undefined);
    assert.throws(() => lister.get('one'), /namespaced: use namespace\(ns\)\.get\("one"\)/);
    assert.match(informer.lastSyncResourceVersion(), /^\d+$/);

    // A handler added late sees what is cached as adds first.
    const late = recorder();
    informer.addEventHandler(late.handler);
    assert.deepEqual([...late.calls].sort(), ['add inf-a/one 10 (initial)', 'add inf-a/three 3 (initial)']);
    registration.remove();
    await a.delete('three');
    await until(() => late.calls.length === 3, 'the late handler to see the delete');
    assert.equal(calls.length, 3, 'a removed handler is not called');
    await informer.stop();
  });

  it('scopes a namespaced informer, resyncs, and isolates a throwing handler', async () => {
    const informer = new SharedIndexInformer(widgetClient(rest, 'inf-a'), { resyncPeriodMs: 40, backoff: FAST, onError: (e) => errors.push(e) });
    const errors: unknown[] = [];
    const updates: string[] = [];
    informer.addEventHandler({
      onAdd: () => {
        throw new Error('handler bug');
      },
    });
    informer.addEventHandler({ onUpdate: (o, n) => o === n && updates.push(n.metadata.name!) });
    informer.start();
    await informer.waitForSync();
    assert.equal(informer.lister().get('one')?.spec.replicas, 10, 'a bare name looks in the informer namespace');
    assert.deepEqual(informer.lister().list().map((w) => w.metadata.namespace), ['inf-a', 'inf-a']);
    await until(() => updates.length >= 4, 'two resync rounds');
    assert.ok(errors.some((e) => e instanceof Error && e.message === 'handler bug'));
    await informer.stop();
  });

  it('rejects waitForSync when stopped before syncing', async () => {
    const unreachable = new RecordingRest({ server: 'http://127.0.0.1:1', maxRetries: 0 });
    const informer = new SharedIndexInformer(widgetClient(unreachable), { backoff: FAST, onError: () => {} });
    informer.start();
    const waiting = informer.waitForSync();
    await informer.stop();
    await assert.rejects(waiting, /stopped before it synced/);
    assert.throws(() => informer.start(), /stopped/);
    unreachable.close();
  });

  it('turns a relist after compaction into handler calls', async () => {
    // A watch cache of 2 events, so three missed changes fall out of it and storage answers 410.
    const small = await startTestServer({ log: () => {}, watchCache: { eventCapacity: 2 } });
    const proxy = await startProxy(small.url);
    const direct = new RecordingRest({ server: small.url });
    const watchRest = new RecordingRest({ server: proxy.url, maxRetries: 0 });
    await direct.request({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'inf-relist' } } });
    const w = widgetClient(direct, 'inf-relist');
    await w.create(newWidget('stay', 1));
    await w.create(newWidget('go', 1));
    const errors: unknown[] = [];
    const informer = new SharedIndexInformer(widgetClient(watchRest, 'inf-relist'), { backoff: FAST, onError: (e) => errors.push(e) });
    const { calls, handler } = recorder();
    informer.addEventHandler(handler);
    informer.start();
    await informer.waitForSync();
    calls.length = 0;
    await proxy.refuse();
    await until(() => errors.length > 0, 'a failed reconnection');
    await w.mergePatch('stay', { spec: { replicas: 2 } });
    await w.delete('go');
    await w.create(newWidget('came', 5));
    await small.server.storage.compact(await small.server.storage.currentRevision());
    await proxy.accept();
    await until(() => calls.length === 3, 'the relist');
    assert.ok(errors.some(isGone), 'the watch was answered 410');
    assert.deepEqual(calls, ['update inf-relist/stay 1->2', 'add inf-relist/came 5', 'delete inf-relist/go 1']);
    assert.deepEqual(informer.lister().list().map((x) => x.metadata.name).sort(), ['came', 'stay']);
    await informer.stop();
    watchRest.close();
    direct.close();
    await proxy.close();
    await small.close();
  });

  it('syncs a few thousand objects through paged lists', async () => {
    // Seeded straight into storage (the server's watch cache follows it): the subject is the sync.
    const N = 3000;
    const prefix = resourcePrefix('widgets.example.com', 'widgets');
    for (let i = 0; i < N; i++) {
      const name = `m${String(i).padStart(5, '0')}`;
      await ts.server.storage.create(objectKey(prefix, 'inf-many', name), {
        apiVersion: 'widgets.example.com/v1',
        kind: 'Widget',
        metadata: { name, namespace: 'inf-many', uid: randomUUID(), creationTimestamp: new Date().toISOString() },
        spec: { replicas: 1 },
      });
    }
    const listing = new RecordingRest({ server: ts.url });
    const informer = new SharedIndexInformer(widgetClient(listing, 'inf-many'), { backoff: FAST });
    let adds = 0;
    informer.addEventHandler({ onAdd: (_, initial) => initial && adds++ });
    informer.start();
    await informer.waitForSync();
    assert.equal(adds, N);
    assert.equal(informer.lister().list().length, N);
    assert.equal(informer.lister().get('m02999')?.metadata.name, 'm02999');
    const lists = listing.lists();
    assert.equal(lists.length, N / 500, `${N} objects in pages of 500`);
    assert.ok(lists.slice(1).every((l) => typeof l.query?.continue === 'string'), 'pages follow continue tokens');
    await informer.stop();
    listing.close();
  });
});

describe('Indexer', () => {
  it('keys by <namespace>/<name>, keeps indices current, and adds indexers over existing items', () => {
    const indexer = new Indexer<Widget>({ byReplicas: (w) => [String(w.spec.replicas)] });
    indexer.upsert({ metadata: { name: 'a', namespace: 'x' }, spec: { replicas: 1 } });
    indexer.upsert({ metadata: { name: 'b', namespace: 'y' }, spec: { replicas: 1 } });
    indexer.upsert({ metadata: { name: 'c' }, spec: { replicas: 2 } });
    assert.deepEqual(indexer.listKeys(), ['x/a', 'y/b', 'c']);
    assert.deepEqual(indexer.byIndex('byReplicas', '1').map((w) => w.metadata.name), ['a', 'b']);
    const old = indexer.upsert({ metadata: { name: 'a', namespace: 'x' }, spec: { replicas: 2 } });
    assert.equal(old?.spec.replicas, 1);
    assert.deepEqual(indexer.byIndex('byReplicas', '2').map((w) => w.metadata.name).sort(), ['a', 'c']);
    assert.deepEqual(indexer.byIndex('namespace', 'x').map((w) => w.metadata.name), ['a']);
    indexer.deleteKey('y/b');
    assert.deepEqual(indexer.indexValues('byReplicas'), ['2']);
    indexer.addIndexers({ byName: (w) => [w.metadata.name!] });
    assert.equal(indexer.byIndex('byName', 'c')[0]?.spec.replicas, 2);
    assert.throws(() => indexer.addIndexers({ byName: () => [] }), /already exists/);
    assert.throws(() => indexer.byIndex('nope', 'x'), /does not exist/);
    assert.equal(indexer.size, 2);
  });
});

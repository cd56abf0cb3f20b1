/**
 * The controllers' building blocks: the work queue's dedup/retry/shutdown semantics, its rate
 * limiters (client-go's, with kube's figures), and an informer that relists after a failed watch
 * and reports what changed meanwhile.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject, WatchEvent } from '../../runtime/api/meta.js';
import { ResourceInformer, metadataOnly } from '../../runtime/controllers/informer.js';
import { WorkQueue } from '../../runtime/controllers/queue.js';
import { BucketRateLimiter, controllerRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter, NAMESPACE_MAX_DELAY_MS } from '../../runtime/controllers/ratelimiter.js';
import { eventually, scriptedStore } from './helpers.js';

describe('WorkQueue', () => {
  it('queues a key once, re-runs a key added while it is processed, and never runs it concurrently', async () => {
    const q = new WorkQueue<string>();
    const runs: string[] = [];
    let active = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const loop = q.run(async (key) => {
      active++;
      assert.equal(active, 1);
      runs.push(key);
      if (runs.length === 1) await gate;
      active--;
    }, () => assert.fail('no errors expected'));
    q.add('a');
    q.add('a');
    await eventually(() => runs.length === 1, 'the first run');
    q.add('a'); // while processing: once more afterwards
    q.add('a');
    q.add('b');
    release();
    await eventually(() => runs.length === 3, 'the re-run');
    assert.deepEqual(runs, ['a', 'b', 'a']);
    q.shutDown();
    await loop;
  });

  it('retries a failing key for as long as it fails (never dropped), forgets it once it succeeds, and shutDown clears pending retries', async () => {
    // kube's GC and namespace controller: AddRateLimited on every error, Forget after a success.
    // The old queue gave up after 8 failures; 20 is well past that.
    const retries: unknown[] = [];
    const q = new WorkQueue<string>({ baseDelayMs: 1, maxDelayMs: 4, metrics: { retry: (key) => retries.push(key) } });
    let attempts = 0;
    let done = false;
    const loop = q.run(
      async () => {
        attempts++;
        if (attempts <= 20) throw new Error('boom');
        done = true;
      },
      (key) => q.addRateLimited(key),
    );
    q.add('x');
    await eventually(() => done, 'the key to be processed once its failures stop');
    assert.equal(attempts, 21, 'twenty failures, then the success');
    assert.equal(q.numRequeues('x'), 0, 'forgotten after the success');
    assert.deepEqual(retries, Array(20).fill('x'), 'metrics.retry: each rate-limited add');
    q.addAfter('y', 60_000); // would keep a timer alive if shutDown did not clear it
    q.shutDown();
    await loop;
    assert.equal(q.length, 0);
  });
});

describe('WorkQueue: client-go\'s delaying queue', () => {
  it('a key added after two delays waits once, for the earlier (waitingForQueue keeps the earliest ready time)', async () => {
    const q = new WorkQueue<string>();
    const runs: number[] = [];
    const started = Date.now();
    const loop = q.run(async () => void runs.push(Date.now() - started), () => assert.fail('no errors expected'));
    q.addAfter('k', 200);
    q.addAfter('k', 20);
    await new Promise((r) => setTimeout(r, 350));
    assert.equal(runs.length, 1, `one run, not one per delay: ${JSON.stringify(runs)}`);
    assert.ok(runs[0]! < 200, `at the earlier delay: ${runs[0]} ms`);
    q.shutDown();
    await loop;
  });
});

describe('the controllers\' rate limiters (client-go workqueue)', () => {
  it('DefaultControllerRateLimiter: 5 ms doubling per failure, capped at 1000 s, per key; forget starts over', () => {
    const now = 0;
    const limiter = controllerRateLimiter<string>({ now: () => now, burst: 1e9 });
    const delays = Array.from({ length: 20 }, () => limiter.when('a'));
    assert.deepEqual(delays.slice(0, 4), [5, 10, 20, 40]);
    assert.equal(delays[17], 5 * 2 ** 17); // 655 s
    assert.equal(delays[18], 1_000_000, 'capped at 1000 s');
    assert.equal(delays[19], 1_000_000);
    assert.equal(limiter.numRequeues('a'), 20);
    assert.equal(limiter.when('b'), 5, 'per key');
    limiter.forget('a');
    assert.equal(limiter.numRequeues('a'), 0);
    assert.equal(limiter.when('a'), 5);
  });

  it("the namespace controller's: capped at 60 s", () => {
    const limiter = controllerRateLimiter<string>({ maxDelayMs: NAMESPACE_MAX_DELAY_MS, burst: 1e9 });
    const delays = Array.from({ length: 16 }, () => limiter.when('ns'));
    assert.equal(delays[13], 5 * 2 ** 13); // 40.96 s
    assert.equal(delays[14], 60_000);
    assert.equal(delays[15], 60_000);
  });

  it('the overall bucket: 100 keys at once, then one per 100 ms (10 qps), refilled as time passes', () => {
    let now = 0;
    const bucket = new BucketRateLimiter<string>(10, 100, { now: () => now });
    for (let i = 0; i < 100; i++) assert.equal(bucket.when('k'), 0);
    assert.equal(bucket.when('k'), 100);
    assert.equal(bucket.when('k'), 200);
    now = 1_000; // ten tokens back: the debt of two is paid, eight remain
    for (let i = 0; i < 8; i++) assert.equal(bucket.when('k'), 0);
    assert.equal(bucket.when('k'), 100);
    // The controller's limiter is the longer of the two delays.
    now = 0;
    const limiter = new MaxOfRateLimiter<string>(new ItemExponentialFailureRateLimiter(5, 1_000_000), new BucketRateLimiter(10, 1, { now: () => now }));
    assert.deepEqual([limiter.when('a'), limiter.when('a'), limiter.when('a')], [5, 100, 200]);
  });
});

const obj = (name: string, rv: string, uid = `uid-${name}`): KubeObject => ({
  apiVersion: 'widgets.example.com/v1',
  kind: 'Widget',
  metadata: { name, namespace: 'default', uid, resourceVersion: rv },
});

describe('ResourceInformer', () => {
  it('relists after a failed watch and reports adds, updates and deletes it missed', async () => {
    const store = scriptedStore(
      [
        [obj('keep', '1'), obj('change', '2'), obj('vanish', '3'), obj('recreated', '4')],
        [obj('keep', '1'), obj('change', '12'), obj('new', '13'), obj('recreated', '14', 'uid-other')],
      ],
      [[{ type: 'MODIFIED', object: obj('keep', '1') }, { type: 'ERROR', object: { kind: 'Status', message: 'too old resource version' } as never }]],
    );
    const seen: string[] = [];
    const logs: string[] = [];
    const informer = new ResourceInformer(store, (l) => logs.push(l));
    informer.addHandlers({
      onAdd: (o) => seen.push(`add ${o.metadata.name}`),
      onUpdate: (_old, o) => seen.push(`update ${o.metadata.name}`),
      onDelete: (o) => seen.push(`delete ${o.metadata.name}`),
    });
    informer.start();
    await informer.synced;
    await eventually(() => seen.length >= 9, 'the relist to be reconciled');
    await informer.stop();
    assert.deepEqual(seen, [
      'add keep',
      'add change',
      'add vanish',
      'add recreated',
      'update change',
      'add new',
      'delete recreated',
      'add recreated',
      'delete vanish',
    ]);
    assert.deepEqual(
      informer.list().map((o) => o.metadata.name).sort(),
      ['change', 'keep', 'new', 'recreated'],
    );
    assert.deepEqual(logs, ['informer widgets.widgets.example.com: watch failed: too old resource version; retrying']);
  });

  it("a watch ended by 410 (its resourceVersion compacted) lists again without a warning, as client-go's reflector", async () => {
    const expired = { kind: 'Status', status: 'Failure', code: 410, reason: 'Expired', message: 'too old resource version: 1 (5)' };
    const store = scriptedStore([[obj('a', '1')], [obj('a', '1'), obj('b', '6')]], [[{ type: 'ERROR', object: expired as never }]]);
    const seen: string[] = [];
    const logs: string[] = [];
    const informer = new ResourceInformer(store, (l) => logs.push(l));
    informer.addHandlers({ onAdd: (o) => seen.push(`add ${o.metadata.name}`), onRelist: () => seen.push('relist') });
    informer.start();
    await informer.synced;
    await eventually(() => seen.includes('relist'), 'the relist after the 410');
    await informer.stop();
    assert.deepEqual(seen, ['add a', 'add b', 'relist']);
    assert.deepEqual(logs, []);
  });

  it('with metadataOnly keeps and hands out metadata only, sharing the references it reads', async () => {
    const full = (name: string, rv: string): KubeObject => ({
      ...obj(name, rv),
      metadata: {
        ...obj(name, rv).metadata,
        labels: { app: 'a' },
        finalizers: ['f'],
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'uid-o' }],
        managedFields: [{ manager: 'm' }],
        annotations: { big: 'x'.repeat(100) },
      },
      spec: { size: 1 },
    });
    const listed = full('a', '1');
    const deleted = { ...full('a', '2'), metadata: { ...full('a', '2').metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } };
    const store = scriptedStore([[listed]], [[{ type: 'DELETED', object: deleted }]]);
    const added: KubeObject[] = [];
    const gone: KubeObject[] = [];
    const informer = new ResourceInformer(store, () => undefined, metadataOnly);
    informer.addHandlers({ onAdd: (o) => added.push(o), onDelete: (o) => gone.push(o) });
    informer.start();
    await informer.synced;
    assert.deepEqual(informer.list(), [
      {
        apiVersion: 'widgets.example.com/v1',
        kind: 'Widget',
        metadata: { name: 'a', namespace: 'default', uid: 'uid-a', resourceVersion: '1', labels: { app: 'a' }, finalizers: ['f'], ownerReferences: listed.metadata.ownerReferences },
      },
    ]);
    assert.equal(informer.list()[0]!.metadata.ownerReferences, listed.metadata.ownerReferences, 'shared, not copied');
    await eventually(() => gone.length === 1, 'the delete');
    await informer.stop();
    assert.equal(added[0]!.spec, undefined, 'handlers get the metadata too');
    assert.equal(gone[0]!.spec, undefined);
    assert.equal(gone[0]!.metadata.deletionTimestamp, '2026-01-01T00:00:00Z');
    assert.equal(gone[0]!.metadata.managedFields, undefined);
    assert.deepEqual(informer.list(), []);
  });
});

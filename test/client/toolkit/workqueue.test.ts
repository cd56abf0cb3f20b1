/** The work queue and its rate limiters, on a fake clock: client-go's workqueue semantics. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BucketRateLimiter,
  FakeClock,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  WorkQueue,
  defaultControllerRateLimiter,
  settle,
} from '../../../packages/client/src/toolkit/index.js';

async function next<T>(q: WorkQueue<T>): Promise<T> {
  const r = await q.get();
  assert.equal(r.shutdown, false);
  return (r as { item: T }).item;
}

describe('WorkQueue', () => {
  it('deduplicates an item while it waits, in FIFO order', async () => {
    const q = new WorkQueue<string>({ clock: new FakeClock() });
    q.add('a');
    q.add('b');
    q.add('a');
    assert.equal(q.len(), 2);
    assert.equal(await next(q), 'a');
    assert.equal(await next(q), 'b');
    assert.equal(q.len(), 0);
  });

  it('never hands out an item being processed; one added meanwhile comes back after done()', async () => {
    const q = new WorkQueue<string>({ clock: new FakeClock() });
    q.add('a');
    assert.equal(await next(q), 'a');
    q.add('a');
    q.add('a');
    assert.equal(q.len(), 0, 'not queued while processing');
    let got: string | undefined;
    void q.get().then((r) => (got = r.shutdown ? undefined : r.item));
    await settle();
    assert.equal(got, undefined);
    q.done('a');
    await settle();
    assert.equal(got, 'a', 're-queued once on done');
    q.done('a');
    assert.equal(q.len(), 0);
  });

  it('addAfter adds later; the earliest pending delay wins', async () => {
    const clock = new FakeClock();
    const q = new WorkQueue<string>({ clock });
    q.addAfter('a', 1000);
    q.addAfter('a', 500);
    q.addAfter('a', 2000);
    await clock.step(499);
    assert.equal(q.len(), 0);
    await clock.step(1);
    assert.equal(q.len(), 1);
    await clock.step(5000);
    assert.equal(q.len(), 1, 'only once');
  });

  it('addRateLimited backs off per item exponentially; forget and numRequeues', async () => {
    const clock = new FakeClock();
    const q = new WorkQueue<string>({ clock, rateLimiter: new ItemExponentialFailureRateLimiter(100, 1000) });
    q.addRateLimited('a');
    q.addRateLimited('a');
    q.addRateLimited('a');
    assert.equal(q.numRequeues('a'), 3);
    await clock.step(99);
    assert.equal(q.len(), 0);
    await clock.step(1);
    assert.equal(q.len(), 1, 'the earliest delay (100 ms) wins');
    q.forget('a');
    assert.equal(q.numRequeues('a'), 0);
  });

  it('shutDown hands out what is queued, then reports shutdown; adds are ignored', async () => {
    const q = new WorkQueue<string>({ clock: new FakeClock() });
    q.add('a');
    q.shutDown();
    q.add('b');
    assert.equal(q.shuttingDown(), true);
    assert.equal(await next(q), 'a');
    assert.deepEqual(await q.get(), { shutdown: true });
  });

  it('shutDownWithDrain waits for items in processing', async () => {
    const q = new WorkQueue<string>({ clock: new FakeClock() });
    q.add('a');
    const item = await next(q);
    let drained = false;
    void q.shutDownWithDrain().then(() => (drained = true));
    await settle();
    assert.equal(drained, false);
    q.done(item);
    await settle();
    assert.equal(drained, true);
  });

  it('wakes a waiting getter and reports metrics', async () => {
    const clock = new FakeClock();
    const seen: string[] = [];
    const q = new WorkQueue<string>({
      clock,
      metrics: {
        add: (i) => seen.push(`add ${i}`),
        depth: (d) => seen.push(`depth ${d}`),
        get: (i, ms) => seen.push(`get ${i} ${ms}`),
        done: (i, ms) => seen.push(`done ${i} ${ms}`),
        retry: (i) => seen.push(`retry ${i}`),
      },
    });
    const waiting = q.get();
    q.add('a');
    assert.deepEqual(await waiting, { item: 'a', shutdown: false });
    await clock.step(30);
    q.done('a');
    q.addRateLimited('b');
    assert.equal(seen[0], 'add a');
    assert.ok(seen.includes('add a'));
    assert.ok(seen.includes('get a 0'));
    assert.ok(seen.includes('done a 30'));
    assert.ok(seen.includes('retry b'));
  });
});

describe('rate limiters', () => {
  it('ItemExponentialFailureRateLimiter doubles from base up to max', () => {
    const r = new ItemExponentialFailureRateLimiter<string>(5, 40);
    assert.deepEqual([r.when('a'), r.when('a'), r.when('a'), r.when('a'), r.when('a')], [5, 10, 20, 40, 40]);
    assert.equal(r.when('b'), 5, 'per item');
    assert.equal(r.numRequeues('a'), 5);
    r.forget('a');
    assert.equal(r.when('a'), 5);
  });

  it('BucketRateLimiter lets a burst through, then spaces items 1/qps apart', async () => {
    const clock = new FakeClock();
    const r = new BucketRateLimiter<string>(10, 2, clock);
    assert.deepEqual([r.when('a'), r.when('b'), r.when('c'), r.when('d')], [0, 0, 100, 200]);
    await clock.step(1000);
    assert.equal(r.when('e'), 0);
  });

  it('the default controller limiter is the max of both', () => {
    const m = new MaxOfRateLimiter<string>(new ItemExponentialFailureRateLimiter(5, 1000), new BucketRateLimiter(1, 1, new FakeClock()));
    assert.equal(m.when('a'), 5);
    assert.equal(m.when('a'), 1000);
    assert.equal(m.numRequeues('a'), 2);
    const d = defaultControllerRateLimiter<string>(new FakeClock());
    assert.equal(d.when('x'), 5);
    assert.equal(d.when('x'), 10);
  });
});

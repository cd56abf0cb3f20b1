import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StorageEvent } from '../../runtime/storage/interface.js';
import { WatchBroadcaster } from '../../runtime/storage/watch-broadcaster.js';

const event = (n: number): StorageEvent => ({
  type: 'ADDED',
  key: `/k/${n}`,
  object: { metadata: { name: String(n) } },
  resourceVersion: String(n),
});

describe('WatchBroadcaster', () => {
  it('delivers initial events, then every published item, in order, to each watcher', async () => {
    const b = new WatchBroadcaster<number>();
    const w1 = b.watch((n) => event(n), [event(0)]);
    const w2 = b.watch((n) => (n % 2 === 0 ? event(n) : undefined));
    for (let n = 1; n <= 1500; n++) b.publish(n);
    const got1: number[] = [];
    for await (const e of w1) {
      got1.push(Number(e.resourceVersion));
      if (got1.length === 1501) break;
    }
    assert.deepEqual(got1, Array.from({ length: 1501 }, (_, i) => i));
    const first = await w2.next();
    assert.equal(first.value?.resourceVersion, '2');
    w2.stop();
    assert.equal(b.size, 0);
  });

  it('a throwing convert fails only that watcher, after its buffered events', async () => {
    const b = new WatchBroadcaster<number>();
    const bad = b.watch((n) => {
      if (n === 2) throw new Error('predicate failed');
      return event(n);
    });
    const good = b.watch((n) => event(n));
    b.publish(1);
    b.publish(2);
    assert.equal((await bad.next()).value?.resourceVersion, '1');
    await assert.rejects(bad.next(), /predicate failed/);
    assert.equal((await bad.next()).done, true);
    assert.equal((await good.next()).value?.resourceVersion, '1');
    assert.equal((await good.next()).value?.resourceVersion, '2');
  });

  it('close() ends pending iterations; later watchers start stopped', async () => {
    const b = new WatchBroadcaster<number>();
    const w = b.watch((n) => event(n));
    const pending = w.next();
    b.close();
    assert.deepEqual(await pending, { value: undefined, done: true });
    const late = b.watch((n) => event(n));
    assert.equal((await late.next()).done, true);
  });
});

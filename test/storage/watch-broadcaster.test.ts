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

  it('with keyOf, offers an item only to the watchers whose prefix or exact key holds it', async () => {
    const b = new WatchBroadcaster<string>((key) => key);
    const offered = new Map<string, string[]>();
    const watch = (range: string | undefined, name = range ?? 'all') => {
      offered.set(name, []);
      return b.watch((key) => (offered.get(name)!.push(key), { ...event(0), key }), [], range);
    };
    const all = watch(undefined);
    watch('/r/a/');
    watch('/r/');
    const exact = watch('/r/a/x');
    watch('/r/a');
    const twin = watch('/r/a/', 'twin');
    watch('');
    for (const key of ['/r/a/x', '/r/a/y', '/r/b/x', '/r/a', '/s/a/x', '/r/a/', '']) b.publish(key);
    assert.deepEqual(Object.fromEntries(offered), {
      all: ['/r/a/x', '/r/a/y', '/r/b/x', '/r/a', '/s/a/x', '/r/a/', ''],
      '/r/a/': ['/r/a/x', '/r/a/y', '/r/a/'],
      '/r/': ['/r/a/x', '/r/a/y', '/r/b/x', '/r/a', '/r/a/'],
      '/r/a/x': ['/r/a/x'],
      '/r/a': ['/r/a'],
      twin: ['/r/a/x', '/r/a/y', '/r/a/'],
      '': [''],
    });
    assert.equal((await exact.next()).value?.key, '/r/a/x');
    assert.equal(b.size, 7);
    exact.stop();
    twin.stop();
    all.stop();
    assert.equal(b.size, 4);
    b.publish('/r/a/x');
    assert.deepEqual(offered.get('/r/a/x'), ['/r/a/x']);
    assert.equal(offered.get('/r/a/')!.length, 4);
    b.close();
    assert.equal(b.size, 0);
  });
});

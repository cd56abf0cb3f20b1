/**
 * WatchCache keeps keys created since the last ordered read aside and merges them in when a list
 * or count needs order (a splice per create cost a memmove of the whole key array). Seeded random
 * creates, updates and deletes, with lists, counts and lists at older revisions in between (some
 * after a few creates: spliced in; some after many: merged), always agree with a plain model;
 * with the cache keeping its keys whole or without its prefix (as Cacher's does), whose methods
 * still take and give whole keys.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import type { StorageEvent } from '../../runtime/storage/interface.js';
import { WatchCache } from '../../runtime/storage/cacher/watch-cache.js';

const PREFIX = '/registry/example.com/gadgets/ns/';
const RANGE = { start: PREFIX, end: '/registry/example.com/gadgets/ns0' };

function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

const object = (name: string, rv: number, gen: number): KubeObject =>
  ({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name, namespace: 'ns', resourceVersion: String(rv) }, spec: { gen } }) as KubeObject;

describe('WatchCache key order with deferred inserts', () => {
  for (const [seed, cachePrefix] of [[1, ''], [7, ''], [42, '/registry/example.com/gadgets/'], [1234, '/registry/example.com/gadgets/'], [5, PREFIX]] as const) {
    test(`seed ${seed}, prefix '${cachePrefix}': lists and counts match a model through creates, updates and deletes`, () => {
      const random = rng(seed);
      const cache = new WatchCache(50, cachePrefix);
      cache.replace([], 1);
      let rv = 1;
      const model = new Map<string, number>();
      /** The model's state at each revision, for lists at older revisions still in the ring. */
      const states = new Map<number, Map<string, number>>([[1, new Map()]]);
      for (let step = 0; step < 3000; step++) {
        const r = random();
        const names = [...model.keys()];
        let event: StorageEvent;
        rv++;
        if (r < 0.55 || names.length === 0) {
          const name = `g-${Math.floor(random() * 5000)}`;
          if (model.has(PREFIX + name)) {
            rv--;
            continue;
          }
          model.set(PREFIX + name, 0);
          event = { type: 'ADDED', key: PREFIX + name, object: object(name, rv, 0), resourceVersion: String(rv) };
        } else if (r < 0.8) {
          const key = names[Math.floor(random() * names.length)]!;
          const gen = model.get(key)! + 1;
          model.set(key, gen);
          event = { type: 'MODIFIED', key, object: object(key.slice(PREFIX.length), rv, gen), resourceVersion: String(rv) };
        } else {
          const key = names[Math.floor(random() * names.length)]!;
          model.delete(key);
          event = { type: 'DELETED', key, object: object(key.slice(PREFIX.length), rv, -1), resourceVersion: String(rv) };
        }
        cache.apply(event);
        states.set(rv, new Map(model));
        // Point reads (by binary search, or among the keys not merged in yet) agree with the model.
        for (const key of [event.key, PREFIX + `g-${Math.floor(random() * 5000)}`]) {
          const got = cache.get(key) as unknown as { spec: { gen: number } } | undefined;
          assert.equal(got?.spec.gen, model.get(key), key);
        }
        assert.equal(cache.size, model.size);
        // Reads now and then: after 1-8 creates the pending keys are spliced in, after more merged.
        if (random() < (step % 200 < 100 ? 0.3 : 0.01)) {
          const expected = [...model.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
          const page = cache.list(RANGE, cache.revision, PREFIX, 0);
          assert.deepEqual(
            page.entries.map((e) => [PREFIX + e.object().metadata.name, (e.object() as unknown as { spec: { gen: number } }).spec.gen]),
            expected,
          );
          assert.equal(cache.count(cache.revision, PREFIX, RANGE.end), model.size);
          const limited = cache.list(RANGE, cache.revision, PREFIX, 5);
          assert.deepEqual(limited.entries.map((e) => PREFIX + e.object().metadata.name), expected.slice(0, 5).map(([k]) => k));
          if (limited.more) {
            // lastKey is whole; the next page (continue) starts after it.
            assert.equal(limited.lastKey, expected[4]![0]);
            const next = cache.list(RANGE, cache.revision, `${limited.lastKey}\u0000`, 5);
            assert.deepEqual(next.entries.map((e) => PREFIX + e.object().metadata.name), expected.slice(5, 10).map(([k]) => k));
            assert.equal(cache.count(cache.revision, `${limited.lastKey}\u0000`, RANGE.end), model.size - 5);
          }
          // A list at an older revision still in the ring.
          const older = Math.max(cache.historyStart, rv - 10);
          const then = [...states.get(older)!.keys()].sort();
          assert.deepEqual(cache.list(RANGE, older, PREFIX, 0).entries.map((e) => PREFIX + e.object().metadata.name), then);
        }
      }
      const final = cache.list(RANGE, cache.revision, PREFIX, 0).entries.map((e) => PREFIX + e.object().metadata.name);
      assert.deepEqual(final, [...model.keys()].sort());
    });
  }
});

describe('WatchCache keys without its prefix', () => {
  const cachePrefix = '/registry/example.com/gadgets/';
  const event = (type: StorageEvent['type'], name: string, rv: number): StorageEvent => ({ type, key: PREFIX + name, object: object(name, rv, rv), resourceVersion: String(rv) });

  test('takes and gives whole keys; ranges reaching past the prefix on either side hold every key', () => {
    const cache = new WatchCache(10, cachePrefix);
    cache.replace([], 1);
    cache.apply(event('ADDED', 'b', 2));
    cache.apply(event('ADDED', 'a', 3));
    cache.apply(event('ADDED', 'c', 4));
    assert.equal(cache.entry(PREFIX + 'a')?.key, 'ns/a', 'kept without the prefix');
    assert.equal(cache.get(PREFIX + 'b')?.metadata.name, 'b');
    assert.equal(cache.get('/registry/example.com/other/ns/b'), undefined);
    assert.equal(cache.get('ns/b'), undefined, 'a local key is not a key');
    const names = (page: { entries: { object(): KubeObject }[] }) => page.entries.map((e) => e.object().metadata.name);
    const wide = { start: '/registry/', end: '/registry0' };
    assert.deepEqual(names(cache.list(wide, 4, '/registry/', 0)), ['a', 'b', 'c']);
    assert.equal(cache.count(4, '/registry/', '/registry0'), 3);
    assert.deepEqual(cache.snapshot(wide).map((e) => cache.keyOf(e)), [PREFIX + 'a', PREFIX + 'b', PREFIX + 'c']);
    const page = cache.list(wide, 4, '/', 2);
    assert.deepEqual(names(page), ['a', 'b']);
    assert.equal(page.lastKey, PREFIX + 'b');
    assert.equal(page.more, true);
    // A start past the prefix: nothing; an end below it: nothing.
    assert.deepEqual(names(cache.list(wide, 4, '/registry1', 0)), []);
    assert.deepEqual(names(cache.list({ start: '/a', end: '/registry/example.com/gadgets' }, 4, '/a', 0)), []);
    assert.equal(cache.count(4, '/registry1', '/registry2'), 0);
    // At an older revision (the ring's changes undone), with the same whole keys.
    cache.apply(event('DELETED', 'a', 5));
    cache.apply(event('MODIFIED', 'b', 6));
    assert.deepEqual(names(cache.list(wide, 3, '/registry/', 0)), ['a', 'b']);
    const older = cache.list(wide, 4, '/registry/', 2);
    assert.deepEqual(names(older), ['a', 'b']);
    assert.equal(older.lastKey, PREFIX + 'b');
    assert.equal(cache.count(4, '/registry/', '/registry0'), 3);
    assert.equal(cache.count(6, '/registry/', '/registry0'), 2);
    // The ring keeps whole keys: watchers compare them with their ranges.
    assert.deepEqual(cache.eventsSince(4).map((c) => c.key), [PREFIX + 'a', PREFIX + 'b']);
  });

  test('a change outside the prefix is refused', () => {
    const cache = new WatchCache(10, cachePrefix);
    cache.replace([], 1);
    assert.throws(() => cache.apply({ type: 'ADDED', key: '/registry/example.com/other/ns/x', object: object('x', 2, 0), resourceVersion: '2' }), /outside/);
  });
});

describe('WatchCache keys kept as namespace and name', () => {
  // Namespaces that start one another ('a', 'a-b', 'a.b': '-' and '.' sort before '/'), no
  // namespace, names with '/', '-', '.', and keys that are not their object's namespace and name
  // (kept as strings): lists, pages, counts, point reads and older revisions agree with a model.
  const cachePrefix = '/registry/example.com/gadgets/';
  const namespaces = ['a', 'a-b', 'a.b', 'ab', 'a0', 'b', ''];
  const chars = ['a', '-', '.', '0', 'z', '/', 'é'];
  const compare = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  const gadget = (namespace: string, name: string, rv: number, gen: number): KubeObject =>
    ({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: namespace ? { name, namespace, resourceVersion: String(rv) } : { name, resourceVersion: String(rv) }, spec: { gen } }) as KubeObject;

  for (const seed of [3, 17, 99]) {
    test(`seed ${seed}`, () => {
      const random = rng(seed);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
      const cache = new WatchCache(40, cachePrefix);
      cache.replace([], 1);
      let rv = 1;
      /** local key → [namespace, name, gen] */
      const model = new Map<string, [string, string, number]>();
      const states = new Map<number, Map<string, number>>([[1, new Map()]]);
      const genOf = (o: KubeObject | undefined) => (o as unknown as { spec: { gen: number } } | undefined)?.spec.gen;
      for (let step = 0; step < 2500; step++) {
        const r = random();
        rv++;
        let event: StorageEvent;
        const keys = [...model.keys()];
        if (r < 0.5 || keys.length === 0) {
          const namespace = pick(namespaces);
          const name = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(chars)).join('');
          // Mostly the object's own key; now and then another one (kept as a string).
          const local = random() < 0.1 ? `x${name}/${namespace}` : namespace ? `${namespace}/${name}` : name;
          const prev = model.get(local);
          const gen = prev ? prev[2] + 1 : 0;
          model.set(local, [namespace, name, gen]);
          event = { type: prev ? 'MODIFIED' : 'ADDED', key: cachePrefix + local, object: gadget(namespace, name, rv, gen), resourceVersion: String(rv) };
        } else if (r < 0.75) {
          const local = pick(keys);
          const [namespace, name, gen] = model.get(local)!;
          model.set(local, [namespace, name, gen + 1]);
          event = { type: 'MODIFIED', key: cachePrefix + local, object: gadget(namespace, name, rv, gen + 1), resourceVersion: String(rv) };
        } else {
          const local = pick(keys);
          const [namespace, name] = model.get(local)!;
          model.delete(local);
          event = { type: 'DELETED', key: cachePrefix + local, object: gadget(namespace, name, rv, -1), resourceVersion: String(rv) };
        }
        cache.apply(event);
        states.set(rv, new Map([...model].map(([k, v]) => [k, v[2]])));
        assert.equal(genOf(cache.get(event.key)), model.get(event.key.slice(cachePrefix.length))?.[2]);
        assert.equal(cache.size, model.size);
        if (random() < (step % 300 < 150 ? 0.25 : 0.02)) {
          const expected = [...model.keys()].sort(compare).map((k) => cachePrefix + k);
          const all = { start: cachePrefix, end: '/registry/example.com/gadgets0' };
          const page = cache.list(all, cache.revision, cachePrefix, 0);
          assert.deepEqual(page.entries.map((e) => cache.keyOf(e)), expected);
          assert.deepEqual(page.entries.map((e) => genOf(e.object())), expected.map((k) => model.get(k.slice(cachePrefix.length))![2]));
          // Pages of 7 with continue, within one namespace's range too.
          for (const range of [all, { start: `${cachePrefix}a/`, end: `${cachePrefix}a0` }, { start: `${cachePrefix}a-b/`, end: `${cachePrefix}a-b0` }]) {
            const want = expected.filter((k) => k >= range.start && k < range.end);
            const got: string[] = [];
            let start = range.start;
            for (;;) {
              const p = cache.list(range, cache.revision, start, 7);
              got.push(...p.entries.map((e) => cache.keyOf(e)));
              assert.equal(cache.count(cache.revision, start, range.end), want.length - got.length + p.entries.length);
              if (!p.more) break;
              assert.equal(p.lastKey, got[got.length - 1]);
              start = `${p.lastKey}\u0000`;
            }
            assert.deepEqual(got, want);
          }
          const older = Math.max(cache.historyStart, rv - 8);
          const then = [...states.get(older)!.keys()].sort(compare).map((k) => cachePrefix + k);
          assert.deepEqual(cache.list(all, older, cachePrefix, 0).entries.map((e) => cache.keyOf(e)), then);
          assert.deepEqual(cache.snapshot(all).map((e) => cache.keyOf(e)), expected);
        }
      }
    });
  }
});

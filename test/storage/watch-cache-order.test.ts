/**
 * WatchCache keeps keys created since the last ordered read aside and merges them in when a list
 * or count needs order (a splice per create cost a memmove of the whole key array). Seeded random
 * creates, updates and deletes, with lists, counts and lists at older revisions in between (some
 * after a few creates: spliced in; some after many: merged), always agree with a plain model.
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
  for (const seed of [1, 7, 42, 1234]) {
    test(`seed ${seed}: lists and counts match a model through creates, updates and deletes`, () => {
      const random = rng(seed);
      const cache = new WatchCache(50);
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

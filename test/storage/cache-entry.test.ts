/** Watch-cache entries: JSON bytes plus selector attributes, decoded on demand. */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { DECODED_CAPACITY, entryMatches, entryOf, forgetDecoded, type CacheEntry } from '../../runtime/storage/cacher/cache-entry.js';
import { adoptObject, encodedObject, isCachedObject } from '../../runtime/storage/cacher/cached-object.js';
import { Cacher } from '../../runtime/storage/cacher/index.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';
import { key, names, PREFIX, widget } from './conformance-fixtures.js';

function object(name: string, labels: Record<string, string> = { app: 'ü-app' }): KubeObject {
  return {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name, namespace: 'ns1', labels, resourceVersion: '7' },
    spec: { color: 'blau', note: 'grüß 😀', list: [{ x: 1 }], n: null },
  } as KubeObject;
}

/** Counts JSON.parse calls (decodes) while fn runs. */
function parses<T>(fn: () => T): { result: T; count: number } {
  const original = JSON.parse;
  let count = 0;
  JSON.parse = ((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
    count++;
    return original(text, reviver);
  }) as typeof JSON.parse;
  try {
    return { result: fn(), count };
  } finally {
    JSON.parse = original;
  }
}

describe('cache entries', () => {
  beforeEach(() => forgetDecoded());
  afterEach(() => forgetDecoded());

  it('decode on demand gives an equal, frozen, cached object whose bytes are the stored ones (UTF-8 included)', () => {
    const source = object('a');
    const json = JSON.stringify(source);
    const entry = entryOf(key('ns1', 'a'), adoptObject(structuredClone(source)), false);
    assert.equal(entry.decoded, undefined, 'only the bytes are kept');
    assert.equal(entry.bytes().toString('utf8'), json);
    const decoded = entry.object();
    assert.deepEqual(decoded, source);
    assert.ok(isCachedObject(decoded) && Object.isFrozen(decoded) && Object.isFrozen(decoded.metadata.labels));
    assert.equal(encodedObject(decoded)?.toString('utf8'), json, 'written from the stored bytes');
    assert.equal(entry.name, 'a');
    assert.equal(entry.namespace, 'ns1');
    assert.deepEqual(entry.labels, { app: 'ü-app' });
  });

  it('a hot object is decoded twice at most, then shared', () => {
    const entry = entryOf(key('ns1', 'a'), adoptObject(object('a')), false);
    const first = parses(() => [entry.object(), entry.object()]);
    assert.equal(first.count, 2, 'the first read is not remembered, the second is');
    const later = parses(() => Array.from({ length: 1000 }, () => entry.object()));
    assert.equal(later.count, 0, 'not decoded again');
    assert.ok(later.result.every((o) => o === first.result[1]));
  });

  it('an object applied from a change is kept decoded: readers share it', () => {
    const obj = adoptObject(object('a'));
    const entry = entryOf(key('ns1', 'a'), obj, true);
    assert.equal(parses(() => entry.object()).result, obj);
  });

  it('selectors on name, namespace and labels run on the stored attributes, without decoding', () => {
    const entry = entryOf(key('ns1', 'a'), adoptObject(object('a', { app: 'web', tier: 'db' })), false);
    const byLabel = (o: KubeObject) => o.metadata?.labels?.app === 'web';
    const byName = (o: KubeObject) => o.metadata?.name === 'a' && o.metadata?.namespace === 'ns1';
    const noLabel = (o: KubeObject) => o.metadata?.labels?.app === 'api';
    const run = parses(() => [entryMatches(entry, byLabel), entryMatches(entry, byName), entryMatches(entry, noLabel)]);
    assert.deepEqual(run.result, [true, true, false]);
    assert.equal(run.count, 0);
    assert.equal(entry.decoded, undefined);
  });

  it('entries with an equal label set (keys, values, order) share one frozen map; decoded objects read equal labels', () => {
    const a = entryOf(key('ns1', 'a'), adoptObject(object('a', { app: 'web', tier: 'db' })), false);
    const b = entryOf(key('ns1', 'b'), adoptObject(object('b', { app: 'web', tier: 'db' })), false);
    const reordered = entryOf(key('ns1', 'c'), adoptObject(object('c', { tier: 'db', app: 'web' })), false);
    const other = entryOf(key('ns1', 'd'), adoptObject(object('d', { app: 'web', tier: 'cache' })), false);
    assert.equal(a.labels, b.labels, 'one map for an equal set');
    assert.ok(Object.isFrozen(a.labels));
    assert.notEqual(reordered.labels, a.labels, 'another key order is another set');
    assert.deepEqual(Object.keys(reordered.labels!), ['tier', 'app']);
    assert.notEqual(other.labels, a.labels);
    assert.deepEqual(other.labels, { app: 'web', tier: 'cache' });
    for (const [entry, labels] of [[b, { app: 'web', tier: 'db' }], [reordered, { tier: 'db', app: 'web' }], [other, { app: 'web', tier: 'cache' }]] as const) {
      const decoded = entry.object();
      assert.deepEqual(decoded.metadata.labels, labels);
      assert.deepEqual(Object.keys(decoded.metadata.labels!), Object.keys(labels), 'in the stored order');
      assert.equal(entryMatches(entry, (o) => o.metadata?.labels?.tier === labels.tier), true);
      assert.equal(entryMatches(entry, (o) => o.metadata?.labels?.tier === 'none'), false);
    }
    const none = entryOf(key('ns1', 'e'), adoptObject({ ...object('e'), metadata: { name: 'e', namespace: 'ns1', resourceVersion: '7' } } as KubeObject), false);
    assert.equal(none.labels, undefined);
  });

  it('a predicate reading anything else gets the decoded object (and so do predicates that throw on the view)', () => {
    const entry = entryOf(key('ns1', 'a'), adoptObject(object('a')), false);
    const bySpec = (o: KubeObject) => (o.spec as { color?: string } | undefined)?.color === 'blau';
    const byOther = (o: KubeObject) => o.metadata?.resourceVersion === '7' && o.kind === 'Widget';
    const byKeys = (o: KubeObject) => Object.keys(o.metadata).includes('labels');
    const byMethod = (o: KubeObject) => Object.prototype.hasOwnProperty.call(o, 'spec') && o.hasOwnProperty('spec');
    const run = parses(() => [bySpec, byOther, byKeys, byMethod].map((p) => entryMatches(entry, p)));
    assert.deepEqual(run.result, [true, true, true, true]);
    assert.ok(run.count >= 1);
    assert.equal(entryMatches(entry, (o) => (o.spec as { color?: string }).color === 'rot'), false);
  });

  it('the cacher decodes only what a selected list returns, and lists equal the backend', async () => {
    const backend = new MemoryStorage();
    for (let i = 0; i < 200; i++) await backend.create(key('ns1', `w${String(i).padStart(3, '0')}`), widget(`w${String(i).padStart(3, '0')}`, { i }, { color: i % 50 === 0 ? 'red' : 'blue' }));
    const cacher = new Cacher(backend, { prefix: PREFIX });
    try {
      await cacher.getList(PREFIX);
      forgetDecoded();
      const isRed = (o: KubeObject) => o.metadata.labels?.color === 'red';
      const original = JSON.parse;
      let count = 0;
      JSON.parse = ((text: string) => (count++, original(text))) as typeof JSON.parse;
      let red;
      let beforeRead: number;
      try {
        red = await cacher.getList(PREFIX, { resourceVersion: '0', predicate: isRed });
        beforeRead = count;
        assert.deepEqual(names(red.items), ['w000', 'w050', 'w100', 'w150']);
      } finally {
        JSON.parse = original;
      }
      assert.equal(beforeRead, 0, 'nothing is decoded until the items are read');
      assert.equal(count, 4, 'only the matching objects were decoded');
      const all = await cacher.getList(PREFIX);
      assert.deepEqual(all.items, (await backend.getList(PREFIX)).items);
      assert.equal(encodedObject(all.items[7])?.toString('utf8'), JSON.stringify(all.items[7]));
      const paged = await cacher.getList(PREFIX, { resourceVersion: '0', predicate: isRed, limit: 2 });
      assert.deepEqual(names(paged.items), ['w000', 'w050']);
      assert.ok(paged.continue);
    } finally {
      await cacher.close();
      await backend.close();
    }
  });

  it('a change keeps the previous state as an entry: prevObject and past revisions decode it', async () => {
    const backend = new MemoryStorage();
    const cacher = new Cacher(backend, { prefix: PREFIX });
    try {
      const created = await cacher.create(key('ns1', 'a'), widget('a', { v: 1 }, { color: 'red' }));
      await cacher.getList(PREFIX);
      forgetDecoded();
      const watch = cacher.watch(PREFIX, { resourceVersion: created.metadata.resourceVersion, predicate: (o) => o.metadata.labels?.color === 'red' });
      const it = watch[Symbol.asyncIterator]();
      const pending = it.next();
      await cacher.guaranteedUpdate(key('ns1', 'a'), {}, (cur) => ({ ...structuredClone(cur!), metadata: { ...structuredClone(cur!.metadata), labels: { color: 'blue' } } }));
      const event = (await pending).value;
      watch.stop();
      assert.equal(event.type, 'DELETED', 'stopped matching: decided on the previous state');
      assert.deepEqual(event.prevObject?.metadata.labels, { color: 'red' });
      const past = await cacher.getList(PREFIX, { resourceVersion: created.metadata.resourceVersion, resourceVersionMatch: 'Exact' });
      assert.deepEqual(past.items[0]?.metadata.labels, { color: 'red' });
      assert.equal(encodedObject(past.items[0])?.toString('utf8'), JSON.stringify(past.items[0]));
    } finally {
      await cacher.close();
      await backend.close();
    }
  });

  it('the decoded set is a CLOCK of DECODED_CAPACITY: which reads decode, and which entries stay decoded, follow the model', () => {
    // The model: per entry HOT (read while in the set) and SEEN (decoded once); a hand over the
    // slots passes (and clears) HOT entries, at most once round, and evicts the first other one;
    // an evicted entry keeps its flags.
    interface Model { decoded: boolean; hot: boolean; seen: boolean }
    const slots: Array<Model | undefined> = new Array(DECODED_CAPACITY);
    let hand = 0;
    const remember = (m: Model) => {
      for (let passed = 0; ; passed++) {
        const victim = slots[hand];
        if (victim === undefined) break;
        if (victim.hot && passed < DECODED_CAPACITY) {
          victim.hot = false;
          hand = (hand + 1) % DECODED_CAPACITY;
          continue;
        }
        victim.decoded = false;
        break;
      }
      m.decoded = true;
      slots[hand] = m;
      hand = (hand + 1) % DECODED_CAPACITY;
    };
    const entries: Array<{ entry: CacheEntry; model: Model; name: string }> = [];
    const add = (keep: boolean) => {
      const name = `w-${entries.length}`;
      const source = object(name, entries.length % 2 ? { app: 'ü' } : { app: 'plain' });
      const model: Model = { decoded: false, hot: false, seen: false };
      const entry = entryOf(key('ns1', name), adoptObject(source), keep);
      if (keep) remember(model);
      entries.push({ entry, model, name });
    };
    for (let i = 0; i < 3000; i++) add(false);
    let seed = 11;
    const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    for (let step = 0; step < 40_000; step++) {
      if (random() < 0.03) {
        add(true);
        continue;
      }
      // Skewed: a few hundred hot entries, a long tail.
      const i = random() < 0.7 ? Math.floor(random() * 600) : Math.floor(random() * entries.length);
      const { entry, model, name } = entries[i]!;
      const { result, count } = parses(() => entry.object());
      assert.equal(result.metadata.name, name);
      assert.equal(result.metadata.labels?.app, i % 2 ? 'ü' : 'plain', 'UTF-8 decoded right, also after leaving the set');
      if (model.decoded) {
        model.hot = true;
        assert.equal(count, 0, `step ${step}: entry ${i} is in the set`);
      } else {
        assert.equal(count, 1, `step ${step}: entry ${i} is decoded`);
        if (model.seen) remember(model);
        else model.seen = true;
      }
      if (step % 5000 === 0) {
        for (const { entry: e, model: m } of entries) assert.equal(e.decoded !== undefined, m.decoded);
      }
    }
    for (const { entry: e, model: m } of entries) assert.equal(e.decoded !== undefined, m.decoded);
    forgetDecoded();
    assert.ok(entries.every(({ entry: e }) => e.decoded === undefined));
    // Out of the set, each keeps its flags: an entry seen before is remembered at its next decode.
    const seen = entries.find(({ model }) => model.seen)!;
    assert.equal(parses(() => [seen.entry.object(), seen.entry.object()]).count, 1);
  });
});

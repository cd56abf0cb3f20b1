/** List pages from the watch cache whose items are decoded only when read (runtime/storage/cacher/lazy-items.ts). */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { CacheEntry, entryOf, forgetDecoded } from '../../runtime/storage/cacher/cache-entry.js';
import { adoptObject, isCachedObject } from '../../runtime/storage/cacher/cached-object.js';
import { moveItems, setLazyItems, undecodedEntries } from '../../runtime/storage/cacher/lazy-items.js';
import { Cacher } from '../../runtime/storage/cacher/index.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';
import { decodes, decodesAsync } from '../support/cache-decodes.js';
import { key, PREFIX, widget } from './conformance-fixtures.js';

function entries(n: number): CacheEntry[] {
  return Array.from({ length: n }, (_, i) => {
    const obj = adoptObject({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: `w${i}`, namespace: 'ns1', labels: { note: 'grüß' } }, spec: { i } } as KubeObject);
    return entryOf(`${PREFIX}ns1/w${i}`, obj, false);
  });
}


describe('lazy list items', () => {
  beforeEach(() => forgetDecoded());
  afterEach(() => forgetDecoded());

  it('decodes on the first read of items, once, into the cache objects; until then the entries are at hand', () => {
    const list: { kind: string; items?: KubeObject[] } = { kind: 'WidgetList' };
    const page = entries(3);
    const made = decodes(() => setLazyItems(list, page));
    assert.equal(made.count, 0);
    assert.equal(undecodedEntries(list), page);
    const read = decodes(() => list.items!);
    assert.equal(read.count, 3);
    assert.deepEqual(read.result.map((o) => o.metadata.name), ['w0', 'w1', 'w2']);
    assert.ok(read.result.every(isCachedObject), 'the frozen, shared cache objects');
    assert.equal(list.items, read.result, 'the same array on every read');
    assert.equal(undecodedEntries(list), undefined, 'once read, writers take the decoded items');
  });

  it('is invisible to readers: spread, JSON.stringify, Object.keys and assignment see items as a plain property would', () => {
    const list = { apiVersion: 'v1', kind: 'WidgetList', metadata: { resourceVersion: '9' } } as { items?: KubeObject[] };
    setLazyItems(list, entries(2));
    const plain = { apiVersion: 'v1', kind: 'WidgetList', metadata: { resourceVersion: '9' }, items: entries(2).map((e) => e.object()) };
    assert.deepEqual(Object.keys(list), Object.keys(plain));
    assert.equal(JSON.stringify(list), JSON.stringify(plain));
    const other = { kind: 'WidgetList' } as { items?: KubeObject[] };
    setLazyItems(other, entries(2));
    const copy = { ...other };
    assert.equal(Object.getOwnPropertyDescriptor(copy, 'items')?.value?.length, 2, 'a spread copy holds the decoded items');
    const replaced = { kind: 'WidgetList' } as { items?: KubeObject[] };
    setLazyItems(replaced, entries(2));
    replaced.items = [];
    assert.deepEqual(replaced.items, []);
    assert.equal(undecodedEntries(replaced), undefined, 'replaced items are not the entries any more');
    assert.equal(undecodedEntries({ items: [] }), undefined);
    // A wrapper's copy with its own items (a conversion, encryption) never carries the entries.
    const lazy = { kind: 'WidgetList' } as { items?: KubeObject[] };
    setLazyItems(lazy, entries(2));
    const converted = { ...lazy, items: [] as KubeObject[] };
    assert.equal(undecodedEntries(converted), undefined);
    assert.deepEqual(Object.getOwnPropertySymbols(converted), []);
    const again = { kind: 'WidgetList' } as { items?: KubeObject[] };
    setLazyItems(again, entries(1));
    assert.equal(again.items!.length, 1);
    const page = entries(3);
    setLazyItems(again, page);
    assert.equal(undecodedEntries(again), page, 'made lazy again');
    assert.equal(again.items!.length, 3, 'and decodes the new entries');
  });

  it('moveItems keeps them lazy, or copies decoded ones', () => {
    const source = { resourceVersion: '1' } as unknown as { items: KubeObject[] };
    const page = entries(2);
    setLazyItems(source, page);
    const target: { kind: string; items?: KubeObject[] } = { kind: 'WidgetList' };
    assert.equal(decodes(() => moveItems(target, source)).count, 0);
    assert.equal(undecodedEntries(target), page);
    assert.deepEqual(Object.keys(target), ['kind', 'items']);
    const decoded = { items: [page[0]!.object()] };
    const plain: { items?: KubeObject[] } = {};
    moveItems(plain, decoded);
    assert.equal(plain.items, decoded.items);
  });

  it('the cacher answers a page without decoding, with the same items, continue and remaining count as before', async () => {
    const backend = new MemoryStorage();
    for (let i = 0; i < 12; i++) await backend.create(key('ns1', `w${String(i).padStart(2, '0')}`), widget(`w${String(i).padStart(2, '0')}`, { i }, { color: i % 3 === 0 ? 'red' : 'blue' }));
    const cacher = new Cacher(backend, { prefix: PREFIX });
    try {
      await cacher.getList(PREFIX);
      const first = (await decodesAsync(() => cacher.getList(PREFIX, { resourceVersion: '0', limit: 5 }))).result;
      const counted = decodes(() => undecodedEntries(first));
      assert.equal(counted.count, 0);
      assert.equal(counted.result?.length, 5);
      const fromBackend = await backend.getList(PREFIX, { limit: 5 });
      assert.deepEqual(first.items, fromBackend.items);
      assert.equal(first.remainingItemCount, 7);
      assert.ok(first.continue);
      const second = await cacher.getList(PREFIX, { continue: first.continue, limit: 5 });
      assert.deepEqual(second.items.map((o) => o.metadata.name), ['w05', 'w06', 'w07', 'w08', 'w09']);
      assert.equal(second.remainingItemCount, 2);
      const last = await cacher.getList(PREFIX, { continue: second.continue, limit: 5 });
      assert.deepEqual(last.items.map((o) => o.metadata.name), ['w10', 'w11']);
      assert.equal(last.continue, undefined);
      assert.equal(last.remainingItemCount, undefined);
      const red = await cacher.getList(PREFIX, { resourceVersion: '0', limit: 2, predicate: (o) => o.metadata.labels?.color === 'red' });
      assert.deepEqual(red.items.map((o) => o.metadata.name), ['w00', 'w03']);
      assert.equal(red.remainingItemCount, undefined, 'no count with a selector, as before');
    } finally {
      await cacher.close();
      await backend.close();
    }
  });
});

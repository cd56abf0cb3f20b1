/** Responses written from the watch cache's encodings: byte-identical to JSON.stringify, and only for cached objects. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { encodedJSON, releaseBuffer } from '../../runtime/endpoints/encoding.js';
import { objectResponse } from '../../runtime/endpoints/responsewriters.js';
import { adoptObject } from '../../runtime/storage/cacher/cached-object.js';
import { CacheEntry, entryOf } from '../../runtime/storage/cacher/cache-entry.js';
import { setLazyItems, undecodedEntries } from '../../runtime/storage/cacher/lazy-items.js';

function cached(name: string, size = 10): KubeObject {
  return adoptObject({ apiVersion: 'v1', kind: 'Thing', metadata: { name, labels: { 'é': 'ü' } }, spec: { data: 'x'.repeat(size), n: [1, null] } } as KubeObject);
}

describe('response encoding from the watch cache', () => {
  it('a cached object is its encoding; a list of cached objects is its envelope around them', () => {
    const items = [cached('a'), cached('b'), cached('c')];
    assert.equal(encodedJSON(items[0])?.toString(), JSON.stringify(items[0]));
    for (const list of [
      { apiVersion: 'v1', kind: 'ThingList', metadata: { resourceVersion: '7', continue: 'tok' }, items },
      { kind: 'ThingList', items, after: 'ü', skipped: undefined },
      { items: [items[1]] },
    ]) {
      assert.equal(encodedJSON(list)?.toString(), JSON.stringify(list));
    }
  });

  it('a list whose items are undecoded cache entries is written from their bytes, without decoding, exactly as JSON.stringify', () => {
    const page = ['a', 'b', 'c'].map((name) => entryOf(`/registry/things/${name}`, cached(name, 200), false));
    const decode = CacheEntry.prototype.object;
    let decoded = 0;
    CacheEntry.prototype.object = function (this: CacheEntry) {
      decoded++;
      return decode.call(this);
    };
    let bytes: Buffer | undefined;
    const list = { apiVersion: 'v1', kind: 'ThingList', metadata: { resourceVersion: '7', continue: 'tok', remainingItemCount: 4 } } as { items?: KubeObject[] };
    try {
      setLazyItems(list, page);
      bytes = encodedJSON(list);
      assert.equal(decoded, 0, 'no entry was decoded');
      assert.equal(undecodedEntries(list), page);
    } finally {
      CacheEntry.prototype.object = decode;
    }
    assert.equal(bytes?.toString('utf8'), JSON.stringify(list), 'the same bytes the decoded list gives (UTF-8 included)');
    const mixed = { kind: 'ThingList', metadata: { resourceVersion: '8' } } as { items?: KubeObject[] };
    const hot = entryOf('/registry/things/h', cached('h', 300), true);
    setLazyItems(mixed, [page[0]!, hot, page[2]!]);
    assert.equal(encodedJSON(mixed)?.toString('utf8'), JSON.stringify(mixed), 'decoded (kept) and undecoded entries together');
    const one = { kind: 'ThingList', after: 'ü' } as { items?: KubeObject[] };
    setLazyItems(one, [page[1]!]);
    assert.equal(encodedJSON(one)?.toString(), JSON.stringify(one));
    const empty = { kind: 'ThingList' } as { items?: KubeObject[] };
    setLazyItems(empty, []);
    assert.equal(encodedJSON(empty), undefined, 'an empty list is serialized normally');
    const response = objectResponse(200, empty);
    assert.equal(response.payload, '{"kind":"ThingList","items":[]}');
  });

  it('anything else is serialized normally', () => {
    const a = cached('a');
    assert.equal(encodedJSON({ ...a }), undefined, 'a copy');
    assert.equal(encodedJSON({ kind: 'ThingList', items: [a, { ...a }] }), undefined, 'one item not cached');
    assert.equal(encodedJSON({ kind: 'ThingList', items: [] }), undefined);
    assert.equal(encodedJSON({ kind: 'Table', rows: [{ object: a }] }), undefined);
    const response = objectResponse(200, { ...a });
    assert.equal(response.body, undefined);
    assert.equal(response.payload, JSON.stringify(a));
  });

  it('objectResponse writes the cached bytes for JSON and serializes YAML', () => {
    const a = cached('a');
    const json = objectResponse(200, a, 'json', ['careful']);
    assert.equal(json.body?.toString(), JSON.stringify(a));
    assert.equal(json.payload, JSON.stringify(a), 'payload decodes the bytes on demand');
    assert.equal(json.contentType, 'application/json');
    assert.deepEqual(json.headers, { Warning: ['299 - "careful"'] });
    const yaml = objectResponse(200, a, 'yaml');
    assert.equal(yaml.body, undefined);
    assert.match(yaml.payload, /^apiVersion: v1/);
  });

  it('large list bodies reuse released buffers and stay correct', () => {
    const items = Array.from({ length: 100 }, (_, i) => cached(`n${i}`, 1000));
    const list = { kind: 'ThingList', metadata: { resourceVersion: '1' }, items };
    const first = encodedJSON(list)!;
    const expected = JSON.stringify(list);
    assert.equal(first.toString(), expected);
    releaseBuffer(first);
    releaseBuffer(first);
    const second = encodedJSON({ ...list, metadata: { resourceVersion: '2' } })!;
    assert.equal(second.buffer, first.buffer, 'the released buffer is reused');
    assert.equal(second.toString(), expected.replace('"resourceVersion":"1"', '"resourceVersion":"2"'));
    const third = encodedJSON(list)!;
    assert.notEqual(third.buffer, second.buffer, 'a buffer still lent out is never handed out again');
    assert.equal(third.toString(), expected);
  });
});

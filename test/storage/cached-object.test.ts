/** The watch cache's objects: frozen and shared, each encoded once; reads hand them out uncopied. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { adoptEncoded, adoptObject, deepFreeze, encodedLatin1, encodedObject, isCachedObject, latin1OfUtf8 } from '../../runtime/storage/cacher/cached-object.js';
import { Cacher } from '../../runtime/storage/cacher/index.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';
import { key, PREFIX, widget } from './conformance-fixtures.js';

function object(name: string): KubeObject {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, labels: { a: 'ü' } }, spec: { list: [{ x: 1 }], n: null } } as KubeObject;
}

describe('cached objects', () => {
  it('adoptObject freezes deeply and encodes exactly as JSON.stringify, once', () => {
    const obj = adoptObject(object('a'));
    assert.ok(Object.isFrozen(obj) && Object.isFrozen(obj.metadata.labels) && Object.isFrozen((obj.spec as { list: object[] }).list[0]));
    assert.throws(() => ((obj.metadata as { name: string }).name = 'b'), TypeError);
    const bytes = encodedObject(obj);
    assert.equal(bytes?.toString('utf8'), JSON.stringify(obj));
    assert.equal(encodedObject(obj), bytes, 'computed once');
    assert.ok(isCachedObject(obj));
  });

  it('encodedLatin1 tells ASCII from non-ASCII whether the encoding is known as a string, as bytes or not yet', () => {
    for (const [label, ascii] of [['plain', true], ['ü', false], ['😀', false], ['\u007f', true], ['\u0080', false]] as const) {
      const obj = { apiVersion: 'v1', kind: 'Widget', metadata: { name: 'a', labels: { l: label } } } as KubeObject;
      const json = JSON.stringify(obj);
      const fresh = adoptObject(structuredClone(obj));
      assert.deepEqual(encodedLatin1(fresh), latin1OfUtf8(json), `${label}: stringified`);
      assert.deepEqual(encodedLatin1(fresh), { encoded: latin1OfUtf8(json).encoded, ascii }, `${label}: known as a string`);
      const viaBytes = adoptObject(structuredClone(obj));
      encodedObject(viaBytes);
      assert.deepEqual(encodedLatin1(viaBytes), { encoded: latin1OfUtf8(json).encoded, ascii }, `${label}: known as bytes`);
      const decoded = adoptEncoded(JSON.parse(json) as KubeObject, latin1OfUtf8(json).encoded);
      assert.equal(encodedLatin1(decoded).ascii, ascii, `${label}: decoded from an entry`);
    }
  });

  it('has no encoding for other objects: plain, frozen but not adopted, or copies of cached ones', () => {
    const cached = adoptObject(object('a'));
    assert.equal(encodedObject(object('a')), undefined);
    assert.equal(encodedObject(deepFreeze(object('b'))), undefined);
    assert.equal(encodedObject({ ...cached }), undefined);
    assert.equal(encodedObject(structuredClone(cached)), undefined);
    assert.equal(encodedObject(undefined), undefined);
    assert.equal(Object.isFrozen(structuredClone(cached)), false, 'a deep copy can be modified');
  });

  it('the cacher hands out its frozen objects without copying (get, list, watch)', async () => {
    const backend = new MemoryStorage();
    const cacher = new Cacher(backend, { prefix: PREFIX });
    try {
      await cacher.create(key('ns1', 'a'), widget('a', { v: 1 }));
      const listed = await cacher.getList(PREFIX);
      const item = listed.items[0]!;
      assert.ok(isCachedObject(item) && Object.isFrozen(item));
      assert.equal(await cacher.get(key('ns1', 'a'), { resourceVersion: '0' }), item, 'the same object');
      assert.equal((await cacher.getList(PREFIX, { resourceVersion: '0' })).items[0], item);
      const watch = cacher.watch(PREFIX, { resourceVersion: '0' });
      const first = watch[Symbol.asyncIterator]();
      const pending = first.next();
      await cacher.guaranteedUpdate(key('ns1', 'a'), {}, (cur) => ({ ...structuredClone(cur!), spec: { v: 2 } }));
      const event = (await pending).value;
      watch.stop();
      assert.ok(isCachedObject(event.object), 'events carry the cached object');
      assert.deepEqual(event.object.spec, { v: 2 });
      assert.equal((await cacher.getList(PREFIX)).items[0], event.object);
    } finally {
      await cacher.close();
      await backend.close();
    }
  });

  it('a predicate-derived DELETED (the object stopped matching) is frozen but not a cached object', async () => {
    const backend = new MemoryStorage();
    const cacher = new Cacher(backend, { prefix: PREFIX });
    try {
      await cacher.create(key('ns1', 'a'), widget('a', { v: 1 }));
      await cacher.getList(PREFIX);
      const watch = cacher.watch(PREFIX, { resourceVersion: '0', predicate: (o) => (o.spec as { v: number }).v === 1 });
      const it = watch[Symbol.asyncIterator]();
      const pending = it.next();
      await cacher.guaranteedUpdate(key('ns1', 'a'), {}, (cur) => ({ ...structuredClone(cur!), spec: { v: 2 } }));
      const event = (await pending).value;
      watch.stop();
      assert.equal(event.type, 'DELETED');
      assert.ok(Object.isFrozen(event.object));
      assert.equal(encodedObject(event.object), undefined);
    } finally {
      await cacher.close();
      await backend.close();
    }
  });
});

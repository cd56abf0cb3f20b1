/** A decoded object's JSON derived from the stored value it came from (runtime/storage/stored-json.ts). */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { entryOf, forgetDecoded } from '../../runtime/storage/cacher/cache-entry.js';
import { adoptObject, encodedLatin1, encodedObject, noteStoredValue } from '../../runtime/storage/cacher/cached-object.js';
import { Cacher } from '../../runtime/storage/cacher/index.js';
import type { Storage } from '../../runtime/storage/interface.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';
import { decodeObject, encodeObject, encodeStored, type StoredValue } from '../../runtime/storage/objects.js';
import { SqliteStorage } from '../../runtime/storage/sqlite.js';
import { withResourceVersionJSON, WrittenValues } from '../../runtime/storage/stored-json.js';
import { EtcdStorage } from '../../runtime/storage/etcd.js';
import { encryptingStorage, parseEncryptionConfig } from '../../runtime/storage/encryption/index.js';
import { EtcdCluster } from '../support/etcd.js';
import { key, PREFIX, widget } from './conformance-fixtures.js';

let etcdStarted: Promise<EtcdCluster> | undefined;

/** A small deterministic generator of awkward JSON values. */
function generator(seed: number) {
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const strings = ['', 'a', 'ü', '😀', 'a"b', 'back\\slash', '\\"', 'x\\', '{', '}', '[', ']', ',', ':', 'metadata', '"metadata":{', 'line\nbreak', '\u0000', '\u007f\u0080', '\ud800', '1', '10', '-0'];
  const value = (depth: number): unknown => {
    switch (depth > 3 ? rand(4) : rand(7)) {
      case 0:
        return strings[rand(strings.length)];
      case 1:
        return [0, -0, 1.5, 1e21, -3e-7, 2 ** 53, 123456789][rand(7)];
      case 2:
        return [true, false, null][rand(3)];
      case 3:
        return rand(2) ? undefined : strings[rand(strings.length)];
      case 4:
      case 5: {
        const obj: Record<string, unknown> = {};
        for (let i = rand(5); i > 0; i--) obj[strings[rand(strings.length)]!] = value(depth + 1);
        return obj;
      }
      default:
        return Array.from({ length: rand(4) }, () => value(depth + 1));
    }
  };
  const object = (): KubeObject => {
    const top: Record<string, unknown> = {};
    const metaAt = rand(4);
    const keys = ['apiVersion', 'kind', 'spec', 'status', '0', 'metadata2', 'x"y'];
    for (let i = 0; i < 5; i++) {
      if (i === metaAt) top.metadata = value(3) && { ...(value(1) as object), name: strings[rand(strings.length)], resourceVersion: rand(2) ? '12' : undefined };
      else top[keys[rand(keys.length)]!] = value(1);
    }
    if (metaAt === 3 && rand(3) === 0) top.metadata = {};
    return top as KubeObject;
  };
  return { object };
}

describe('stored JSON', () => {
  it('encodeStored writes what JSON.stringify of the object without resourceVersion writes, and its splice is the decoded object\'s JSON', () => {
    const { object } = generator(11);
    let derived = 0;
    for (let i = 0; i < 3000; i++) {
      const obj = object();
      const meta = obj.metadata as Record<string, unknown> | undefined;
      let stored: StoredValue;
      try {
        stored = encodeStored('k', obj);
      } catch (err) {
        assert.ok(typeof meta !== 'object' || meta === null || Array.isArray(meta), `only a missing metadata fails: ${String(err)}`);
        continue;
      }
      const { resourceVersion: _rv, ...rest } = meta!;
      assert.equal(stored.value, JSON.stringify({ ...obj, metadata: rest }));
      assert.equal(encodeObject('k', obj), stored.value);
      assert.ok(stored.metadataEnd >= 0);
      const revision = 1 + i * 977;
      assert.equal(withResourceVersionJSON(stored.value, stored.metadataEnd, revision), JSON.stringify(decodeObject(stored.value, revision)), stored.value);
      derived++;
    }
    assert.ok(derived > 2000, `derived ${derived}`);
  });

  it('derives the decoded object\'s JSON for values parsed from JSON with awkward keys (__proto__, constructor, integer-like, surrogates) and numbers', () => {
    let seed = 3;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
    const keys = ['__proto__', 'constructor', 'toString', 'toJSON', 'valueOf', '0', '1', '01', '-1', '4294967294', '4294967295', '9007199254740993', 'resourceVersion', 'metadata', 'a', '\u2028', '\ud83d', 'é', ''];
    const leaf = () => [null, true, 0, -0, 1e21, 5e-324, 1.7976931348623157e308, 'x', '\ud800', '\u2028', '</script>', 'é'][rand(12)];
    const member = (d: number) => `${JSON.stringify(keys[rand(keys.length)])}:${JSON.stringify(value(d))}`;
    // Objects come from JSON.parse, as a request body's do: `__proto__` is then an own key.
    const value = (d: number): unknown => {
      const k = d > 3 ? 0 : rand(4);
      if (k < 2) return leaf();
      if (k === 2) return Array.from({ length: rand(3) }, () => value(d + 1));
      return JSON.parse(`{${Array.from({ length: rand(5) }, () => member(d + 1)).join(',')}}`);
    };
    let derived = 0;
    for (let i = 0; i < 5000; i++) {
      const metaAt = rand(4);
      const parts = Array.from({ length: 4 }, (_, j) => {
        if (j !== metaAt) return member(1);
        const m = value(0);
        return `"metadata":${JSON.stringify(typeof m === 'object' && m !== null ? m : { [keys[rand(keys.length)]!]: m })}`;
      });
      const obj = JSON.parse(`{${parts.join(',')}}`) as KubeObject;
      let stored: StoredValue;
      try {
        stored = encodeStored('k', obj);
      } catch {
        assert.throws(() => encodeObject('k', obj), /has no metadata/);
        continue;
      }
      assert.equal(stored.value, encodeObject('k', obj));
      if (stored.metadataEnd < 0) continue;
      derived++;
      const revision = 1 + rand(1e9);
      assert.equal(withResourceVersionJSON(stored.value, stored.metadataEnd, revision), JSON.stringify(decodeObject(stored.value, revision)), stored.value);
    }
    assert.ok(derived > 4000, `derived ${derived}`);
  });

  it('encodeStored falls back to one JSON.stringify (metadata end unknown) for toJSON methods and inherited metadata', () => {
    const withToJSON = { apiVersion: 'v1', kind: 'X', metadata: { name: 'a' }, spec: { toJSON: (k: string) => `spec under ${JSON.stringify(k)}` } } as unknown as KubeObject;
    assert.deepEqual(encodeStored('k', withToJSON), { value: JSON.stringify(withToJSON), metadataEnd: -1 });
    assert.match(encodeStored('k', withToJSON).value, /spec under \\"spec\\"/, 'toJSON called with its property name');
    const inherited = Object.create({ metadata: { name: 'b', resourceVersion: '3' } }) as KubeObject;
    (inherited as unknown as Record<string, unknown>).kind = 'X';
    assert.deepEqual(encodeStored('k', inherited), { value: '{"kind":"X","metadata":{"name":"b"}}', metadataEnd: -1 });
    assert.throws(() => encodeStored('k', { metadata: { name: 'c' }, n: 10n } as unknown as KubeObject), /InvalidObject|not JSON/);
  });

  it('an adopted object noted with its stored value gets the derived JSON, and only then', () => {
    const source = widget('a', { note: 'grüß 😀' });
    const { value, metadataEnd } = encodeStored('k', source);
    const noted = decodeObject(value, 9);
    noteStoredValue(noted, value, metadataEnd, 9);
    const stringify = JSON.stringify;
    let calls = 0;
    JSON.stringify = ((...args: Parameters<typeof stringify>) => {
      calls++;
      return stringify(...args);
    }) as typeof JSON.stringify;
    try {
      const entry = entryOf('k', adoptObject(noted), true);
      assert.equal(calls, 0, 'not stringified');
      assert.equal(Buffer.from(entry.encoded, 'latin1').toString('utf8'), stringify(noted));
      assert.equal(encodedLatin1(noted).ascii, false);
      // Not adopted: the note is not read (nobody vouches the object is still unmodified).
      const plain = decodeObject(value, 10);
      noteStoredValue(plain, value, metadataEnd, 10);
      (plain.metadata as Record<string, unknown>).name = 'changed';
      assert.equal(Buffer.from(encodedLatin1(plain).encoded, 'latin1').toString('utf8'), stringify(plain));
      assert.ok(calls > 0);
    } finally {
      JSON.stringify = stringify;
      forgetDecoded();
    }
  });

  it('WrittenValues vouches only for the value noted last for a key, while it is noted', () => {
    const written = new WrittenValues();
    written.note('k', 'v1', 1);
    written.note('k', 'v2', 2);
    assert.equal(written.metadataEnd('k', 'v1'), -1);
    assert.equal(written.metadataEnd('k', 'v2'), 2);
    assert.equal(written.metadataEnd('other', 'v2'), -1);
    written.forget('k', 'v1');
    assert.equal(written.metadataEnd('k', 'v2'), 2, 'an earlier write does not forget a later one');
    written.forget('k', 'v2');
    assert.equal(written.metadataEnd('k', 'v2'), -1);
  });

  it('WrittenValues bounded by characters drops the oldest values; take forgets what it finds', () => {
    const written = new WrittenValues(10);
    written.note('a', 'aaaa', 1);
    written.note('b', 'bbbb', 1);
    written.note('c', 'cccc', 1);
    assert.equal(written.metadataEnd('a', 'aaaa'), -1, 'the oldest went');
    assert.equal(written.size, 2);
    written.note('b', 'bb', 1);
    written.note('d', 'dddd', 1);
    assert.equal(written.size, 3, 'a replaced value no longer counts');
    assert.equal(written.take('c', 'cccc'), 1);
    assert.equal(written.take('c', 'cccc'), -1);
    assert.equal(written.take('b', 'bbbb'), -1, 'an older value of the key is not vouched for');
    assert.equal(written.size, 2);
  });

  it('over etcd shared with another replica, the watch cache holds what decode+stringify gives for either replica\'s writes', async () => {
    const cluster = await (etcdStarted ??= EtcdCluster.start());
    const a = await EtcdStorage.open({ endpoints: cluster.endpoints, prefix: '/stored-json-replicas' });
    const b = await EtcdStorage.open({ endpoints: cluster.endpoints, prefix: '/stored-json-replicas' });
    const cacher = new Cacher(a, { prefix: PREFIX });
    try {
      await cacher.getList(PREFIX, { resourceVersion: '0' });
      const k = key('ns1', 'r');
      // b creates first: a's create fails with its value noted, and b later writes that very value.
      await b.create(k, widget('r', { by: 'b' }));
      await assert.rejects(a.create(k, widget('r', { by: 'a', note: 'ä' })), /exists/i);
      const writes: KubeObject[] = [];
      writes.push(await b.guaranteedUpdate(k, {}, (cur) => ({ ...cur!, spec: { by: 'a', note: 'ä' } }) as KubeObject));
      writes.push(await a.guaranteedUpdate(k, {}, (cur) => ({ ...cur!, spec: { by: 'a', n: 1 } }) as KubeObject));
      writes.push(await b.guaranteedUpdate(k, {}, (cur) => ({ ...cur!, metadata: { ...cur!.metadata, labels: { x: 'y' } } }) as KubeObject));
      const last = writes[writes.length - 1]!;
      for (const deadline = Date.now() + 10_000; ; ) {
        const cached = await cacher.get(k, { resourceVersion: '0', ignoreNotFound: true });
        if (cached?.metadata.resourceVersion === last.metadata.resourceVersion) {
          assert.equal(encodedObject(cached)?.toString('utf8') ?? JSON.stringify(cached), JSON.stringify(await b.get(k)));
          break;
        }
        if (Date.now() > deadline) throw new Error('the last write never reached the cache');
        await new Promise((r) => setTimeout(r, 2));
      }
      // Every event a watcher of the cache gets carries the bytes decode+stringify gives.
      const watcher = cacher.watch(PREFIX, { resourceVersion: '1', sendInitialEvents: false } as never);
      const seen: string[] = [];
      for await (const event of watcher) {
        seen.push(encodedObject(event.object)?.toString('utf8') ?? JSON.stringify(event.object));
        if (event.object.metadata.resourceVersion === last.metadata.resourceVersion) break;
      }
      watcher.stop();
      assert.ok(seen.length >= writes.length, `events ${seen.length}`);
      for (const text of seen) {
        const parsed = JSON.parse(text) as KubeObject;
        assert.equal(text, JSON.stringify(decodeObject(encodeObject(k, parsed), Number(parsed.metadata.resourceVersion))));
      }
    } finally {
      await cacher.close();
      await a.close();
      await b.close();
      forgetDecoded();
    }
  });

  for (const provider of ['aesgcm', 'identity']) {
    it(`the watch cache over storage encrypted at rest (${provider} first) keeps the opened objects' bytes, never the stored envelope's`, async () => {
      const secret = Buffer.alloc(32, 7).toString('base64');
      const aesgcm = `- aesgcm: { keys: [{ name: key1, secret: ${secret} }] }`;
      const providers = provider === 'aesgcm' ? [aesgcm, '- identity: {}'] : ['- identity: {}', aesgcm];
      const config = `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: ["widgets.example.com"]\n    providers:\n${providers.map((p) => `      ${p}`).join('\n')}\n`;
      const dir = mkdtempSync(join(tmpdir(), 'kgen-stored-json-enc-'));
      const backend = new SqliteStorage(join(dir, 'db.sqlite'));
      const cacher = new Cacher(encryptingStorage(backend, parseEncryptionConfig(config)), { prefix: PREFIX });
      try {
        await cacher.getList(PREFIX, { resourceVersion: '0' });
        const created = await cacher.create(key('ns1', 'a'), widget('a', { note: 'grüß 😀' }));
        const updated = await cacher.guaranteedUpdate(key('ns1', 'a'), {}, (cur) => ({ ...cur!, spec: { note: 'neu', n: [1, 2] } }) as KubeObject);
        assert.notEqual(created.metadata.resourceVersion, updated.metadata.resourceVersion);
        for (const deadline = Date.now() + 10_000; ; ) {
          const cached = await cacher.get(key('ns1', 'a'), { resourceVersion: '0', ignoreNotFound: true });
          if (cached?.metadata.resourceVersion === updated.metadata.resourceVersion) {
            assert.equal(encodedObject(cached)?.toString('utf8') ?? JSON.stringify(cached), JSON.stringify(updated), "the cache entry's bytes");
            break;
          }
          if (Date.now() > deadline) throw new Error('the update never reached the cache');
          await new Promise((r) => setTimeout(r, 2));
        }
        assert.deepEqual((await cacher.getList(PREFIX, { resourceVersion: '0' })).items, [updated]);
        const raw = await backend.get(key('ns1', 'a'));
        assert.equal(raw !== undefined && 'k8s:enc' in raw, provider === 'aesgcm', 'stored sealed only when aesgcm writes');
      } finally {
        await cacher.close();
        await backend.close();
        rmSync(dir, { recursive: true, force: true });
        forgetDecoded();
      }
    });
  }

  after(async () => {
    if (etcdStarted) await (await etcdStarted).stop();
  });

  for (const [name, open] of [
    [
      'etcd',
      async () => {
        const cluster = await (etcdStarted ??= EtcdCluster.start());
        const storage = await EtcdStorage.open({ endpoints: cluster.endpoints, prefix: '/stored-json' });
        return { storage: storage as Storage, done: () => {} };
      },
    ],
    ['memory', () => ({ storage: new MemoryStorage() as Storage, done: () => {} })],
    [
      'sqlite',
      () => {
        const dir = mkdtempSync(join(tmpdir(), 'kgen-stored-json-'));
        return { storage: new SqliteStorage(join(dir, 'db.sqlite')) as Storage, done: () => rmSync(dir, { recursive: true, force: true }) };
      },
    ],
  ] as const) {
    it(`the watch cache over ${name} storage keeps created and updated objects without stringifying them, with the same bytes`, async () => {
      const { storage, done } = await open();
      // A watch the reflector opens again (its stream broke: etcd under a loaded machine) comes
      // after a list, whose objects the cache encodes itself; only watched changes are this
      // test's subject, so the watches opened are counted.
      let watches = 0;
      const watch = storage.watch.bind(storage);
      storage.watch = ((...args: Parameters<typeof watch>) => (watches++, watch(...args))) as typeof storage.watch;
      const cacher = new Cacher(storage, { prefix: PREFIX });
      const stringify = JSON.stringify;
      try {
        await cacher.getList(PREFIX, { resourceVersion: '0' });
        let cacheStringified = 0;
        JSON.stringify = ((...args: Parameters<typeof stringify>) => {
          const v = args[0] as KubeObject | undefined;
          // The stored encoding has no resourceVersion; the cache's encoding has one.
          if (typeof v?.metadata?.resourceVersion === 'string') cacheStringified++;
          return stringify(...args);
        }) as typeof JSON.stringify;
        const cachedAt = async (rv: string) => {
          for (const deadline = Date.now() + 10_000; ; ) {
            const cached = await cacher.get(key('ns1', 'a'), { resourceVersion: '0', ignoreNotFound: true });
            if (cached?.metadata.resourceVersion === rv) return cached;
            if (Date.now() > deadline) throw new Error(`resourceVersion ${rv} never reached the cache`);
            await new Promise((r) => setTimeout(r, 2));
          }
        };
        const created = await cacher.create(key('ns1', 'a'), widget('a', { note: 'grüß 😀', list: [{ x: 1 }] }));
        await cachedAt(created.metadata.resourceVersion!);
        const updated = await cacher.guaranteedUpdate(key('ns1', 'a'), {}, (cur) => ({ ...cur!, spec: { note: 'neu' } }) as KubeObject);
        const cached = await cachedAt(updated.metadata.resourceVersion!);
        JSON.stringify = stringify;
        if (watches === 1) assert.equal(cacheStringified, 0, 'the cache derived both encodings from the stored values');
        else assert.ok(cacheStringified <= watches - 1, `${cacheStringified} encodings for ${watches - 1} lists after a broken watch`);
        assert.equal(encodedObject(cached)?.toString('utf8'), stringify(updated), "the cache entry's bytes");
        assert.notEqual(created.metadata.resourceVersion, updated.metadata.resourceVersion);
        const listed = await cacher.getList(PREFIX, { resourceVersion: '0' });
        assert.deepEqual(listed.items, [updated]);
      } finally {
        JSON.stringify = stringify;
        await cacher.close();
        await storage.close();
        done();
        forgetDecoded();
      }
    });
  }
});

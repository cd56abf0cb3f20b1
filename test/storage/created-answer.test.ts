/** A create's answer whose JSON is known from the value the backend stored (runtime/storage/stored-json.ts). */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { convertingStorage } from '../../runtime/apiextensions/conversion.js';
import { Cacher } from '../../runtime/storage/cacher/index.js';
import { forgetDecoded } from '../../runtime/storage/cacher/cache-entry.js';
import { deepFreeze } from '../../runtime/storage/cacher/cached-object.js';
import { encryptingStorage, parseEncryptionConfig } from '../../runtime/storage/encryption/index.js';
import { EtcdStorage } from '../../runtime/storage/etcd.js';
import type { Storage } from '../../runtime/storage/interface.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';
import { SqliteStorage } from '../../runtime/storage/sqlite.js';
import { takeCreatedAnswerJSON } from '../../runtime/storage/stored-json.js';
import { EtcdCluster } from '../support/etcd.js';
import { key, PREFIX, widget } from './conformance-fixtures.js';

let etcdStarted: Promise<EtcdCluster> | undefined;

const backends = [
  [
    'etcd',
    async () => {
      const cluster = await (etcdStarted ??= EtcdCluster.start());
      return { storage: (await EtcdStorage.open({ endpoints: cluster.endpoints, prefix: `/created-answer-${process.pid}` })) as Storage, done: () => {} };
    },
  ],
  ['memory', () => ({ storage: new MemoryStorage() as Storage, done: () => {} })],
  [
    'sqlite',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'kgen-created-answer-'));
      return { storage: new SqliteStorage(join(dir, 'db.sqlite')) as Storage, done: () => rmSync(dir, { recursive: true, force: true }) };
    },
  ],
] as const;

describe("a create's answer", () => {
  after(async () => {
    if (etcdStarted) await (await etcdStarted).stop();
  });

  for (const [name, open] of backends) {
    it(`over ${name}: the answer's JSON is JSON.stringify of the answer, taken once; a frozen input's decoded answer too`, async () => {
      const { storage, done } = await open();
      const cacher = new Cacher(storage, { prefix: PREFIX });
      try {
        const created = await cacher.create(key('ns1', 'a'), widget('a', { note: 'grüß 😀', n: [1, -0, 1e21], skip: undefined }, { x: 'y' }));
        assert.equal(takeCreatedAnswerJSON(created), JSON.stringify(created));
        assert.equal(takeCreatedAnswerJSON(created), undefined, 'taken once');
        const frozen = deepFreeze(widget('b', { a: 1 }));
        const answer = await cacher.create(key('ns1', 'b'), frozen);
        assert.notEqual(answer, frozen);
        assert.equal(takeCreatedAnswerJSON(answer), JSON.stringify(answer));
        const withToJSON = { ...widget('c'), spec: { toJSON: () => ({ a: 1 }) } } as KubeObject;
        const dated = await cacher.create(key('ns1', 'c'), withToJSON);
        assert.equal(takeCreatedAnswerJSON(dated), undefined, 'metadata end unknown: no mark');
        const failed = widget('a', { again: true });
        await assert.rejects(cacher.create(key('ns1', 'a'), failed), /exists/i);
        assert.equal(takeCreatedAnswerJSON(failed), undefined);
      } finally {
        await cacher.close();
        await storage.close();
        done();
        forgetDecoded();
      }
    });
  }

  it('a decorator that changes the answer returns another object, which has no mark (CRD versions, encryption)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kgen-created-answer-'));
    const backend = new SqliteStorage(join(dir, 'db.sqlite'));
    const secret = Buffer.alloc(32, 7).toString('base64');
    const config = `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: ["widgets.example.com"]\n    providers:\n      - aesgcm: { keys: [{ name: key1, secret: ${secret} }] }\n`;
    try {
      const converting = convertingStorage(backend, 'example.com/v2', 'example.com/v1');
      const served = await converting.create(key('ns1', 'a'), { ...widget('a'), apiVersion: 'example.com/v2' });
      assert.equal(served.apiVersion, 'example.com/v2');
      assert.equal(takeCreatedAnswerJSON(served), undefined);
      const same = await converting.create(key('ns1', 'b'), { ...widget('b'), apiVersion: 'example.com/v1' } as KubeObject);
      assert.equal(takeCreatedAnswerJSON(same), undefined, 'converted into v1 and out to v2: a copy');
      const sealed = await encryptingStorage(backend, parseEncryptionConfig(config)).create(key('ns1', 'c'), widget('c', { secret: 's' }));
      assert.equal(takeCreatedAnswerJSON(sealed), undefined, 'the opened object, not the stored envelope');
      assert.deepEqual(sealed.spec, { secret: 's' });
    } finally {
      await backend.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

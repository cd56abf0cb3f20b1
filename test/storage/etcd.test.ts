/**
 * EtcdStorage against a real single-member etcd started for this file: the shared conformance
 * suite (each test on its own key prefix, so tests do not see each other's keys), plus the
 * etcd-specific behaviour of prefixes and the factory.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { EtcdStorage } from '../../runtime/storage/etcd.js';
import { GrpcChannel } from '../../runtime/storage/etcd/grpc.js';
import { decodeTxnResponse } from '../../runtime/storage/etcd/proto-decode.js';
import { frameTxn } from '../../runtime/storage/etcd/proto-encode.js';
import { etcdEndpoints, openStorage } from '../../runtime/storage/factory.js';
import { EtcdCluster, TcpProxy } from '../support/etcd.js';
import { describeStorageConformance } from './conformance.js';
import type { StorageError } from '../../runtime/storage/interface.js';
import { key, PREFIX, rejectsWith, widget } from './conformance-fixtures.js';
import { EventCollector } from './watch-helpers.js';

let started: Promise<EtcdCluster> | undefined;
const etcd = (): Promise<EtcdCluster> => (started ??= EtcdCluster.start());
after(async () => {
  if (started) await (await started).stop();
});

let n = 0;
describeStorageConformance('etcd', async () => {
  const cluster = await etcd();
  const storage = await EtcdStorage.open({ endpoints: cluster.endpoints, prefix: `/conformance-${++n}` });
  return { storage, cleanup: () => storage.close() };
});

describe('etcd storage: prefixes and the factory', () => {
  it('replaces the /registry root with the prefix; prefixes do not see each other', async () => {
    const cluster = await etcd();
    const a = new EtcdStorage({ endpoints: cluster.endpoints, prefix: '/tenant-a/' });
    const b = new EtcdStorage({ endpoints: cluster.endpoints, prefix: 'tenant-b' });
    const plain = new EtcdStorage({ endpoints: cluster.endpoints, prefix: '/' });
    try {
      assert.equal(a.keys.toEtcd(key('ns1', 'x')), '/tenant-a/example.com/widgets/ns1/x');
      assert.equal(b.keys.toEtcd(key('ns1', 'x')), '/tenant-b/example.com/widgets/ns1/x');
      const created = await a.create(key('ns1', 'x'), widget('x', { v: 'a' }));
      await b.create(key('ns1', 'x'), widget('x', { v: 'b' }));
      assert.deepEqual((await a.get(key('ns1', 'x')))?.spec, { v: 'a' });
      assert.deepEqual((await b.get(key('ns1', 'x')))?.spec, { v: 'b' });
      // The same object, read through a storage rooted at '/', sits at /tenant-a/….
      const raw = await plain.get('/registry/tenant-a/example.com/widgets/ns1/x');
      assert.deepEqual(raw, created);
      assert.deepEqual((await a.getList('/registry/example.com/widgets/')).items, [created]);
      await assert.rejects(a.get('/elsewhere/x'), (err: Error) => /does not lie under/.test(err.message));
    } finally {
      await Promise.all([a.close(), b.close(), plain.close()]);
    }
  });

  it('openStorage opens etcd:// URLs with the storage prefix', async () => {
    const cluster = await etcd();
    const s = await openStorage(cluster.storageUrl, { dataDir: '/nonexistent', storagePrefix: '/factory' });
    try {
      assert.ok(s instanceof EtcdStorage);
      assert.equal(s.keys.root, '/factory');
      const created = await s.create(key('ns1', 'f'), widget('f'));
      assert.equal(created.metadata.resourceVersion, await s.currentRevision());
    } finally {
      await s.close();
    }
  });

  it('parses etcd:// endpoint lists', () => {
    assert.deepEqual(etcdEndpoints('etcd://a:1,b:2/'), ['a:1', 'b:2']);
    assert.deepEqual(etcdEndpoints('etcd://etcd-0'), ['etcd-0:2379']);
    assert.deepEqual(etcdEndpoints('etcd://[::1]:2379'), ['[::1]:2379']);
    assert.equal(etcdEndpoints('sqlite:'), undefined);
    assert.throws(() => etcdEndpoints('etcd://'), /invalid etcd endpoint/);
    assert.throws(() => etcdEndpoints('etcd://a:1,,b:2'), /invalid etcd endpoint/);
  });
});

describe('etcd storage: nothing listening', () => {
  it('opens, then fails fast with Unavailable (health, reads, writes, watches)', async () => {
    const proxy = await TcpProxy.start('http://127.0.0.1:9');
    await proxy.cut();
    const s = await EtcdStorage.open({ endpoints: [proxy.url] });
    try {
      const errors = [
        await rejectsWith(s.healthCheck(), 'Unavailable'),
        await rejectsWith(s.get(key('ns1', 'a')), 'Unavailable'),
        await rejectsWith(s.create(key('ns1', 'a'), widget('a')), 'Unavailable'),
      ];
      const w = new EventCollector(s.watch(PREFIX));
      await w.waitDone();
      assert.equal((w.error as StorageError).code, 'Unavailable');
      // Fast: each call ended by the refused connection (or the breaker it tripped), not by its
      // deadline. The path proves it; a bound on elapsed time failed on a loaded machine.
      for (const err of [...errors, w.error as StorageError]) {
        assert.match(err.message, /marked down after repeated connection failures|ECONNREFUSED|ECONNRESET/);
        assert.doesNotMatch(err.message, /deadline/i);
      }
    } finally {
      await s.close();
    }
  });
});

describe('etcd storage: a watch delivers every event of a revision', () => {
  it('delivers both puts of a transaction another writer made (one revision, two keys), and resumes after it', async () => {
    const cluster = await etcd();
    const storage = await EtcdStorage.open({ endpoints: cluster.endpoints, prefix: '/multi-op' });
    const channel = new GrpcChannel(cluster.endpoints[0]!.startsWith('http') ? cluster.endpoints[0]! : `http://${cluster.endpoints[0]}`);
    try {
      const from = await storage.currentRevision();
      const events = new EventCollector(storage.watch(`${PREFIX}ns1/`, { resourceVersion: from }));
      const put = (name: string) => ({ request_put: { key: Buffer.from(storage.keys.toEtcd(key('ns1', name))), value: Buffer.from(JSON.stringify(widget(name))) } });
      const txn = await channel.unary('/etcdserverpb.KV/Txn', frameTxn({ compare: [], success: [put('a'), put('b')], failure: [] }), Date.now() + 5_000, decodeTxnResponse);
      await storage.create(key('ns1', 'c'), widget('c'));
      const got = await events.waitFor(3);
      assert.deepEqual(
        got.map((e) => [e.type, e.object.metadata.name, e.resourceVersion]),
        [
          ['ADDED', 'a', String(txn.header.revision)],
          ['ADDED', 'b', String(txn.header.revision)],
          ['ADDED', 'c', String(txn.header.revision + 1)],
        ],
      );
      events.watcher.stop();
    } finally {
      channel.close();
      await storage.close();
    }
  });
});

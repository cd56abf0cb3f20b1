/**
 * The server around its storage backend: the named readiness check (`etcd` / `storage`), requests
 * failing fast with a 503/504 Status while etcd is unreachable and the server recovering by itself,
 * compaction started after listen (and stopped on close), and the kubeconfig rule for replicas
 * that share a data dir.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { kubeconfigWritePolicy, storageHealthCheck } from '../../runtime/controlplane/storage-backend.js';
import { EtcdStorage } from '../../runtime/storage/etcd.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';
import { removeDir, tempDir } from '../e2e/harness.js';
import { EtcdCluster, TcpProxy } from '../support/etcd.js';
import { WIDGETS, startTestServer, widget, type TestServer } from '../server/testserver.js';

describe('storage health check and kubeconfig policy', () => {
  it('names the check etcd for etcd and storage otherwise', async () => {
    const etcd = new EtcdStorage({ endpoints: ['127.0.0.1:1'] });
    try {
      assert.equal(storageHealthCheck(etcd).name, 'etcd');
      assert.equal(storageHealthCheck(new MemoryStorage()).name, 'storage');
      await storageHealthCheck(new MemoryStorage()).check();
    } finally {
      await etcd.close();
    }
  });

  it('keeps an existing kubeconfig on etcd unless --kubeconfig-server names the URL', async () => {
    const dir = tempDir('kubeconfig-policy');
    const etcd = new EtcdStorage({ endpoints: ['127.0.0.1:1'] });
    try {
      const own = 'https://127.0.0.1:6443';
      assert.deepEqual(kubeconfigWritePolicy(dir, etcd, own), { write: true, server: own });
      writeFileSync(join(dir, 'kubeconfig'), 'written by another replica');
      const kept = kubeconfigWritePolicy(dir, etcd, own);
      assert.equal(kept.write, false);
      assert.match(kept.reason ?? '', /kept the existing kubeconfig/);
      assert.deepEqual(kubeconfigWritePolicy(dir, etcd, own, 'https://lb:6443'), { write: true, server: 'https://lb:6443' });
      // One process owns a SQLite or memory data dir: it rewrites the kubeconfig on every start.
      assert.deepEqual(kubeconfigWritePolicy(dir, new MemoryStorage(), own), { write: true, server: own });
    } finally {
      await etcd.close();
      removeDir(dir);
    }
  });
});

describe('a server on etcd that loses etcd', () => {
  let etcd: EtcdCluster;
  let proxy: TcpProxy;
  let t: TestServer;
  before(async () => {
    etcd = await EtcdCluster.start();
    // The server reaches etcd through a proxy the test can cut, while etcd itself keeps running.
    proxy = await TcpProxy.start(etcd.endpoints[0]!);
    t = await startTestServer({ storage: `etcd://127.0.0.1:${proxy.port}`, storagePrefix: '/kgen-test', controllers: false });
  });
  after(async () => {
    await t?.close();
    await proxy?.close();
    await etcd?.stop();
  });

  it('lists [+]etcd ok in /readyz?verbose while etcd answers', async () => {
    const ready = await t.request('GET', '/readyz?verbose');
    assert.equal(ready.status, 200);
    assert.match(ready.text, /^\[\+\]etcd ok$/m);
    assert.equal((await t.request('GET', '/readyz/etcd')).text, 'ok');
    assert.equal((await t.request('POST', WIDGETS, { body: widget('before') })).status, 201);
  });

  it('fails requests fast with a 503/504 Status and turns unready naming etcd; recovers by itself', async () => {
    await proxy.cut();
    for (const [method, path, body] of [
      ['GET', WIDGETS],
      ['GET', `${WIDGETS}/before`],
      ['POST', WIDGETS, widget('during')],
      ['DELETE', `${WIDGETS}/before`],
    ] as const) {
      const started = Date.now();
      const reply = await t.request(method, path, body ? { body } : {});
      const took = Date.now() - started;
      assert.ok(reply.status === 503 || reply.status === 504, `${method} ${path}: ${reply.status} ${reply.text}`);
      assert.equal(reply.body?.kind, 'Status');
      assert.equal(reply.body?.code, reply.status);
      // The etcd client's deadline is 5 s; an unreachable member is marked down after a few refusals.
      assert.ok(took < 8000, `${method} ${path} took ${took} ms`);
    }
    const started = Date.now();
    const unready = await t.request('GET', '/readyz?verbose');
    assert.equal(unready.status, 500);
    assert.match(unready.text, /^\[-\]etcd failed: reason withheld$/m);
    assert.match(unready.text, /^\[\+\]ping ok$/m);
    assert.equal((await t.request('GET', '/readyz/etcd')).status, 500);
    assert.ok(Date.now() - started < 8000, 'the health check has its own short deadline');

    await proxy.resume();
    const deadline = Date.now() + 15_000;
    for (;;) {
      const reply = await t.request('POST', WIDGETS, { body: widget('after') });
      if (reply.status === 201) break;
      assert.ok(reply.status === 503 || reply.status === 504, `while recovering: ${reply.status} ${reply.text}`);
      assert.ok(Date.now() < deadline, 'the server recovers once etcd is back');
      await delay(100);
    }
    assert.equal((await t.request('GET', '/readyz')).status, 200);
    const names = (await t.request('GET', WIDGETS)).body.items.map((w: { metadata: { name: string } }) => w.metadata.name);
    assert.deepEqual(names.sort(), ['after', 'before']);
  });
});

describe('compaction in the server', () => {
  const dataDir = tempDir('compaction');
  after(() => removeDir(dataDir));

  it('compacts the backend every interval once listening, and stops on close (SQLite, check `storage`)', async () => {
    const logs: string[] = [];
    const t = await startTestServer({ storage: 'sqlite:', dataDir, compactionIntervalMs: 100, controllers: false, log: (l) => logs.push(l) });
    try {
      assert.ok(t.server.compactor, 'a compactor runs');
      assert.match((await t.request('GET', '/readyz?verbose')).text, /^\[\+\]storage ok$/m);
      const created = await t.request('POST', WIDGETS, { body: widget('w') });
      const first = created.body.metadata.resourceVersion as string;
      await t.request('PUT', `${WIDGETS}/w`, { body: { ...created.body, spec: { replicas: 2 } } });
      // Each turn compacts to the revision the turn before it saw: history older than one
      // interval is gone (410), here including the create.
      const compactedPast = () =>
        logs.some((l) => Number(/storage compacted to revision (\d+)/.exec(l)?.[1] ?? 0) > Number(first));
      const deadline = Date.now() + 5000;
      while (!compactedPast()) {
        assert.ok(Date.now() < deadline, `no compaction past ${first}: ${logs.join('\n')}`);
        await delay(20);
      }
      await assert.rejects(t.server.storage.getList('/registry/widgets.example.com/widgets/', { resourceVersion: first, resourceVersionMatch: 'Exact' }), {
        code: 'Expired',
      });
    } finally {
      await t.close();
    }
  });

  it('answers 410 over HTTP for a watch, an Exact list and a continue token at a compacted resourceVersion (issue 12, item 10)', async () => {
    // The probe: the compactor compacts the backend; the watch cache in front of it kept serving
    // that history from its ring, and 410 came only after a restart.
    const logs: string[] = [];
    const httpDataDir = tempDir('compaction-http');
    const t = await startTestServer({ storage: 'sqlite:', dataDir: httpDataDir, compactionIntervalMs: 100, controllers: false, log: (l) => logs.push(l) });
    try {
      for (const name of ['a', 'b', 'c']) assert.equal((await t.request('POST', WIDGETS, { body: widget(name) })).status, 201);
      const page = await t.request('GET', `${WIDGETS}?limit=1`);
      const early = page.body.metadata.resourceVersion as string;
      const token = page.body.metadata.continue as string;
      assert.ok(token);
      assert.equal((await t.request('GET', `${WIDGETS}?resourceVersion=${early}&resourceVersionMatch=Exact`)).status, 200, 'served before compaction');
      await t.request('POST', WIDGETS, { body: widget('d') });
      const compactedPast = () => logs.some((l) => Number(/storage compacted to revision (\d+)/.exec(l)?.[1] ?? 0) > Number(early));
      const deadline = Date.now() + 5000;
      while (!compactedPast()) {
        assert.ok(Date.now() < deadline, `no compaction past ${early}: ${logs.join('\n')}`);
        await delay(20);
      }
      const exact = await t.request('GET', `${WIDGETS}?resourceVersion=${early}&resourceVersionMatch=Exact`);
      assert.equal(exact.status, 410, exact.text);
      assert.equal(exact.body.reason, 'Expired');
      const next = await t.request('GET', `${WIDGETS}?limit=1&continue=${encodeURIComponent(token)}`);
      assert.equal(next.status, 410, next.text);
      assert.equal(next.body.reason, 'Expired');
      // A watch from there: kube's cacher answers with one ERROR event carrying the 410 Status.
      const watch = await t.request('GET', `${WIDGETS}?watch=true&resourceVersion=${early}&timeoutSeconds=5`);
      const events = watch.text.trim().split('\n').map((line) => JSON.parse(line) as { type: string; object: { code?: number; reason?: string } });
      assert.deepEqual(events.map((e) => [e.type, e.object.code, e.object.reason]), [['ERROR', 410, 'Expired']], watch.text);
    } finally {
      await t.close();
      removeDir(httpDataDir);
    }
  });

  it('runs no compactor with an interval of 0', async () => {
    const t = await startTestServer({ compactionIntervalMs: 0, controllers: false });
    try {
      assert.equal(t.server.compactor, undefined);
    } finally {
      await t.close();
    }
  });
});

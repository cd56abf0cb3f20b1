/**
 * Connection faults on a single etcd: while etcd is down every call fails fast with Unavailable;
 * after it restarts on the same data dir the same EtcdStorage works again by itself, and a watch
 * that was running resumes from its last revision without losing or repeating an event.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { EtcdStorage } from '../../runtime/storage/etcd.js';
import { StorageError } from '../../runtime/storage/interface.js';
import { EtcdCluster, TcpProxy } from '../support/etcd.js';
import { key, PREFIX, rejectsWith, widget } from './conformance-fixtures.js';
import { EventCollector, summary } from './watch-helpers.js';

let cluster: EtcdCluster;
before(async () => {
  cluster = await EtcdCluster.start();
});
after(async () => {
  await cluster?.stop();
});

/** Runs op and returns how long it took to fail with Unavailable. */
async function failsUnavailable(op: () => Promise<unknown>): Promise<number> {
  const started = Date.now();
  await rejectsWith(op(), 'Unavailable');
  return Date.now() - started;
}

async function eventually<T>(op: () => Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await op();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

describe('etcd storage: etcd stopped and restarted', () => {
  it('fails fast while down, recovers by itself, and a running watch continues without loss', async () => {
    const s = await EtcdStorage.open({ endpoints: cluster.endpoints, requestTimeoutMs: 3000 });
    const other = await EtcdStorage.open({ endpoints: cluster.endpoints });
    try {
      const before = await s.create(key('ns1', 'before'), widget('before', { v: 1 }));
      const watch = new EventCollector(s.watch(PREFIX, { resourceVersion: before.metadata.resourceVersion }));
      const updated = await s.guaranteedUpdate(key('ns1', 'before'), {}, (cur) => ({ ...(cur as KubeObject), spec: { v: 2 } }));
      await watch.waitFor(1);

      await cluster.kill(0);
      const timings = [
        await failsUnavailable(() => s.get(key('ns1', 'before'))),
        await failsUnavailable(() => s.create(key('ns1', 'down'), widget('down'))),
        await failsUnavailable(() => s.guaranteedUpdate(key('ns1', 'before'), {}, (cur) => cur as KubeObject)),
        await failsUnavailable(() => s.delete(key('ns1', 'before'))),
        await failsUnavailable(() => s.getList(PREFIX)),
        await failsUnavailable(() => s.currentRevision()),
        await failsUnavailable(() => s.healthCheck()),
        await failsUnavailable(() => s.compact('1')),
      ];
      for (const ms of timings) assert.ok(ms < 3500, `failed after ${ms} ms`);
      console.log(`# with etcd down, calls failed with Unavailable after ${timings.join(', ')} ms`);
      // A new watch cannot be established: it ends with Unavailable within the deadline.
      const started = Date.now();
      const failedWatch = new EventCollector(s.watch(PREFIX));
      await failedWatch.waitDone(5000);
      assert.ok(failedWatch.error instanceof StorageError && failedWatch.error.code === 'Unavailable', String(failedWatch.error));
      assert.ok(Date.now() - started < 3500);
      assert.equal(watch.done, false, 'the established watch keeps running while etcd is down');

      await cluster.restart(0);
      // Writes through another instance right away, while the first watch is still reconnecting.
      const afterRestart: KubeObject[] = [];
      afterRestart.push(await eventually(() => other.create(key('ns1', 'after1'), widget('after1')), 5000));
      afterRestart.push(await other.delete(key('ns1', 'before')));
      afterRestart.push(await eventually(() => s.create(key('ns1', 'after2'), widget('after2')), 5000));
      await s.healthCheck();

      const events = await watch.waitFor(4, 5000);
      watch.stop();
      assert.deepEqual(summary(events), [
        `MODIFIED ${key('ns1', 'before')} ${updated.metadata.resourceVersion}`,
        `ADDED ${key('ns1', 'after1')} ${afterRestart[0].metadata.resourceVersion}`,
        `DELETED ${key('ns1', 'before')} ${afterRestart[1].metadata.resourceVersion}`,
        `ADDED ${key('ns1', 'after2')} ${afterRestart[2].metadata.resourceVersion}`,
      ]);
      assert.equal(watch.error, undefined);
    } finally {
      await s.close();
      await other.close();
    }
  });

  it('a watch cut off while its history is compacted ends with Expired when it reconnects', async () => {
    const proxy = await TcpProxy.start(cluster.endpoints[0]);
    const s = await EtcdStorage.open({ endpoints: [proxy.url] });
    const other = await EtcdStorage.open({ endpoints: cluster.endpoints });
    try {
      const first = await s.create(key('ns2', 'a'), widget('a'));
      const watch = new EventCollector(s.watch(`${PREFIX}ns2/`, { resourceVersion: first.metadata.resourceVersion }));
      const b = await other.create(key('ns2', 'b'), widget('b'));
      await watch.waitFor(1);
      await proxy.cut();
      await rejectsWith(s.get(key('ns2', 'a')), 'Unavailable');
      // While this client is cut off: more history, then compaction past its watch's revision.
      await other.create(key('ns2', 'c'), widget('c'));
      await other.create(key('ns2', 'd'), widget('d'));
      await other.compact(await other.currentRevision());
      await proxy.resume();
      await watch.waitDone(5000);
      assert.deepEqual(summary(watch.events), [`ADDED ${key('ns2', 'b')} ${b.metadata.resourceVersion}`]);
      assert.ok(watch.error instanceof StorageError && watch.error.code === 'Expired', String(watch.error));
      assert.ok(await eventually(() => s.get(key('ns2', 'd')), 3000));
    } finally {
      await s.close();
      await other.close();
      await proxy.close();
    }
  });

  it('a watch cut off from etcd catches up on everything written meanwhile, exactly once', async () => {
    const proxy = await TcpProxy.start(cluster.endpoints[0]);
    const s = await EtcdStorage.open({ endpoints: [proxy.url] });
    const other = await EtcdStorage.open({ endpoints: cluster.endpoints });
    try {
      const from = await s.currentRevision();
      const watch = new EventCollector(s.watch(`${PREFIX}ns3/`, { resourceVersion: from }));
      const expected: string[] = [];
      const write = async (name: string) => {
        const o = await other.create(key('ns3', name), widget(name));
        expected.push(`ADDED ${key('ns3', name)} ${o.metadata.resourceVersion}`);
      };
      await write('a');
      await watch.waitFor(1);
      await proxy.cut();
      for (const name of ['b', 'c', 'd']) await write(name);
      await proxy.resume();
      await write('e');
      await watch.waitFor(expected.length, 5000);
      await write('f');
      await watch.waitFor(expected.length, 5000);
      watch.stop();
      assert.deepEqual(summary(watch.events), expected);
    } finally {
      await s.close();
      await other.close();
      await proxy.close();
    }
  });
});

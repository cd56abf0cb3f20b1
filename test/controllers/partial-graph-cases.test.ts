/**
 * The GC over its partial graph (runtime/controllers/graph.ts), case by case as kube's
 * garbagecollector behaves (graph_builder.go, garbagecollector.go), each case with no gap, with
 * the informers' watch broken meanwhile (their relist then shows the changes), and, over etcd,
 * with the server cut off from etcd while another server writes and compacts (the cacher's etcd
 * watch restarts from a list; every informer's watch ends and relists):
 * - objects that gain an ownerReference by update (owner alive, deleted, never existed, in
 *   another namespace, cluster-scoped owner of a namespaced dependent and the reverse);
 * - owner references removed, blockOwnerDeletion flipped, an owner re-created with the same name;
 * - foreground deletion of an owner whose dependents have dependents, orphan propagation, and
 *   dependents created after their owner started deleting;
 * - namespace deletion with content of several kinds.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { startControllers, type RunningControllers } from '../../runtime/controllers/index.js';
import type { Store } from '../../runtime/registry/store.js';
import { EtcdStorage } from '../../runtime/storage/etcd.js';
import type { Storage } from '../../runtime/storage/interface.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';
import { EtcdCluster, TcpProxy } from '../support/etcd.js';
import { G, NS, W, eventually as eventuallyWithin, getOrNone, installFixture, ownerRef, type FixtureAPIs } from './helpers.js';

const FAST = { baseDelayMs: 5, maxDelayMs: 50, maxRetries: 6 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Generous: relists back off while etcd is cut off, and the machine is shared. */
const eventually = <T>(check: () => Promise<T> | T, what: string) => eventuallyWithin(check, what, 20_000);

let etcdStarted: Promise<EtcdCluster> | undefined;
const etcd = (): Promise<EtcdCluster> => (etcdStarted ??= EtcdCluster.start());
after(async () => {
  if (etcdStarted) await (await etcdStarted).stop();
});

/**
 * How the controllers lose sight of the changes made by a case's `during`:
 * - none: they watch all along;
 * - informers: the informers of the given stores end their watch and relist only after `during`;
 * - etcd: the server's connection to etcd is cut, another server (its own stores over the same
 *   etcd prefix) writes, etcd compacts its history, then the connection comes back: the cacher's
 *   watch cannot resume, lists again, and ends every informer's watch.
 */
type Gap = 'none' | 'informers' | 'etcd';

interface Backend {
  name: string;
  gaps: Gap[];
  /** The controllers' storage and, for etcd, another server's over the same data. */
  open(): Promise<{ storage: Storage; other?: Storage; proxy?: TcpProxy }>;
}

const backends: Backend[] = [
  { name: 'memory', gaps: ['none', 'informers'], open: async () => ({ storage: new MemoryStorage() }) },
  {
    name: 'etcd',
    gaps: ['none', 'informers', 'etcd'],
    open: async () => {
      const cluster = await etcd();
      const prefix = `/partial-cases-${randomUUID()}`;
      const proxy = await TcpProxy.start(cluster.endpoints[0]);
      const storage = await EtcdStorage.open({ endpoints: [proxy.url], prefix });
      const other = await EtcdStorage.open({ endpoints: cluster.endpoints, prefix });
      return { storage, other, proxy };
    },
  },
];

for (const backend of backends) {
  for (const gapKind of backend.gaps) {
    describe(`GC over its partial graph, ${backend.name}, gap: ${gapKind}`, () => {
      let storage: Storage;
      let otherStorage: Storage | undefined;
      let proxy: TcpProxy | undefined;
      /** The controllers' server. */
      let api: FixtureAPIs;
      /** Where a case writes during an etcd gap: another server over the same etcd. */
      let otherApi: FixtureAPIs | undefined;
      let controllers: RunningControllers | undefined;
      const logs: string[] = [];

      const start = async () => {
        controllers = startControllers({ apis: api.installer, log: (l) => logs.push(l), queue: FAST });
        await controllers.synced;
        return controllers;
      };
      const settled = async () => {
        await sleep(60);
        await eventually(() => controllers!.idle(), 'the controllers to be idle');
      };
      const gone = (store: Store, ns: string | undefined, name: string) =>
        eventually(async () => (await getOrNone(store, ns, name)) === undefined, `${name} to be deleted`);
      const graph = () => controllers!.garbageCollector.graph;

      /**
       * Runs `during` (given the stores to write through) while the controllers cannot see it
       * (see Gap); `stores` are the informers broken by an informers gap. Returns once the
       * controllers watch again.
       */
      async function gap(stores: Store[], during: (w: FixtureAPIs) => Promise<void>): Promise<void> {
        if (gapKind === 'none') return during(api);
        if (gapKind === 'etcd') return etcdGap(during);
        const releases: Array<() => void> = [];
        const relisted: boolean[] = [];
        const restore: Array<() => void> = [];
        stores.forEach((store, i) => {
          const informer = controllers!.informers.informerFor(store)!;
          const own = store as unknown as { list: Store['list'] };
          const list = store.list;
          const gate = new Promise<void>((r) => releases.push(r));
          relisted[i] = false;
          own.list = async (...args: Parameters<Store['list']>) => {
            // Only the informer's pages (limit 500) wait; the controllers' own lists go through.
            if (args[1]?.limit === undefined) return list.apply(store, args);
            await gate;
            const out = await list.apply(store, args);
            if (!out.metadata.continue) relisted[i] = true;
            return out;
          };
          restore.push(() => delete (own as { list?: unknown }).list);
          (informer as unknown as { watch: { stop(): void } }).watch.stop();
        });
        try {
          await during(api);
        } finally {
          for (const release of releases) release();
        }
        await eventually(() => relisted.every(Boolean), 'the relists to complete');
        for (const r of restore) r();
      }

      async function etcdGap(during: (w: FixtureAPIs) => Promise<void>): Promise<void> {
        await settled();
        await proxy!.cut();
        try {
          await during(otherApi!);
          await otherStorage!.compact(await otherStorage!.currentRevision());
        } finally {
          await proxy!.resume();
        }
      }

      beforeEach(async () => {
        const opened = await backend.open();
        storage = opened.storage;
        otherStorage = opened.other;
        proxy = opened.proxy;
        api = await installFixture(storage);
        otherApi = otherStorage ? await installFixture(otherStorage) : undefined;
        logs.length = 0;
      });
      afterEach(async () => {
        await controllers?.stop();
        controllers = undefined;
        await storage.close();
        await otherStorage?.close();
        await proxy?.close();
      });

      const update = (store: Store, ns: string | undefined, name: string, change: (obj: KubeObject) => void) =>
        store.update(ns, name, {
          updatedObject(current) {
            change(current);
            return current;
          },
        });
      const widgets = (w: FixtureAPIs) => w.widgets;

      it('a held dependent of an owner deleting in foreground stops blocking it: the owner goes', async () => {
        await start();
        const flip = await api.widgets.create('default', W('flip-owner'));
        const drop = await api.widgets.create('default', W('drop-owner'));
        await api.widgets.create('default', W('flip-held', { finalizers: ['example.com/hold'], ownerReferences: [ownerRef(flip, { blockOwnerDeletion: true })] }));
        await api.widgets.create('default', W('drop-held', { finalizers: ['example.com/hold'], ownerReferences: [ownerRef(drop, { blockOwnerDeletion: true })] }));
        await api.widgets.deleteObject('default', 'flip-owner', { propagationPolicy: 'Foreground' });
        await api.widgets.deleteObject('default', 'drop-owner', { propagationPolicy: 'Foreground' });
        await eventually(async () => (await api.widgets.get('default', 'flip-held')).metadata.deletionTimestamp, 'flip-held to be deleted');
        await eventually(async () => (await api.widgets.get('default', 'drop-held')).metadata.deletionTimestamp, 'drop-held to be deleted');
        await settled();
        assert.ok(await getOrNone(api.widgets, 'default', 'flip-owner'), 'the owner waits for its blocking dependent');
        await gap([api.widgets], async (w) => {
          // kube's GraphBuilder (addUnblockedOwnersToDeleteQueue): a blocking reference that is
          // removed, or turned non-blocking, sends its owner deleting in foreground back to work.
          await update(widgets(w), 'default', 'flip-held', (o) => (o.metadata.ownerReferences![0].blockOwnerDeletion = false));
          await update(widgets(w), 'default', 'drop-held', (o) => delete o.metadata.ownerReferences);
        });
        await gone(api.widgets, 'default', 'flip-owner');
        await gone(api.widgets, 'default', 'drop-owner');
        assert.ok(await getOrNone(api.widgets, 'default', 'flip-held'), 'the held dependent stays until its finalizer goes');
        assert.ok(await getOrNone(api.widgets, 'default', 'drop-held'));
        assert.deepEqual(logs, []);
      });
    });
  }
}

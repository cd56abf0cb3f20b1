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
 * - virtual owner nodes with another object's coordinates (a stale uid, the wrong namespace)
 *   across a relist;
 * - namespace deletion with content of several kinds.
 * Last, over etcd only: GC and namespace work interrupted by etcd going away is done once it is back.
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
import { G, NS, W, breakWatch, eventually as eventuallyWithin, getOrNone, installFixture, ownerRef, type FixtureAPIs } from './helpers.js';

const FAST = { baseDelayMs: 5, maxDelayMs: 50 };
/**
 * Failures a key outlasts in the etcd outage cases: more than the 8 after which the old queue
 * dropped a key (informer.test.ts proves 20 on the queue alone). The queues count them
 * (metrics.retry), so a case waits for the count, not for a time (it slept 1.5 s) that a loaded
 * machine may fill with fewer retries than that.
 */
const OUTLASTED_RETRIES = 10;
/** FAST, plus a wait for a key's retries (the work queues' metrics.retry). */
function countingRetries() {
  const counts = new Map<unknown, number>();
  const waiters = new Set<() => void>();
  const queue = {
    ...FAST,
    metrics: {
      retry: (key: unknown) => {
        counts.set(key, (counts.get(key) ?? 0) + 1);
        for (const w of waiters) w();
      },
    },
  };
  /** Resolves once `key` has been retried n times after this call; fails, naming the count, after 20 s (as `eventually`). */
  const retried = (key: unknown, n: number) =>
    new Promise<void>((resolve, reject) => {
      const from = counts.get(key) ?? 0;
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`${String(key)} was retried ${(counts.get(key) ?? 0) - from} times in 20 s, not ${n}`));
      }, 20_000);
      const check = () => {
        if ((counts.get(key) ?? 0) - from < n) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    });
  return { queue, retried };
}
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
      // After an etcd gap the member, marked down by the cut, is tried again after hostRetryMs:
      // 100 ms instead of the default second, which each gap otherwise waited out (with the
      // watch's backoff, ~1.8 s of the ~2.3 s a gap took).
      const storage = await EtcdStorage.open({ endpoints: [proxy.url], prefix, hostRetryMs: 100 });
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
      /**
       * What the controllers logged that a case does not expect. Across an etcd gap an informer
       * whose relist reaches the storage before the member's breaker closes again logs its one
       * retry line (as client-go's reflector does); how often depends on the machine's load, so
       * that line, and only during an etcd gap, is not counted.
       */
      const unexpectedLogs = () =>
        gapKind === 'etcd' ? logs.filter((l) => !/^informer \S+: (etcd is unavailable: )?etcd member \S+ is marked down after repeated connection failures; retrying$/.test(l)) : logs;
      /** Relists after a broken watch, per store (onRelist). */
      const relists = new Map<Store, number>();

      const start = async () => {
        controllers = startControllers({ apis: api.installer, log: (l) => logs.push(l), queue: FAST });
        for (const informer of controllers.informers.all) informer.addHandlers({ onRelist: () => relists.set(informer.store, (relists.get(informer.store) ?? 0) + 1) });
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
        const counted = stores.map((s) => relists.get(s) ?? 0);
        const held = stores.map((store) => breakWatch(controllers!.informers.informerFor(store)!, store));
        try {
          await during(api);
        } finally {
          for (const h of held) h.release();
        }
        await eventually(() => held.every((h) => h.relisted), 'the relists to complete');
        for (const h of held) h.restore();
        await eventually(() => stores.every((s, i) => (relists.get(s) ?? 0) > counted[i]), 'onRelist after the relists');
      }

      async function etcdGap(during: (w: FixtureAPIs) => Promise<void>): Promise<void> {
        await settled();
        const stores = controllers!.informers.all.map((i) => i.store);
        const before = stores.map((s) => relists.get(s) ?? 0);
        await proxy!.cut();
        try {
          await during(otherApi!);
          await otherStorage!.compact(await otherStorage!.currentRevision());
        } finally {
          await proxy!.resume();
        }
        // Every informer's watch ended with the cacher's: each lists again.
        await eventually(() => stores.every((s, i) => (relists.get(s) ?? 0) > before[i]), 'every informer to relist');
      }

      beforeEach(async () => {
        relists.clear();
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

      it('objects that gain an ownerReference by update: collected exactly when the owner is not there', async () => {
        await api.namespaces.create(undefined, NS('a'));
        await api.namespaces.create(undefined, NS('b'));
        await start();
        const alive = await api.widgets.create('a', W('alive'));
        const doomed = await api.widgets.create('a', W('doomed'));
        const elsewhere = await api.widgets.create('b', W('elsewhere'));
        const cluster = await api.gadgets.create(undefined, G('cluster-owner'));
        for (const name of ['to-alive', 'to-doomed', 'to-nothing', 'to-elsewhere', 'to-cluster']) await api.widgets.create('a', W(name));
        await api.gadgets.create(undefined, G('gadget-to-widget'));
        await api.gadgets.create(undefined, G('gadget-to-gadget'));
        await settled();
        assert.equal(graph().get(alive.metadata.uid!), undefined, 'no node yet: nothing names it');
        const never = { apiVersion: 'widgets.example.com/v1', kind: 'Widget', name: 'never', uid: randomUUID() };
        await gap([api.widgets, api.gadgets], async (w) => {
          const own = (store: Store, ns: string | undefined, name: string, ref: KubeObject['metadata']['ownerReferences']) =>
            update(store, ns, name, (o) => (o.metadata.ownerReferences = ref));
          await own(w.widgets, 'a', 'to-alive', [ownerRef(alive)]);
          await own(w.widgets, 'a', 'to-doomed', [ownerRef(doomed)]);
          await w.widgets.deleteObject('a', 'doomed');
          await own(w.widgets, 'a', 'to-nothing', [never]);
          // A namespaced owner is looked up in the dependent's namespace (kube): not there.
          await own(w.widgets, 'a', 'to-elsewhere', [ownerRef(elsewhere)]);
          await own(w.widgets, 'a', 'to-cluster', [ownerRef(cluster)]);
          // A cluster-scoped object cannot have a namespaced owner: kube leaves it alone.
          await own(w.gadgets, undefined, 'gadget-to-widget', [ownerRef(alive)]);
          await own(w.gadgets, undefined, 'gadget-to-gadget', [ownerRef(cluster)]);
        });
        await gone(api.widgets, 'a', 'to-doomed');
        await gone(api.widgets, 'a', 'to-nothing');
        await gone(api.widgets, 'a', 'to-elsewhere');
        await settled();
        for (const name of ['to-alive', 'to-cluster']) assert.ok(await getOrNone(api.widgets, 'a', name), `${name} stays`);
        assert.ok(await getOrNone(api.gadgets, undefined, 'gadget-to-widget'), 'a namespaced owner of a cluster-scoped object: left alone');
        assert.ok(await getOrNone(api.gadgets, undefined, 'gadget-to-gadget'));
        assert.ok(await getOrNone(api.widgets, 'b', 'elsewhere'), 'the owner in another namespace is not touched');
        // The owners now named: their deletion takes the dependents.
        await api.widgets.deleteObject('a', 'alive');
        await gone(api.widgets, 'a', 'to-alive');
        await api.gadgets.deleteObject(undefined, 'cluster-owner');
        await gone(api.widgets, 'a', 'to-cluster');
        await gone(api.gadgets, undefined, 'gadget-to-gadget');
        await settled();
        assert.ok(await getOrNone(api.gadgets, undefined, 'gadget-to-widget'));
        assert.deepEqual(unexpectedLogs(), []);
      });

      it('owner references removed, and an owner re-created under the same name', async () => {
        await start();
        const kept = await api.widgets.create('default', W('kept-owner'));
        const replaced = await api.widgets.create('default', W('replaced-owner'));
        const cluster = await api.gadgets.create(undefined, G('replaced-gadget'));
        await api.widgets.create('default', W('released', { ownerReferences: [ownerRef(kept)] }));
        await api.widgets.create('default', W('half-released', { ownerReferences: [ownerRef(kept), ownerRef(replaced)] }));
        await api.widgets.create('default', W('of-replaced', { ownerReferences: [ownerRef(replaced)] }));
        await api.widgets.create('default', W('of-replaced-gadget', { ownerReferences: [ownerRef(cluster)] }));
        await settled();
        await gap([api.widgets, api.gadgets], async (w) => {
          await update(w.widgets, 'default', 'released', (o) => delete o.metadata.ownerReferences);
          await update(w.widgets, 'default', 'half-released', (o) => (o.metadata.ownerReferences = o.metadata.ownerReferences!.slice(1)));
          // Deleted and created again: same name, another uid. The dependents name the old uid.
          await w.widgets.deleteObject('default', 'replaced-owner');
          await w.widgets.create('default', W('replaced-owner'));
          await w.gadgets.deleteObject(undefined, 'replaced-gadget');
          await w.gadgets.create(undefined, G('replaced-gadget'));
        });
        await gone(api.widgets, 'default', 'of-replaced');
        await gone(api.widgets, 'default', 'of-replaced-gadget');
        await gone(api.widgets, 'default', 'half-released');
        await settled();
        assert.ok(await getOrNone(api.widgets, 'default', 'replaced-owner'), 'the new owner stays');
        assert.ok(await getOrNone(api.gadgets, undefined, 'replaced-gadget'));
        await api.widgets.deleteObject('default', 'kept-owner');
        await settled();
        assert.ok(await getOrNone(api.widgets, 'default', 'released'), 'no owner any more: not collected');
        assert.equal(graph().get((await api.widgets.get('default', 'released')).metadata.uid!), undefined, 'and no node');
        assert.deepEqual(unexpectedLogs(), []);
      });

      it('an owner that shares its name with a stale reference (virtual node) is still seen deleted', async () => {
        await start();
        const owner = await api.widgets.create('default', W('o'));
        await api.widgets.create('default', W('dep', { ownerReferences: [ownerRef(owner)] }));
        await settled();
        // A reference to an older object of the same name (another uid): its virtual node has the
        // owner's coordinates. The dependent is deleted at once, and stays while a finalizer holds it.
        const stale = { ...ownerRef(owner), uid: randomUUID() };
        await api.widgets.create('default', W('stale-dep', { finalizers: ['example.com/hold'], ownerReferences: [stale] }));
        await eventually(async () => (await api.widgets.get('default', 'stale-dep')).metadata.deletionTimestamp, 'stale-dep to be deleted');
        await settled();
        assert.equal(graph().get(stale.uid)?.virtual, true);
        await gap([api.widgets], async (w) => {
          await w.widgets.deleteObject('default', 'o');
        });
        await gone(api.widgets, 'default', 'dep');
        await update(api.widgets, 'default', 'stale-dep', (o) => (o.metadata.finalizers = []));
        await gone(api.widgets, 'default', 'stale-dep');
        await settled();
        assert.equal(graph().get(stale.uid), undefined);
        assert.equal(graph().get(owner.metadata.uid!), undefined);
        assert.deepEqual(unexpectedLogs(), []);
      });

      it('a virtual owner node made in the wrong namespace: the relist that lists the owner keeps its node', async () => {
        await api.namespaces.create(undefined, NS('a'));
        await api.namespaces.create(undefined, NS('b'));
        await start();
        const owner = await api.widgets.create('b', W('owner'));
        // Named from namespace a first: the virtual node is made in a (kube's rule). The dependent is
        // deleted at once (no such owner in a) and stays, held, so the virtual node stays too.
        await api.widgets.create('a', W('wrong-ns', { finalizers: ['example.com/hold'], ownerReferences: [ownerRef(owner)] }));
        await eventually(async () => (await api.widgets.get('a', 'wrong-ns')).metadata.deletionTimestamp, 'wrong-ns to be deleted');
        await settled();
        assert.equal(graph().get(owner.metadata.uid!)?.namespace, 'a');
        await gap([api.widgets], async (w) => {
          await w.widgets.create('b', W('right-ns', { ownerReferences: [ownerRef(owner)] }));
        });
        await settled();
        const node = graph().get(owner.metadata.uid!);
        assert.equal(node?.virtual, false);
        assert.equal(node?.namespace, 'b');
        if (gapKind !== 'none') {
          // The relist listed the owner (its node replaced the virtual one): the node is the
          // listed object's, not one rebuilt from an API read after the relist reported it deleted.
          assert.equal(node?.version, Number(owner.metadata.resourceVersion));
        }
        await gap([api.widgets], async (w) => {
          await w.widgets.deleteObject('b', 'owner');
        });
        await gone(api.widgets, 'b', 'right-ns');
        await update(api.widgets, 'a', 'wrong-ns', (o) => (o.metadata.finalizers = []));
        await gone(api.widgets, 'a', 'wrong-ns');
        assert.deepEqual(unexpectedLogs(), []);
      });

      it('foreground deletion through two levels, orphaning, and dependents created while owners are deleting', async () => {
        await start();
        const top = await api.widgets.create('default', W('top'));
        const mid = await api.widgets.create('default', W('mid', { ownerReferences: [ownerRef(top, { blockOwnerDeletion: true })] }));
        await api.widgets.create('default', W('leaf', { finalizers: ['example.com/hold'], ownerReferences: [ownerRef(mid, { blockOwnerDeletion: true })] }));
        const orphaner = await api.gadgets.create(undefined, G('orphaner'));
        await api.widgets.create('default', W('orphan-1', { ownerReferences: [ownerRef(orphaner, { blockOwnerDeletion: true })] }));
        await api.widgets.create('default', W('orphan-2', { ownerReferences: [ownerRef(orphaner)] }));
        const bg = await api.widgets.create('default', W('bg-owner'));
        await settled();
        await gap([api.widgets, api.gadgets], async (w) => {
          await w.widgets.deleteObject('default', 'top', { propagationPolicy: 'Foreground' });
          await w.gadgets.deleteObject(undefined, 'orphaner', { propagationPolicy: 'Orphan' });
          await w.widgets.deleteObject('default', 'bg-owner', { propagationPolicy: 'Background' });
          // Named after their owners started deleting (or went).
          await w.widgets.create('default', W('late-fg', { ownerReferences: [ownerRef(top, { blockOwnerDeletion: true })] }));
          await w.widgets.create('default', W('late-bg', { ownerReferences: [ownerRef(bg)] }));
        });
        await gone(api.widgets, 'default', 'late-bg');
        await gone(api.widgets, 'default', 'late-fg');
        await gone(api.gadgets, undefined, 'orphaner');
        await eventually(async () => (await api.widgets.get('default', 'leaf')).metadata.deletionTimestamp, 'the leaf to be deleted');
        await eventually(async () => (await api.widgets.get('default', 'mid')).metadata.deletionTimestamp, 'mid to be deleted');
        await settled();
        assert.ok(await getOrNone(api.widgets, 'default', 'mid'), 'mid waits for its held leaf');
        assert.ok(await getOrNone(api.widgets, 'default', 'top'), 'top waits for mid');
        for (const name of ['orphan-1', 'orphan-2']) {
          const o = await api.widgets.get('default', name);
          assert.ok(!o.metadata.ownerReferences?.some((r) => r.uid === orphaner.metadata.uid), `${name} is orphaned, not deleted`);
        }
        // The held leaf lets go while the controllers cannot see it: the relist finds it gone.
        await gap([api.widgets], async (w) => {
          await update(w.widgets, 'default', 'leaf', (o) => (o.metadata.finalizers = []));
        });
        await gone(api.widgets, 'default', 'leaf');
        await gone(api.widgets, 'default', 'mid');
        await gone(api.widgets, 'default', 'top');
        for (const name of ['orphan-1', 'orphan-2']) assert.ok(await getOrNone(api.widgets, 'default', name));
        assert.equal(mid.metadata.name, 'mid');
        assert.deepEqual(unexpectedLogs(), []);
      });

      it('a namespace deleted with content of several kinds while the controllers could not see it', async () => {
        await api.namespaces.create(undefined, NS('team'));
        await start();
        const owner = await api.widgets.create('team', W('owner'));
        await api.widgets.create('team', W('dep', { ownerReferences: [ownerRef(owner)] }));
        await api.widgets.create('team', W('held', { finalizers: ['example.com/hold'] }));
        for (let i = 0; i < 20; i++) await api.widgets.create('team', W(`plain-${i}`));
        const storeOf = (resource: string) => controllers!.informers.all.find((i) => i.resource === resource)!.store;
        const kinds: Array<[Store, KubeObject]> = [
          [storeOf('configmaps'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', ownerReferences: [ownerRef(owner)] }, data: { a: 'b' } } as KubeObject],
          [storeOf('configmaps'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-plain' } }],
          [storeOf('secrets'), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'secret', finalizers: ['example.com/hold'] }, type: 'Opaque' } as KubeObject],
          [storeOf('roles.rbac.authorization.k8s.io'), { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'role' }, rules: [] } as KubeObject],
          [storeOf('leases.coordination.k8s.io'), { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'lease' }, spec: {} } as KubeObject],
        ];
        for (const [store, obj] of kinds) await store.create('team', obj);
        await eventually(() => getOrNone(storeOf('serviceaccounts'), 'team', 'default'), 'the default service account');
        await settled();
        await gap(controllers!.informers.all.map((i) => i.store), async (w) => {
          await w.namespaces.delete(undefined, 'team');
        });
        await eventually(async () => (await api.widgets.get('team', 'held')).metadata.deletionTimestamp, 'the held widget to be deleted');
        await settled();
        assert.ok(await getOrNone(api.namespaces, undefined, 'team'), 'the namespace waits for its content');
        assert.ok((await storeOf('secrets').get('team', 'secret')).metadata.deletionTimestamp);
        await gap([api.widgets, storeOf('secrets')], async (w) => {
          await update(w.widgets, 'team', 'held', (o) => (o.metadata.finalizers = []));
          const secrets = w.installer.lookup('', 'v1', 'secrets')!.store;
          await update(secrets, 'team', 'secret', (o) => (o.metadata.finalizers = []));
        });
        await gone(api.namespaces, undefined, 'team');
        for (let i = 0; i < 20; i++) assert.equal(await getOrNone(api.widgets, 'team', `plain-${i}`), undefined);
        for (const [store, obj] of kinds) assert.equal(await getOrNone(store, 'team', obj.metadata.name!), undefined);
        assert.equal(await getOrNone(storeOf('serviceaccounts'), 'team', 'default'), undefined);
        assert.deepEqual(unexpectedLogs(), []);
      });

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
        assert.deepEqual(unexpectedLogs(), []);
      });
    });
  }
}

describe('GC work cut off from etcd in the middle', () => {
  it('a namespace whose content was being deleted when etcd went away is finalized once etcd is back', async () => {
    const { storage, other, proxy } = await backends[1].open();
    const api = await installFixture(storage);
    const logs: string[] = [];
    await api.namespaces.create(undefined, NS('team'));
    await api.widgets.create('team', W('content'));
    const { queue, retried } = countingRetries();
    const controllers = startControllers({ apis: api.installer, log: (l) => logs.push(l), queue });
    const store = api.widgets as unknown as { deleteObject: Store['deleteObject'] };
    try {
      await controllers.synced;
      await sleep(60);
      await eventually(() => controllers.idle(), 'the controllers to be idle');
      // The namespace controller's delete of the content waits until etcd is cut off, then fails
      // (Unavailable) for longer than a bounded retry budget would last.
      const del = api.widgets.deleteObject;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let held = false;
      store.deleteObject = async (...args: Parameters<Store['deleteObject']>) => {
        if (args[0] === 'team' && !held) {
          held = true;
          await gate;
        }
        return del.apply(api.widgets, args);
      };
      await api.namespaces.delete(undefined, 'team');
      await eventually(() => held, 'the namespace controller to delete the content');
      await proxy!.cut();
      const outlasted = retried('team', OUTLASTED_RETRIES);
      release();
      await outlasted;
      await proxy!.resume();
      await eventually(async () => (await getOrNone(api.namespaces, undefined, 'team').catch(() => null)) === undefined, 'the namespace to be finalized');
      assert.deepEqual(logs.filter((l) => l.includes('giving up')), []);
    } finally {
      delete (store as { deleteObject?: unknown }).deleteObject;
      await controllers.stop();
      await storage.close();
      await other?.close();
      await proxy?.close();
    }
  });

  it('a dependent the GC was deleting when etcd went away is collected once etcd is back', async () => {
    const { storage, other, proxy } = await backends[1].open();
    const api = await installFixture(storage);
    const logs: string[] = [];
    const { queue, retried } = countingRetries();
    const controllers = startControllers({ apis: api.installer, log: (l) => logs.push(l), queue });
    const store = api.widgets as unknown as { delete: Store['delete'] };
    try {
      await controllers.synced;
      const owner = await api.widgets.create('default', W('owner'));
      const dep = await api.widgets.create('default', W('dep', { ownerReferences: [ownerRef(owner)] }));
      await sleep(60);
      await eventually(() => controllers.idle(), 'the controllers to be idle');
      // The GC's delete of the dependent waits until etcd is cut off, then fails (Unavailable)
      // for longer than a bounded retry budget would last (its attemptToDelete key is its uid).
      const del = api.widgets.delete;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let held = false;
      store.delete = async (...args: Parameters<Store['delete']>) => {
        if (args[1] === 'dep' && !held) {
          held = true;
          await gate;
        }
        return del.apply(api.widgets, args);
      };
      await api.widgets.deleteObject('default', 'owner');
      await eventually(() => held, 'the GC to delete the dependent');
      await proxy!.cut();
      const outlasted = retried(dep.metadata.uid, OUTLASTED_RETRIES);
      release();
      await outlasted;
      await proxy!.resume();
      // kube's GC retries until the storage answers: the dependent goes.
      // (The etcd client may take a moment to mark the member up again: reads fail meanwhile.)
      await eventually(async () => (await getOrNone(api.widgets, 'default', 'dep').catch(() => null)) === undefined, 'dep to be deleted');
      assert.deepEqual(logs.filter((l) => l.includes('giving up')), []);
    } finally {
      delete (store as { delete?: unknown }).delete;
      await controllers.stop();
      await storage.close();
      await other?.close();
      await proxy?.close();
    }
  });
});

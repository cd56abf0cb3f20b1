/**
 * The GC's graph is partial (runtime/controllers/graph.ts, DependencyGraph): a node only for the
 * objects the collector needs (owner references, being deleted, named as an owner, namespaces and
 * service accounts), and a virtual node (kube's) for an owner named before the graph has its own.
 * These are the paths that create nodes on demand, and the relists that follow a broken watch
 * (each over memory storage and over etcd, where the informers watch through the cacher),
 * where the informers can report deleted only what the graph held.
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
import { EtcdCluster } from '../support/etcd.js';
import { G, NS, W, breakWatch, eventually, getOrNone, installFixture, ownerRef, type FixtureAPIs } from './helpers.js';

const FAST = { baseDelayMs: 5, maxDelayMs: 50 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let etcdStarted: Promise<EtcdCluster> | undefined;
const etcd = (): Promise<EtcdCluster> => (etcdStarted ??= EtcdCluster.start());
after(async () => {
  if (etcdStarted) await (await etcdStarted).stop();
});

/** Each test on its own storage; on etcd, under its own prefix of one etcd (the watch runs over the cacher). */
const backends: Array<[string, () => Promise<Storage>]> = [
  ['memory', async () => new MemoryStorage()],
  ['etcd', async () => EtcdStorage.open({ endpoints: (await etcd()).endpoints, prefix: `/partial-${randomUUID()}` })],
];

for (const [backend, open] of backends) {
  describe(`the GC graph keeps nodes only where needed (${backend})`, () => {
    let storage: Storage;
    let api: FixtureAPIs;
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
     * Ends the informer's watch of `store` and holds its relist until `during` has run: what
     * `during` changes reaches the controllers only through the relist (a watch broken for a
     * while, as after a 410 or a storage hiccup).
     */
    async function watchGap(store: Store, during: () => Promise<void>): Promise<void> {
      const held = breakWatch(controllers!.informers.informerFor(store)!, store);
      try {
        await eventually(() => held.relisting, 'the informer to relist');
        await during();
      } finally {
        held.release();
      }
      await eventually(() => held.relisted, 'the relist to complete');
      held.restore();
    }

    beforeEach(async () => {
      storage = await open();
      api = await installFixture(storage);
      logs.length = 0;
    });
    afterEach(async () => {
      await controllers?.stop();
      controllers = undefined;
      await storage.close();
    });

    it('has no node for an object nothing owns or names, and one for owners, dependents, namespaces', async () => {
      await start();
      const plain = await api.widgets.create('default', W('plain'));
      const gadget = await api.gadgets.create(undefined, G('plain-gadget'));
      const owner = await api.widgets.create('default', W('owner'));
      const dep = await api.widgets.create('default', W('dep', { ownerReferences: [ownerRef(owner)] }));
      await api.widgets.update('default', 'plain', {
        updatedObject(current) {
          current.metadata.labels = { changed: 'yes' };
          return current;
        },
      });
      await settled();
      assert.equal(graph().get(plain.metadata.uid!), undefined);
      assert.equal(graph().get(gadget.metadata.uid!), undefined);
      assert.equal(graph().get(dep.metadata.uid!)?.name, 'dep');
      const ownerNode = graph().get(owner.metadata.uid!);
      assert.equal(ownerNode?.name, 'owner');
      assert.equal(ownerNode?.namespace, 'default');
      assert.equal(ownerNode?.store, api.widgets);
      const ns = await api.namespaces.get(undefined, 'default');
      assert.equal(graph().get(ns.metadata.uid!)?.name, 'default');
      // The dependent goes: its owner's virtual node (made from the reference) goes with it.
      await api.widgets.deleteObject('default', 'dep');
      await settled();
      assert.equal(graph().get(dep.metadata.uid!), undefined);
      if (ownerNode?.virtual) assert.equal(graph().get(owner.metadata.uid!), undefined);
      assert.deepEqual(logs, []);
    });

    it('an owner created before its first dependent: background and foreground deletion collect it', async () => {
      await start();
      const bg = await api.widgets.create('default', W('bg-owner'));
      const fg = await api.gadgets.create(undefined, G('fg-owner'));
      await settled();
      assert.equal(graph().get(bg.metadata.uid!), undefined, 'no node before a dependent names it');
      await api.widgets.create('default', W('bg-dep', { ownerReferences: [ownerRef(bg)] }));
      await api.widgets.create('default', W('fg-dep', { ownerReferences: [ownerRef(fg, { blockOwnerDeletion: true })] }));
      await settled();
      assert.ok(await getOrNone(api.widgets, 'default', 'bg-dep'), 'a live owner keeps its dependent');
      assert.ok(await getOrNone(api.widgets, 'default', 'fg-dep'));

      await api.widgets.deleteObject('default', 'bg-owner', { propagationPolicy: 'Background' });
      await gone(api.widgets, 'default', 'bg-dep');
      const marked = await api.gadgets.deleteObject(undefined, 'fg-owner', { propagationPolicy: 'Foreground' });
      assert.equal(marked.deleted, false);
      await gone(api.widgets, 'default', 'fg-dep');
      await gone(api.gadgets, undefined, 'fg-owner');
      assert.deepEqual(logs, []);
    });

    it('a virtual owner node vouches for references only once the API showed the owner where they say', async () => {
      await start();
      await api.namespaces.create(undefined, NS('a'));
      await api.namespaces.create(undefined, NS('b'));
      const owner = await api.widgets.create('b', W('owner'));
      await settled();
      // Named first from namespace a: the virtual node is made in a (kube's rule), where no such
      // owner is; that reference is dangling and its dependent goes. The one from b finds the
      // owner: its node is then made where the API showed it.
      await api.widgets.create('a', W('wrong-ns', { ownerReferences: [ownerRef(owner)] }));
      await api.widgets.create('b', W('right-ns', { ownerReferences: [ownerRef(owner)] }));
      await gone(api.widgets, 'a', 'wrong-ns');
      await settled();
      const node = graph().get(owner.metadata.uid!);
      assert.equal(node?.virtual, false, 'confirmed by the API');
      assert.equal(node?.namespace, 'b');
      assert.equal(node?.version, undefined, 'the state last delivered: no resourceVersion known');
      // Confirmed in b: a later reference from a is still checked, and still dangling.
      await api.widgets.create('a', W('wrong-again', { ownerReferences: [ownerRef(owner)] }));
      await gone(api.widgets, 'a', 'wrong-again');
      assert.ok(await getOrNone(api.widgets, 'b', 'right-ns'));
      // A reference with the right uid but another name is dangling too.
      await api.widgets.create('b', W('wrong-name', { ownerReferences: [{ ...ownerRef(owner), name: 'other' }] }));
      await gone(api.widgets, 'b', 'wrong-name');
      assert.ok(await getOrNone(api.widgets, 'b', 'right-ns'));
      await api.widgets.deleteObject('b', 'owner');
      await gone(api.widgets, 'b', 'right-ns');
      assert.deepEqual(logs, []);
    });

    it('a dependent listed before its owner: the owner is found, then collected with it', async () => {
      // Listed in key order: a-dep comes before z-owner in the first list.
      const owner = await api.widgets.create('default', W('z-owner'));
      await api.widgets.create('default', W('a-dep', { ownerReferences: [ownerRef(owner)] }));
      await api.widgets.create('default', W('a-dangling', { ownerReferences: [{ ...ownerRef(owner), uid: '0b0b0b0b-0000-4000-8000-000000000000' }] }));
      await start();
      await gone(api.widgets, 'default', 'a-dangling');
      await settled();
      assert.ok(await getOrNone(api.widgets, 'default', 'a-dep'));
      const node = graph().get(owner.metadata.uid!);
      assert.equal(node?.virtual, false, 'the owner listed after its dependent has its real node');
      assert.equal(node?.version, Number(owner.metadata.resourceVersion));
      await api.widgets.deleteObject('default', 'z-owner');
      await gone(api.widgets, 'default', 'a-dep');
      assert.deepEqual(logs, []);
    });

    it('an owner deleting in foreground whose dependents arrive later: they go first, then the owner', async () => {
      await start();
      const owner = await api.widgets.create('default', W('fg'));
      await api.widgets.create('default', W('held', { finalizers: ['example.com/hold'], ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })] }));
      await api.widgets.deleteObject('default', 'fg', { propagationPolicy: 'Foreground' });
      await eventually(async () => (await api.widgets.get('default', 'held')).metadata.deletionTimestamp, 'the held dependent to be deleted');
      const late = await api.widgets.create('default', W('late', { ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })] }));
      await gone(api.widgets, 'default', 'late');
      assert.ok(late.metadata.uid);
      assert.ok((await api.widgets.get('default', 'fg')).metadata.deletionTimestamp, 'the owner waits for its held dependent');
      await api.widgets.update('default', 'held', {
        updatedObject(current) {
          current.metadata.finalizers = [];
          return current;
        },
      });
      await gone(api.widgets, 'default', 'held');
      await gone(api.widgets, 'default', 'fg');
      assert.deepEqual(logs, []);
    });

    it('relist: an owner deleted while the watch was broken still takes its dependents', async () => {
      await start();
      const owner = await api.widgets.create('default', W('owner'));
      await api.widgets.create('default', W('dep', { ownerReferences: [ownerRef(owner)] }));
      const cluster = await api.gadgets.create(undefined, G('cluster-owner'));
      await api.widgets.create('default', W('dep-of-gadget', { ownerReferences: [ownerRef(cluster)] }));
      await settled();
      await watchGap(api.widgets, async () => {
        await api.widgets.deleteObject('default', 'owner', { propagationPolicy: 'Background' });
        await gone(api.widgets, 'default', 'owner');
      });
      await gone(api.widgets, 'default', 'dep');
      await watchGap(api.gadgets, async () => {
        await api.gadgets.deleteObject(undefined, 'cluster-owner');
        await gone(api.gadgets, undefined, 'cluster-owner');
      });
      await gone(api.widgets, 'default', 'dep-of-gadget');
      assert.deepEqual(logs, []);
    });

    it('relist: content of a terminating namespace that went while the watch was broken lets it finish', async () => {
      await start();
      await api.namespaces.create(undefined, NS('team'));
      await api.widgets.create('team', W('stuck', { finalizers: ['example.com/hold'] }));
      await settled();
      await watchGap(api.widgets, async () => {
        await api.namespaces.delete(undefined, 'team');
        await eventually(async () => (await api.widgets.get('team', 'stuck')).metadata.deletionTimestamp, 'the content to be deleted');
        await eventually(async () => {
          const ns = (await api.namespaces.get(undefined, 'team')) as KubeObject & { status: { conditions?: { type: string; status: string }[] } };
          return ns.status.conditions?.some((c) => c.type === 'NamespaceContentRemaining' && c.status === 'True');
        }, 'the namespace to wait for its content');
        // Nothing queued: the namespace controller waits to be woken by a change of its content.
        await settled();
        await api.widgets.update('team', 'stuck', {
          updatedObject(current) {
            current.metadata.finalizers = [];
            return current;
          },
        });
        await gone(api.widgets, 'team', 'stuck');
      });
      await gone(api.namespaces, undefined, 'team');
      assert.deepEqual(logs, []);
    });
  });
}

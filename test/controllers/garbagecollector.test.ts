/**
 * The garbage collector over the fixture API and memory storage: background, foreground and
 * orphan propagation, dangling and cross-namespace owner references, and a restart in the middle
 * of a foreground deletion.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { startControllers, type RunningControllers } from '../../runtime/controllers/index.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';
import { G, W, eventually, getOrNone, installFixture, ownerRef, type FixtureAPIs } from './helpers.js';

const FAST = { baseDelayMs: 5, maxDelayMs: 50 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('garbage collector', () => {
  let storage: MemoryStorage;
  let api: FixtureAPIs;
  let controllers: RunningControllers | undefined;
  const logs: string[] = [];

  const start = async () => {
    controllers = startControllers({ apis: api.installer, log: (l) => logs.push(l), queue: FAST });
    await controllers.synced;
  };
  const settled = async () => {
    await sleep(60);
    await eventually(() => controllers!.idle(), 'the controllers to be idle');
  };
  const gone = (ns: string | undefined, name: string, store = api.widgets) =>
    eventually(async () => (await getOrNone(store, ns, name)) === undefined, `${name} to be deleted`);

  beforeEach(async () => {
    storage = new MemoryStorage();
    api = await installFixture(storage);
    logs.length = 0;
  });
  afterEach(async () => {
    await controllers?.stop();
    controllers = undefined;
  });

  it('Background: deletes the dependents once the owner is gone, keeping those with another live owner', async () => {
    await start();
    const owner = await api.widgets.create('default', W('owner'));
    const other = await api.widgets.create('default', W('other'));
    await api.widgets.create('default', W('child', { ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true, controller: true })] }));
    const grandchildOwner = await api.widgets.get('default', 'child');
    await api.widgets.create('default', W('grandchild', { ownerReferences: [ownerRef(grandchildOwner)] }));
    await api.widgets.create('default', W('shared', { ownerReferences: [ownerRef(owner), ownerRef(other)] }));

    assert.equal((await api.widgets.deleteObject('default', 'owner')).deleted, true);
    await gone('default', 'child');
    await gone('default', 'grandchild');
    const shared = await eventually(async () => {
      const s = await api.widgets.get('default', 'shared');
      return s.metadata.ownerReferences?.length === 1 ? s : undefined;
    }, 'the dangling reference to be removed from shared');
    assert.equal(shared.metadata.ownerReferences![0]!.uid, other.metadata.uid);
    assert.deepEqual(logs, []);
  });

  it('Foreground: deletes dependents first, waits for blocking ones (and their finalizers), then the owner', async () => {
    await start();
    const owner = await api.widgets.create('default', W('fg-owner'));
    await api.widgets.create('default', W('blocker', { finalizers: ['example.com/hold'], ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })] }));
    await api.widgets.create('default', W('loose', { ownerReferences: [ownerRef(owner)] }));

    const marked = await api.widgets.delete('default', 'fg-owner', { propagationPolicy: 'Foreground' });
    assert.deepEqual(marked.metadata.finalizers, ['foregroundDeletion']);
    await gone('default', 'loose');
    const blocker = await eventually(async () => {
      const b = await api.widgets.get('default', 'blocker');
      return b.metadata.deletionTimestamp ? b : undefined;
    }, 'the blocking dependent to be marked for deletion');
    assert.deepEqual(blocker.metadata.finalizers, ['example.com/hold']);
    await settled();
    const waiting = await api.widgets.get('default', 'fg-owner');
    assert.deepEqual(waiting.metadata.finalizers, ['foregroundDeletion'], 'the owner waits for its blocking dependent');

    await api.widgets.update('default', 'blocker', {
      updatedObject(current) {
        current.metadata.finalizers = [];
        return current;
      },
    });
    await gone('default', 'blocker');
    await gone('default', 'fg-owner');
  });

  it('Foreground with a cluster-scoped owner and nested dependents deletes the whole tree', async () => {
    await start();
    const gadget = await api.gadgets.create(undefined, G('root'));
    const mid = await api.widgets.create('default', W('mid', { ownerReferences: [ownerRef(gadget, { blockOwnerDeletion: true })] }));
    await api.widgets.create('kube-public', W('leaf', { ownerReferences: [ownerRef(gadget, { blockOwnerDeletion: true })] }));
    await api.widgets.create('default', W('leaf2', { ownerReferences: [ownerRef(mid, { blockOwnerDeletion: true })] }));
    await api.gadgets.delete(undefined, 'root', { propagationPolicy: 'Foreground' });
    await gone('default', 'leaf2');
    await gone('default', 'mid');
    await gone('kube-public', 'leaf');
    await gone(undefined, 'root', api.gadgets);
  });

  it('Orphan: removes the owner from its dependents, then lets the owner go', async () => {
    await start();
    const owner = await api.widgets.create('default', W('or-owner'));
    const other = await api.widgets.create('default', W('or-other'));
    await api.widgets.create('default', W('kid', { ownerReferences: [ownerRef(owner), ownerRef(other)] }));
    await api.widgets.create('default', W('kid2', { ownerReferences: [ownerRef(owner)] }));
    await api.widgets.delete('default', 'or-owner', { propagationPolicy: 'Orphan' });
    await gone('default', 'or-owner');
    const kid = await api.widgets.get('default', 'kid');
    assert.deepEqual(kid.metadata.ownerReferences?.map((r) => r.name), ['or-other']);
    const kid2 = await api.widgets.get('default', 'kid2');
    assert.equal(kid2.metadata.ownerReferences, undefined);
    await settled();
    assert.ok(await getOrNone(api.widgets, 'default', 'kid2'), 'orphans are not collected');
  });

  it('finds dangling references at start-up, including owners in another namespace, and leaves invalid ones alone', async () => {
    const owner = await api.widgets.create('default', W('real'));
    const gadget = await api.gadgets.create(undefined, G('cluster-owner'));
    // Created while no collector runs: an owner uid that never existed, an owner in another namespace.
    await api.widgets.create('default', W('orphaned', { ownerReferences: [{ ...ownerRef(owner), uid: 'no-such-uid' }] }));
    await api.widgets.create('kube-public', W('elsewhere', { ownerReferences: [ownerRef(owner)] }));
    // Valid: same namespace, and a cluster-scoped owner of a namespaced dependent.
    await api.widgets.create('default', W('valid', { ownerReferences: [ownerRef(owner)] }));
    await api.widgets.create('kube-public', W('by-gadget', { ownerReferences: [ownerRef(gadget)] }));
    // Left alone: a cluster-scoped dependent of a namespaced owner, and an owner kind nobody serves.
    await api.gadgets.create(undefined, G('bad-ref', { ownerReferences: [{ ...ownerRef(owner), uid: 'gone' }] }));
    await api.widgets.create('default', W('unknown-kind', { ownerReferences: [{ apiVersion: 'nope.io/v1', kind: 'Nope', name: 'x', uid: 'u' }] }));

    await start();
    await gone('default', 'orphaned');
    await gone('kube-public', 'elsewhere');
    await settled();
    for (const [ns, name] of [
      ['default', 'valid'],
      ['kube-public', 'by-gadget'],
      ['default', 'unknown-kind'],
    ] as const) {
      assert.ok(await getOrNone(api.widgets, ns, name), `${name} stays`);
    }
    assert.ok(await getOrNone(api.gadgets, undefined, 'bad-ref'));
    assert.deepEqual(logs, []);

    await api.gadgets.delete(undefined, 'cluster-owner');
    await gone('kube-public', 'by-gadget');
  });

  it('finishes a foreground deletion left pending by a stop, when started again', async () => {
    await start();
    await controllers!.stop();
    controllers = undefined;
    const owner = await api.widgets.create('default', W('pending'));
    await api.widgets.create('default', W('dep', { ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })] }));
    await api.widgets.delete('default', 'pending', { propagationPolicy: 'Foreground' });
    await sleep(30);
    assert.ok(await getOrNone(api.widgets, 'default', 'pending'), 'nothing happens without the collector');
    await start();
    await gone('default', 'dep');
    await gone('default', 'pending');
  });
});

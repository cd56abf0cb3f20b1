/**
 * The GC graph's nodes keep little per object (runtime/controllers/graph.ts): the uid as its 16
 * bytes, the store, namespace and deletion flags in a shared scope. Whatever they share, every
 * node reads back its own coordinates and state, also past the bound of the scope table and after
 * its resource was rebuilt (replaceStore).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { DependencyGraph, MAX_SCOPED_NAMESPACES, nodeOf } from '../../runtime/controllers/graph.js';
import type { Store } from '../../runtime/registry/store.js';

const storeOf = (plural: string, namespaceScoped: boolean): Store =>
  ({ namespaceScoped, definition: { group: 'example.com', version: 'v1', kind: 'Gadget', plural } }) as unknown as Store;

function object(i: number, namespace: string | undefined): KubeObject {
  const metadata: KubeObject['metadata'] = { name: `g-${i}`, uid: randomUUID(), resourceVersion: String(i + 1) };
  if (namespace !== undefined) metadata.namespace = namespace;
  if (i % 3 === 1) metadata.deletionTimestamp = '2026-11-27T00:00:00Z';
  if (i % 5 === 2) metadata.finalizers = ['foregroundDeletion'];
  if (i % 5 === 4) {
    metadata.deletionTimestamp = '2026-11-27T00:00:00Z';
    metadata.finalizers = ['foregroundDeletion'];
  }
  if (i % 7 === 3) {
    metadata.deletionTimestamp = '2026-11-27T00:00:00Z';
    metadata.finalizers = ['orphan'];
  }
  if (i % 2 === 0) metadata.ownerReferences = [{ apiVersion: 'example.com/v1', kind: 'Gadget', name: `g-${i + 1}`, uid: randomUUID() }];
  return { apiVersion: 'example.com/v1', kind: 'Gadget', metadata };
}

test('every node reads back its own coordinates, state and owners, past the scope table bound and after replaceStore', () => {
  const namespaced = storeOf('gadgets', true);
  const cluster = storeOf('clustergadgets', false);
  const graph = new DependencyGraph();
  const objects: Array<[Store, KubeObject]> = [];
  const n = MAX_SCOPED_NAMESPACES + 500;
  for (let i = 0; i < n; i++) {
    const store = i % 10 === 9 ? cluster : namespaced;
    const obj = object(i, store === cluster ? undefined : `ns-${i}`);
    objects.push([store, obj]);
    graph.upsert(nodeOf(store, obj));
  }
  const check = (storeNow: (s: Store) => Store) => {
    for (const [store, obj] of objects) {
      const m = obj.metadata;
      const node = graph.get(m.uid!);
      assert.ok(node, m.name);
      assert.equal(node.uid, m.uid);
      assert.equal(node.store, storeNow(store));
      assert.equal(node.namespace, store === cluster ? undefined : m.namespace);
      assert.equal(node.name, m.name);
      assert.equal(node.version, Number(m.resourceVersion));
      assert.equal(node.beingDeleted, m.deletionTimestamp !== undefined);
      const deleting = m.deletionTimestamp !== undefined;
      assert.equal(node.deletingDependents, deleting && (m.finalizers?.includes('foregroundDeletion') ?? false));
      assert.equal(node.orphaning, deleting && (m.finalizers?.includes('orphan') ?? false));
      assert.deepEqual(node.owners, m.ownerReferences ?? []);
      for (const ref of m.ownerReferences ?? []) assert.deepEqual(graph.dependentsOf(ref.uid), [node]);
    }
  };
  check((s) => s);
  const rebuilt = storeOf('gadgets', true);
  graph.replaceStore(namespaced, rebuilt);
  check((s) => (s === namespaced ? rebuilt : s));
  assert.equal(graph.objectsOf(namespaced).length, 0);
  assert.equal(graph.objectsOf(rebuilt).length, objects.filter(([s]) => s === namespaced).length);
});

test('confirm: an owner the API showed gets a node at its own coordinates, unless the graph changed that uid meanwhile', () => {
  const store = storeOf('gadgets', true);
  const graph = new DependencyGraph({ partial: true });
  const owner: KubeObject = { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'o', namespace: 'b', uid: randomUUID(), resourceVersion: '5' } };
  const ref = { apiVersion: 'example.com/v1', kind: 'Gadget', name: 'o', uid: owner.metadata.uid! };
  const dependent: KubeObject = { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'd', namespace: 'b', uid: randomUUID(), resourceVersion: '6', ownerReferences: [ref] } };
  const uid = owner.metadata.uid!;

  // Nobody names it: no node.
  graph.confirm(graph.before(uid), store, owner);
  assert.equal(graph.get(uid), undefined);

  graph.upsert(nodeOf(store, dependent));
  // No node before the read, and a removal meanwhile (it may have been this owner's): none made.
  let seen = graph.before(uid);
  graph.upsert(nodeOf(store, { ...owner, metadata: { ...owner.metadata, uid: randomUUID(), name: 'other' } }));
  graph.remove([...graph.all()].find((n) => n.name === 'other')!.uid);
  graph.confirm(seen, store, owner);
  assert.equal(graph.get(uid), undefined);

  // No node and no removal meanwhile: a node where the API showed the owner, vouching for the reference.
  seen = graph.before(uid);
  graph.confirm(seen, store, owner);
  const confirmed = graph.get(uid)!;
  assert.equal(confirmed.virtual, false);
  assert.equal(confirmed.namespace, 'b');
  assert.equal(confirmed.name, 'o');
  assert.equal(confirmed.version, undefined);
  assert.equal(graph.resolves(graph.get(dependent.metadata.uid!)!, ref), true);

  // The informer's own node replaced it meanwhile: it stays.
  seen = graph.before(uid);
  const real = nodeOf(store, owner);
  graph.upsert(real);
  graph.confirm(seen, store, owner);
  assert.equal(graph.get(uid), real);
});

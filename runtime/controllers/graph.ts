/**
 * The garbage collector's dependency graph (kube's GraphBuilder uidToNode): every object seen by
 * the informers, by uid, with its owner references, and the reverse index owner uid → dependents.
 * An owner that was never seen (or is gone) still indexes its dependents, so they can be found
 * when the owner turns out to be absent. Inside, uids are the 16-byte keys of ./uid-key.ts (a
 * node per object: 24 bytes less each); the methods take and give uids as text.
 */
import type { KubeObject, OwnerReference } from '../api/meta.js';
import { hasFinalizer, isBeingDeleted, isDeletingDependents, FINALIZER_ORPHAN } from '../registry/deletion.js';
import type { Store } from '../registry/store.js';
import { compactVersion, type InformerIndex } from './known.js';
import { uidKey, uidOf } from './uid-key.js';

const BEING_DELETED = 1;
const DELETING_DEPENDENTS = 2;
const ORPHANING = 4;

/**
 * What many nodes share: the store their object was last seen in, its namespace and its three
 * deletion flags (one small integer). At most eight per store and namespace, so a node holds one
 * field for the three.
 */
class NodeScope {
  constructor(
    readonly store: Store,
    readonly namespace: string | undefined,
    readonly flags: number,
  ) {}
}

/** Scopes by store, then namespace, then flags. */
const scopes = new WeakMap<Store, Map<string | undefined, NodeScope[]>>();
/**
 * Namespaces with scopes kept per store; past it the store's table starts afresh (nodes keep the
 * scopes they hold: only sharing is lost), so namespaces that come and go never pile up.
 */
export const MAX_SCOPED_NAMESPACES = 4096;

function scopeOf(store: Store, namespace: string | undefined, flags: number): NodeScope {
  let byNamespace = scopes.get(store);
  if (!byNamespace) scopes.set(store, (byNamespace = new Map()));
  let byFlags = byNamespace.get(namespace);
  if (!byFlags) {
    if (byNamespace.size >= MAX_SCOPED_NAMESPACES) byNamespace.clear();
    byNamespace.set(namespace, (byFlags = []));
  }
  return (byFlags[flags] ??= new NodeScope(store, namespace, flags));
}

/**
 * One object of the graph (kube's node: uid, coordinates, owners, deletion state). Kept per
 * object for as long as it exists, so it is small: four fields (56 bytes of heap) for an object
 * without owner references (most: nothing owns a namespace, a CRD, a Deployment...), five (64)
 * for one with (OwnedNode).
 */
export abstract class GraphNode {
  /** The usable owner references (never mutated: the object's own array, frozen). */
  abstract readonly owners: OwnerReference[];

  constructor(
    /** The uid's key (uidKey), the graph map's key too. */
    readonly id: string,
    /** The store, the namespace and the deletion flags (shared: see NodeScope). */
    private scope: NodeScope,
    readonly name: string,
    /** The resourceVersion last observed (compactVersion): the graph is its informers' index. */
    readonly version: number | string | undefined,
  ) {}

  get store(): Store {
    return this.scope.store;
  }

  /** Undefined for a cluster-scoped object. */
  get namespace(): string | undefined {
    return this.scope.namespace;
  }

  /** The object's resource was rebuilt over the same storage: `store` serves it now. */
  moveTo(store: Store): void {
    this.scope = scopeOf(store, this.scope.namespace, this.scope.flags);
  }

  /** The object's uid (a new string per read: the node keeps only its key). */
  get uid(): string {
    return uidOf(this.id);
  }

  /** Has a deletionTimestamp. */
  get beingDeleted(): boolean {
    return (this.scope.flags & BEING_DELETED) !== 0;
  }

  /** Being deleted in foreground (`foregroundDeletion`). */
  get deletingDependents(): boolean {
    return (this.scope.flags & DELETING_DEPENDENTS) !== 0;
  }

  /** Being deleted with the `orphan` finalizer. */
  get orphaning(): boolean {
    return (this.scope.flags & ORPHANING) !== 0;
  }

  /**
   * Made from an owner reference, not from the object (kube's virtual node): its coordinates are
   * the reference's, its resourceVersion unknown, and it vouches for no reference (resolves).
   */
  get virtual(): boolean {
    return false;
  }
}

const NO_OWNERS: OwnerReference[] = Object.freeze([]) as unknown as OwnerReference[];

/** A node without owners: none kept. */
class UnownedNode extends GraphNode {
  get owners(): OwnerReference[] {
    return NO_OWNERS;
  }
}

/** An owner known only from a reference (see GraphNode.virtual). */
class VirtualNode extends UnownedNode {
  override get virtual(): boolean {
    return true;
  }
}

/**
 * The node of an owner named by a reference but not (yet) in the graph: in the dependent's
 * namespace when the owner's store is namespaced (kube's rule), else cluster-wide.
 */
export function virtualNodeOf(store: Store, ref: OwnerReference, dependentNamespace: string | undefined): GraphNode {
  return new VirtualNode(uidKey(ref.uid), scopeOf(store, store.namespaceScoped ? dependentNamespace : undefined, 0), ref.name ?? '', undefined);
}

class OwnedNode extends GraphNode {
  constructor(
    id: string,
    scope: NodeScope,
    name: string,
    version: number | string | undefined,
    readonly owners: OwnerReference[],
  ) {
    super(id, scope, name, version);
  }
}

function usableReference(r: OwnerReference): boolean {
  return !!r && typeof r.uid === 'string' && r.uid !== '';
}

/** The references the graph indexes; the object's own (frozen) array when every one is usable, never copied for nothing. */
function ownersOf(obj: KubeObject): OwnerReference[] {
  const refs = obj.metadata.ownerReferences;
  if (!Array.isArray(refs) || refs.length === 0) return NO_OWNERS;
  return refs.every(usableReference) ? refs : refs.filter(usableReference);
}

/** A node shares the object's strings and references (never mutated: the graph only reads them). */
export function nodeOf(store: Store, obj: KubeObject): GraphNode {
  const beingDeleted = isBeingDeleted(obj);
  const flags =
    (beingDeleted ? BEING_DELETED : 0) |
    (isDeletingDependents(obj) ? DELETING_DEPENDENTS : 0) |
    (beingDeleted && hasFinalizer(obj, FINALIZER_ORPHAN) ? ORPHANING : 0);
  const namespace = store.namespaceScoped ? obj.metadata.namespace : undefined;
  const version = compactVersion(obj.metadata.resourceVersion);
  const id = uidKey(obj.metadata.uid ?? '');
  const scope = scopeOf(store, namespace, flags);
  const name = obj.metadata.name ?? '';
  const owners = ownersOf(obj);
  return owners === NO_OWNERS ? new UnownedNode(id, scope, name, version) : new OwnedNode(id, scope, name, version, owners);
}

/**
 * Also the index of the informers that feed it (InformerIndex): a node per object is all the
 * state they need, so they keep no copy of their own.
 */
export class DependencyGraph implements InformerIndex {
  private readonly nodes = new Map<string, GraphNode>();
  private readonly dependents = new Map<string, Set<string>>();

  /**
   * With `partial`, the garbage collector keeps a node only for an object it needs one for
   * (GarbageCollector.observe: owner references, being deleted, named as an owner, or a store
   * `keepAll` says to index whole); the informers then rely on their watch for the rest
   * (InformerIndex.partial). Without, a node per object (every object upserted).
   */
  constructor(opts: { partial?: boolean; keepAll?: (store: Store) => boolean } = {}) {
    this.partial = opts.partial === true;
    this.keepAll = opts.keepAll ?? (() => false);
  }

  readonly partial: boolean;
  readonly keepAll: (store: Store) => boolean;

  /** Whether some known dependent names uid as its owner. */
  isOwner(uid: string): boolean {
    return this.dependents.has(uidKey(uid));
  }

  /** Whether some known dependent names node's object as its owner. */
  isOwnerNode(node: GraphNode): boolean {
    return this.dependents.has(node.id);
  }

  get(uid: string): GraphNode | undefined {
    return this.nodes.get(uidKey(uid));
  }

  /** The node of uid when its object was last seen in `store`. */
  find(store: Store, uid: string): GraphNode | undefined {
    const node = this.nodes.get(uidKey(uid));
    return node?.store === store ? node : undefined;
  }

  /** The nodes of one store's objects. */
  objectsOf(store: Store): GraphNode[] {
    const out: GraphNode[] = [];
    for (const node of this.nodes.values()) if (node.store === store) out.push(node);
    return out;
  }

  all(): IterableIterator<GraphNode> {
    return this.nodes.values();
  }

  /** A resource rebuilt over the same storage: its nodes are served by the new store. */
  replaceStore(old: Store, store: Store): void {
    for (const node of this.nodes.values()) if (node.store === old) node.moveTo(store);
  }

  /** Inserts or replaces a node; returns the previous one. */
  upsert(node: GraphNode): GraphNode | undefined {
    const prev = this.nodes.get(node.id);
    if (prev) this.unindex(prev);
    this.nodes.set(node.id, node);
    for (const ref of node.owners) {
      const owner = uidKey(ref.uid);
      let set = this.dependents.get(owner);
      if (!set) this.dependents.set(owner, (set = new Set()));
      set.add(node.id);
    }
    return prev;
  }

  remove(uid: string): GraphNode | undefined {
    const id = uidKey(uid);
    const node = this.nodes.get(id);
    if (!node) return undefined;
    this.unindex(node);
    this.nodes.delete(id);
    this.removals++;
    return node;
  }

  /** Nodes removed so far (a counter: see confirm). */
  private removals = 0;

  /** The graph's state of uid before an API read, for confirm. */
  before(uid: string): { node: GraphNode | undefined; removals: number } {
    return { node: this.nodes.get(uidKey(uid)), removals: this.removals };
  }

  /**
   * The API showed `owner` (read from `store` by a reference's name, with the reference's uid)
   * while dependents name it: its node, when it has only a virtual one or none, is made from the
   * owner's own coordinates and vouches for references that match them (kube's virtual node once
   * verified). Only when the graph did not change that uid meanwhile (`seen`, taken before the
   * read): a node the informer replaced stays, and an owner whose node was removed meanwhile
   * (deleted) never comes back. Its state stays the one last delivered (no deletion flags,
   * resourceVersion unknown), so the owner's next event is seen as a change.
   */
  confirm(seen: { node: GraphNode | undefined; removals: number }, store: Store, owner: KubeObject): void {
    const id = uidKey(owner.metadata.uid ?? '');
    const node = this.nodes.get(id);
    if (node !== seen.node || (node !== undefined && !node.virtual) || !this.dependents.has(id)) return;
    if (node === undefined && this.removals !== seen.removals) return;
    this.nodes.set(id, new UnownedNode(id, scopeOf(store, store.namespaceScoped ? owner.metadata.namespace : undefined, 0), owner.metadata.name ?? '', undefined));
  }

  /** The known dependents of an owner uid. */
  dependentsOf(uid: string): GraphNode[] {
    const out: GraphNode[] = [];
    for (const dep of this.dependents.get(uidKey(uid)) ?? []) {
      const node = this.nodes.get(dep);
      if (node) out.push(node);
    }
    return out;
  }

  /** Dependents whose reference to the owner blocks its foreground deletion. */
  blockingDependentsOf(uid: string): GraphNode[] {
    return this.dependentsOf(uid).filter((d) => d.owners.some((r) => r.uid === uid && r.blockOwnerDeletion === true));
  }

  /**
   * Whether a reference is already known to point at a live owner in the graph with matching
   * coordinates; anything else needs a check against the API.
   */
  resolves(dependent: GraphNode, ref: OwnerReference): boolean {
    const owner = this.nodes.get(uidKey(ref.uid));
    if (!owner || owner.virtual || owner.name !== ref.name || owner.store.definition.kind !== ref.kind) return false;
    return !owner.store.namespaceScoped || owner.namespace === dependent.namespace;
  }

  private unindex(node: GraphNode): void {
    for (const ref of node.owners) {
      const owner = uidKey(ref.uid);
      const set = this.dependents.get(owner);
      if (!set) continue;
      set.delete(node.id);
      if (set.size === 0) this.dependents.delete(owner);
    }
  }
}

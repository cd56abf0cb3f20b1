/**
 * The garbage collector's dependency graph (kube's GraphBuilder uidToNode): every object seen by
 * the informers, by uid, with its owner references, and the reverse index owner uid → dependents.
 * An owner that was never seen (or is gone) still indexes its dependents, so they can be found
 * when the owner turns out to be absent.
 */
import type { KubeObject, OwnerReference } from '../api/meta.js';
import { hasFinalizer, isBeingDeleted, isDeletingDependents, FINALIZER_ORPHAN } from '../registry/deletion.js';
import type { Store } from '../registry/store.js';

export interface GraphNode {
  uid: string;
  store: Store;
  namespace: string | undefined;
  name: string;
  owners: OwnerReference[];
  beingDeleted: boolean;
  deletingDependents: boolean;
  orphaning: boolean;
}

const NO_OWNERS: OwnerReference[] = Object.freeze([]) as unknown as OwnerReference[];

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
  return {
    uid: obj.metadata.uid ?? '',
    store,
    namespace: store.namespaceScoped ? obj.metadata.namespace : undefined,
    name: obj.metadata.name ?? '',
    owners: ownersOf(obj),
    beingDeleted: isBeingDeleted(obj),
    deletingDependents: isDeletingDependents(obj),
    orphaning: isBeingDeleted(obj) && hasFinalizer(obj, FINALIZER_ORPHAN),
  };
}

export class DependencyGraph {
  private readonly nodes = new Map<string, GraphNode>();
  private readonly dependents = new Map<string, Set<string>>();

  get(uid: string): GraphNode | undefined {
    return this.nodes.get(uid);
  }

  all(): IterableIterator<GraphNode> {
    return this.nodes.values();
  }

  /** A resource rebuilt over the same storage: its nodes are served by the new store. */
  replaceStore(old: Store, store: Store): void {
    for (const node of this.nodes.values()) if (node.store === old) node.store = store;
  }

  /** Inserts or replaces a node; returns the previous one. */
  upsert(node: GraphNode): GraphNode | undefined {
    const prev = this.nodes.get(node.uid);
    if (prev) this.unindex(prev);
    this.nodes.set(node.uid, node);
    for (const ref of node.owners) {
      let set = this.dependents.get(ref.uid);
      if (!set) this.dependents.set(ref.uid, (set = new Set()));
      set.add(node.uid);
    }
    return prev;
  }

  remove(uid: string): GraphNode | undefined {
    const node = this.nodes.get(uid);
    if (!node) return undefined;
    this.unindex(node);
    this.nodes.delete(uid);
    return node;
  }

  /** The known dependents of an owner uid. */
  dependentsOf(uid: string): GraphNode[] {
    const out: GraphNode[] = [];
    for (const dep of this.dependents.get(uid) ?? []) {
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
    const owner = this.nodes.get(ref.uid);
    if (!owner || owner.name !== ref.name || owner.store.definition.kind !== ref.kind) return false;
    return !owner.store.namespaceScoped || owner.namespace === dependent.namespace;
  }

  private unindex(node: GraphNode): void {
    for (const ref of node.owners) {
      const set = this.dependents.get(ref.uid);
      if (!set) continue;
      set.delete(node.uid);
      if (set.size === 0) this.dependents.delete(ref.uid);
    }
  }
}

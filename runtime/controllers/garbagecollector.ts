/**
 * The garbage collector (kube-controller-manager's garbagecollector, in process). It keeps the
 * owner graph from every resource's informer and deletes dependents whose owners are gone:
 *
 * - Background: the owner is deleted at once; its DELETED event sends each dependent to
 *   attemptToDelete, which finds the owner reference dangling and deletes the dependent.
 * - Foreground: the owner carries `foregroundDeletion` and a deletionTimestamp; its dependents are
 *   deleted (each in foreground when it has dependents of its own), and once no dependent with
 *   `blockOwnerDeletion` remains the finalizer is removed, which deletes the owner.
 * - Orphan: the owner carries `orphan`; its reference is removed from every dependent, then the
 *   finalizer.
 *
 * References are classified against the API (kube's isDangling): an owner looked up by the
 * reference's kind and name (in the dependent's namespace when the owner kind is namespaced) that
 * is missing or has another uid is dangling. Work only starts once every informer has listed, so
 * an owner is never taken for dangling because its resource was listed later.
 *
 * The monitored resources follow what is served (kube's GC resyncs its monitors with discovery):
 * a resource defined at run time gets a monitor, and the references to its kind, which counted
 * as solid while it was not served, are checked again; a resource that goes loses its monitor.
 */
import type { KubeObject, OwnerReference } from '../api/meta.js';
import { isConflict, isNotFound } from '../api/status.js';
import {
  FINALIZER_FOREGROUND,
  FINALIZER_ORPHAN,
  hasFinalizer,
  isBeingDeleted,
  isDeletingDependents,
  type PropagationPolicy,
} from '../registry/deletion.js';
import type { Store } from '../registry/store.js';
import { DependencyGraph, nodeOf, virtualNodeOf, type GraphNode } from './graph.js';
import type { Log, ResourceInformer, SharedInformers } from './informer.js';
import { WorkQueue, type WorkQueueOptions } from './queue.js';
import type { ResourceCatalog } from './resources.js';

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

interface Classified {
  solid: OwnerReference[];
  dangling: OwnerReference[];
  waiting: OwnerReference[];
}

export class GarbageCollector {
  private readonly attemptToDelete: WorkQueue<string>;
  private readonly attemptToOrphan: WorkQueue<string>;
  private workers: Promise<void>[] = [];

  constructor(
    private readonly catalog: ResourceCatalog,
    informers: SharedInformers,
    private readonly log: Log,
    queueOptions: WorkQueueOptions = {},
    /** The graph; when it is the informers' index (InformerOptions.index), they keep no copies. */
    readonly graph: DependencyGraph = new DependencyGraph(),
  ) {
    this.attemptToDelete = new WorkQueue(queueOptions);
    this.attemptToOrphan = new WorkQueue(queueOptions);
    for (const informer of informers.all) this.monitor(informer);
    informers.onChange({
      added: (informer, replaces) => {
        this.monitor(informer);
        if (replaces) this.graph.replaceStore(replaces.store, informer.store);
        else this.recheckReferencesTo(informer.store);
      },
    });
  }

  private monitor(informer: ResourceInformer): void {
    const store = informer.store;
    informer.addHandlers({
      onAdd: (obj) => this.observe(store, obj),
      onUpdate: (_old, obj) => this.observe(store, obj),
      onDelete: (obj) => this.forget(obj),
    });
  }

  /** A kind served from now on: every reference to it is checked against the API. */
  private recheckReferencesTo(store: Store): void {
    const { group, kind } = store.definition;
    for (const node of [...this.graph.all()]) {
      if (!node.owners.some((ref) => ref.kind === kind && groupOf(ref.apiVersion ?? '') === group)) continue;
      this.ensureOwnerNodes(node);
      this.attemptToDelete.add(node.uid);
    }
  }

  /** Starts processing; call once the informers have synced. */
  run(): void {
    if (this.workers.length > 0) return;
    this.workers = [
      this.attemptToDelete.run((uid) => this.attemptToDeleteItem(uid), (uid, err) => this.failed(this.attemptToDelete, 'delete', uid, err)),
      this.attemptToOrphan.run((uid) => this.orphanDependents(uid), (uid, err) => this.failed(this.attemptToOrphan, 'orphan', uid, err)),
    ];
  }

  async stop(): Promise<void> {
    this.attemptToDelete.shutDown();
    this.attemptToOrphan.shutDown();
    await Promise.all(this.workers);
  }

  /** Keys waiting or in progress; 0 when the collector has nothing to do. */
  get pending(): number {
    return this.attemptToDelete.length + this.attemptToOrphan.length;
  }

  // ---- graph changes (GraphBuilder.processGraphChanges) ----

  private observe(store: Store, obj: KubeObject): void {
    if (!obj.metadata.uid) return;
    const node = nodeOf(store, obj);
    let prev: GraphNode | undefined;
    if (!this.graph.partial || this.needsNode(node)) {
      prev = this.graph.upsert(node);
      if (this.graph.partial) this.ensureOwnerNodes(node);
    } else {
      prev = this.graph.remove(obj.metadata.uid);
    }
    if (prev && this.graph.partial) this.dropIdleOwners(prev, node);
    if (node.deletingDependents && !prev?.deletingDependents) {
      for (const dep of this.graph.dependentsOf(node.uid)) this.attemptToDelete.add(dep.uid);
      this.attemptToDelete.add(node.uid);
    }
    if (node.orphaning && !prev?.orphaning) this.attemptToOrphan.add(node.uid);
    const refsChanged = !prev || JSON.stringify(prev.owners) !== JSON.stringify(node.owners);
    if (!refsChanged) return;
    if (prev) this.requeueUnblockedOwners(prev, node);
    if (node.owners.some((ref) => this.needsCheck(node, ref))) this.attemptToDelete.add(node.uid);
  }

  /**
   * kube's addUnblockedOwnersToDeleteQueue: a reference with blockOwnerDeletion that was removed,
   * or no longer blocks, may be what an owner deleting in foreground waits for: the owner looks
   * again (the dependent itself may stay, e.g. held by a finalizer).
   */
  private requeueUnblockedOwners(prev: GraphNode, now: GraphNode): void {
    for (const ref of prev.owners) {
      if (ref.blockOwnerDeletion !== true) continue;
      if (now.owners.some((r) => r.uid === ref.uid && r.blockOwnerDeletion === true)) continue;
      if (this.graph.get(ref.uid)) this.attemptToDelete.add(ref.uid);
    }
  }

  private forget(obj: KubeObject): void {
    const uid = obj.metadata.uid;
    if (!uid) return;
    const node = this.graph.remove(uid);
    for (const dep of this.graph.dependentsOf(uid)) this.attemptToDelete.add(dep.uid);
    for (const ref of node?.owners ?? []) {
      if (this.graph.get(ref.uid)?.deletingDependents) this.attemptToDelete.add(ref.uid);
    }
    if (node && this.graph.partial) this.dropIdleOwners(node, undefined);
  }

  // ---- which objects have a node (over a partial graph: see DependencyGraph) ----

  /**
   * An object needs a node when the collector may act on it or for it: it has owner references,
   * is being deleted (foreground, orphan, or finalizers pending), some dependent names it as its
   * owner, or its store is indexed whole for the other controllers (namespaces, service accounts).
   * Any other object is neither collected nor waited for; its informer follows it by its watch.
   */
  private needsNode(node: GraphNode): boolean {
    return node.owners.length > 0 || node.beingDeleted || this.graph.isOwnerNode(node) || this.graph.keepAll(node.store);
  }

  /**
   * Every owner a node names gets a node: a virtual one (kube's) from the reference when the graph
   * has none, so the owner's informer reports its deletion (also one found by a relist) and its
   * later changes as updates. A virtual node vouches for nothing: the reference is checked against
   * the API (attemptToDelete), as for an owner never seen.
   */
  private ensureOwnerNodes(node: GraphNode): void {
    for (const ref of node.owners) {
      if (this.graph.get(ref.uid)) continue;
      const ownerStore = this.catalog.forReference(ref.apiVersion ?? '', ref.kind ?? '');
      // Not served (counts as solid), or a namespaced owner of a cluster-scoped object (never valid).
      if (!ownerStore || (ownerStore.namespaceScoped && !node.store.namespaceScoped)) continue;
      this.graph.upsert(virtualNodeOf(ownerStore, ref, node.namespace));
    }
  }

  /** Owners `prev` named that `now` no longer does: a virtual node no dependent names any more goes. */
  private dropIdleOwners(prev: GraphNode, now: GraphNode | undefined): void {
    for (const ref of prev.owners) {
      if (now?.owners.some((r) => r.uid === ref.uid)) continue;
      const owner = this.graph.get(ref.uid);
      if (owner?.virtual && !this.graph.isOwner(ref.uid)) this.graph.remove(ref.uid);
    }
  }

  /** A reference the graph cannot vouch for, or one to an owner deleting its dependents. */
  private needsCheck(node: GraphNode, ref: OwnerReference): boolean {
    if (!this.graph.resolves(node, ref)) return true;
    return this.graph.get(ref.uid)?.deletingDependents === true;
  }

  // ---- attemptToDeleteItem ----

  private async attemptToDeleteItem(uid: string): Promise<void> {
    const node = this.graph.get(uid);
    if (!node) return;
    const latest = await this.getLatest(node);
    if (!latest) return;
    if (isBeingDeleted(latest) && !isDeletingDependents(latest)) return;
    if (isDeletingDependents(latest)) return this.processDeletingDependents(node);
    const refs = latest.metadata.ownerReferences ?? [];
    if (refs.length === 0) return;
    const classified = await this.classifyReferences(node, refs);
    if (!classified) return;
    const { solid, dangling, waiting } = classified;
    if (solid.length > 0) {
      // Still owned: only drop the references to owners that are gone or deleting in foreground.
      const drop = new Set([...dangling, ...waiting].map((r) => r.uid));
      if (drop.size > 0) await this.updateObject(node, (obj) => this.removeOwnerReferences(obj, drop));
      return;
    }
    if (waiting.length > 0 && this.graph.dependentsOf(uid).length > 0) {
      if (this.graph.dependentsOf(uid).some((d) => d.deletingDependents)) {
        // A dependency cycle: stop blocking our owners so foreground deletion can finish.
        await this.updateObject(node, (obj) => this.unblockOwnerReferences(obj));
      }
      return this.deleteObject(node, 'Foreground');
    }
    const policy: PropagationPolicy = hasFinalizer(latest, FINALIZER_ORPHAN)
      ? 'Orphan'
      : hasFinalizer(latest, FINALIZER_FOREGROUND)
        ? 'Foreground'
        : 'Background';
    return this.deleteObject(node, policy);
  }

  /**
   * isDangling per reference. Undefined means "leave the item alone": a cluster-scoped object
   * cannot be owned by a namespaced one (kube reports it and does not retry). References to
   * kinds that are not installed count as solid, so they never cause a deletion.
   */
  private async classifyReferences(node: GraphNode, refs: OwnerReference[]): Promise<Classified | undefined> {
    const out: Classified = { solid: [], dangling: [], waiting: [] };
    for (const ref of refs) {
      const ownerStore = this.catalog.forReference(ref.apiVersion ?? '', ref.kind ?? '');
      if (!ownerStore) {
        out.solid.push(ref);
        continue;
      }
      if (ownerStore.namespaceScoped && !node.store.namespaceScoped) return undefined;
      const seen = this.graph.before(ref.uid);
      const owner = await this.getOrUndefined(ownerStore, ownerStore.namespaceScoped ? node.namespace : undefined, ref.name);
      if (!owner || owner.metadata.uid !== ref.uid) out.dangling.push(ref);
      else {
        if (this.graph.partial) this.graph.confirm(seen, ownerStore, owner);
        if (isDeletingDependents(owner)) out.waiting.push(ref);
        else out.solid.push(ref);
      }
    }
    return out;
  }

  /** processDeletingDependentsItem: remove `foregroundDeletion` once no blocking dependent remains. */
  private async processDeletingDependents(node: GraphNode): Promise<void> {
    const blocking = this.graph.blockingDependentsOf(node.uid);
    if (blocking.length === 0) return this.removeFinalizer(node, FINALIZER_FOREGROUND);
    for (const dep of blocking) if (!dep.deletingDependents) this.attemptToDelete.add(dep.uid);
  }

  // ---- attemptToOrphan ----

  private async orphanDependents(uid: string): Promise<void> {
    const node = this.graph.get(uid);
    if (!node) return;
    const latest = await this.getLatest(node);
    if (!latest || !isBeingDeleted(latest) || !hasFinalizer(latest, FINALIZER_ORPHAN)) return;
    for (const dep of this.graph.dependentsOf(uid)) {
      await this.updateObject(dep, (obj) => this.removeOwnerReferences(obj, new Set([uid])));
    }
    await this.removeFinalizer(node, FINALIZER_ORPHAN);
  }

  // ---- API calls, all through the stores ----

  private async getLatest(node: GraphNode): Promise<KubeObject | undefined> {
    const obj = await this.getOrUndefined(node.store, node.namespace, node.name);
    return obj && obj.metadata.uid === node.uid ? obj : undefined;
  }

  private async getOrUndefined(store: Store, namespace: string | undefined, name: string): Promise<KubeObject | undefined> {
    try {
      return await store.get(namespace, name);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** Deletes with a uid precondition, so a re-created object of the same name is never hit. */
  private async deleteObject(node: GraphNode, propagationPolicy: PropagationPolicy): Promise<void> {
    try {
      await node.store.delete(node.namespace, node.name, { preconditions: { uid: node.uid }, propagationPolicy });
    } catch (err) {
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
  }

  /** Applies `mutate` to the current object of this uid; a vanished object is not an error. */
  private async updateObject(node: GraphNode, mutate: (obj: KubeObject) => boolean): Promise<void> {
    class Unchanged extends Error {}
    try {
      await node.store.update(node.namespace, node.name, {
        updatedObject: (current) => {
          if (current.metadata.uid !== node.uid) throw new Unchanged();
          if (!mutate(current)) throw new Unchanged();
          return current;
        },
      });
    } catch (err) {
      if (err instanceof Unchanged || isNotFound(err)) return;
      throw err;
    }
  }

  private removeFinalizer(node: GraphNode, finalizer: string): Promise<void> {
    return this.updateObject(node, (obj) => {
      const finalizers = obj.metadata.finalizers ?? [];
      if (!finalizers.includes(finalizer)) return false;
      obj.metadata.finalizers = finalizers.filter((f) => f !== finalizer);
      return true;
    });
  }

  private removeOwnerReferences(obj: KubeObject, uids: Set<string>): boolean {
    const refs = obj.metadata.ownerReferences ?? [];
    const kept = refs.filter((r) => !uids.has(r.uid));
    if (kept.length === refs.length) return false;
    if (kept.length > 0) obj.metadata.ownerReferences = kept;
    else delete obj.metadata.ownerReferences;
    return true;
  }

  private unblockOwnerReferences(obj: KubeObject): boolean {
    let changed = false;
    for (const ref of obj.metadata.ownerReferences ?? []) {
      if (ref.blockOwnerDeletion) {
        ref.blockOwnerDeletion = false;
        changed = true;
      }
    }
    return changed;
  }

  /**
   * kube's attemptToDeleteWorker and attemptToOrphanWorker: any error is logged and the item added
   * again rate-limited (requeueItem → AddRateLimited), never dropped, as a failure that outlasts a
   * few retries (storage away, an owner's kind not yet served) would otherwise wait for the
   * object's next change, which may never come.
   */
  private failed(queue: WorkQueue<string>, what: string, uid: string, err: unknown): void {
    queue.addRateLimited(uid);
    const node = this.graph.get(uid);
    const name = node ? `${node.store.definition.plural} ${node.namespace ? `${node.namespace}/` : ''}${node.name}` : uid;
    this.log(`garbage collector: error syncing ${what} of ${name} (retry ${queue.numRequeues(uid)}): ${(err as Error).message}`);
  }
}

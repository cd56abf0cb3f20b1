/**
 * The namespace controller (kube-controller-manager's namespace controller and its
 * namespacedResourcesDeleter, in process). For every namespace with a deletionTimestamp that still
 * carries the `kubernetes` spec finalizer it deletes every namespaced object of every installed
 * resource in it (propagationPolicy Background), records progress in the namespace's conditions,
 * and once nothing is left removes its finalizer through `namespaces/<name>/finalize`, which
 * deletes the namespace. The resources are those served at the time of each sync, custom resources
 * included (kube's deleter uses discovery). Objects held by their own finalizers are waited for: any change to an
 * object in a terminating namespace brings the namespace back into the queue, so there is no
 * polling.
 */
import type { KubeObject } from '../api/meta.js';
import type { RequestScope } from '../endpoints/handler.js';
import { isConflict, isNotFound } from '../api/status.js';
import { finalizersOf, isBeingDeleted } from '../registry/deletion.js';
import { FINALIZER_KUBERNETES, namespaceFinalizeStore, namespaceFinalizers } from '../registry/namespaces.js';
import { nowRFC3339 } from '../registry/objectmeta.js';
import type { Log, ResourceInformer, SharedInformers } from './informer.js';
import { WorkQueue, type WorkQueueOptions } from './queue.js';
import { NAMESPACE_MAX_DELAY_MS } from './ratelimiter.js';
import type { ResourceCatalog } from './resources.js';
import type { NamespaceCondition } from '../../generated/models/core/v1.js';

interface Remaining {
  /** `widgets.example.com` → objects left. */
  resources: Map<string, number>;
  /** finalizer → objects carrying it. */
  finalizers: Map<string, number>;
}


export class NamespaceController {
  private readonly queue: WorkQueue<string>;
  private readonly terminating = new Set<string>();
  private worker: Promise<void> | undefined;

  constructor(
    private readonly catalog: ResourceCatalog,
    private readonly namespaces: RequestScope,
    informers: SharedInformers,
    private readonly log: Log,
    queueOptions: WorkQueueOptions = {},
  ) {
    // nsControllerRateLimiter: as the default controller's, but never longer than a minute.
    this.queue = new WorkQueue({ maxDelayMs: NAMESPACE_MAX_DELAY_MS, ...queueOptions });
    informers.informerFor(namespaces.store)?.addHandlers({
      onAdd: (ns) => this.observeNamespace(ns),
      onUpdate: (_old, ns) => this.observeNamespace(ns),
      onDelete: (ns) => this.terminating.delete(ns.metadata.name ?? ''),
    });
    for (const informer of informers.all) this.watchContent(informer);
    informers.onChange({ added: (informer) => this.watchContent(informer), removed: (informer) => this.wakeAllIf(informer) });
  }

  /**
   * After a relist, or when a resource goes, every terminating namespace looks again: over the
   * GC's partial index an informer reports no deletion, found by a relist, of an object it did not
   * index (InformerIndex.partial), and a namespace may have waited for nothing else.
   */
  private wakeAllIf(informer: ResourceInformer): void {
    if (!informer.store.namespaceScoped) return;
    for (const ns of this.terminating) this.queue.add(ns);
  }

  /** Any change to an object of a terminating namespace brings the namespace back. */
  private watchContent(informer: ResourceInformer): void {
    if (!informer.store.namespaceScoped) return;
    const wake = (obj: KubeObject) => {
      const ns = obj.metadata.namespace;
      if (ns && this.terminating.has(ns)) this.queue.add(ns);
    };
    informer.addHandlers({ onUpdate: (_old, obj) => wake(obj), onDelete: wake, onRelist: () => this.wakeAllIf(informer) });
  }

  run(): void {
    this.worker ??= this.queue.run((name) => this.sync(name), (name, err) => this.failed(name, err));
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    await this.worker;
  }

  get pending(): number {
    return this.queue.length;
  }

  private observeNamespace(ns: KubeObject): void {
    const name = ns.metadata.name ?? '';
    if (!isBeingDeleted(ns)) {
      this.terminating.delete(name);
      return;
    }
    this.terminating.add(name);
    this.queue.add(name);
  }

  /** namespacedResourcesDeleter.Delete for one namespace. */
  private async sync(name: string): Promise<void> {
    const ns = await this.getNamespace(name);
    if (!ns || !isBeingDeleted(ns) || !namespaceFinalizers(ns).includes(FINALIZER_KUBERNETES)) return;
    const remaining = await this.deleteAllContent(name);
    await this.updateConditions(name, remaining);
    if (remaining.resources.size > 0) return; // woken again by the changes of what is left
    await this.finalize(name);
  }

  /** Deletes what is not yet being deleted and reports what is still there. */
  private async deleteAllContent(namespace: string): Promise<Remaining> {
    const remaining: Remaining = { resources: new Map(), finalizers: new Map() };
    for (const scope of this.catalog.namespacedScopes) {
      const { store } = scope;
      const list = await store.list(namespace, {});
      for (const item of list.items) {
        let obj: KubeObject | undefined = item;
        if (!isBeingDeleted(item)) obj = await this.deleteItem(scope, namespace, item);
        if (!obj) continue;
        const gr = store.definition.group ? `${store.definition.plural}.${store.definition.group}` : store.definition.plural;
        remaining.resources.set(gr, (remaining.resources.get(gr) ?? 0) + 1);
        for (const f of finalizersOf(obj)) remaining.finalizers.set(f, (remaining.finalizers.get(f) ?? 0) + 1);
      }
    }
    return remaining;
  }

  /** Returns the object when it is still there (held by finalizers), undefined when gone. */
  private async deleteItem(scope: RequestScope, namespace: string, item: KubeObject): Promise<KubeObject | undefined> {
    try {
      const result = await scope.store.deleteObject(namespace, item.metadata.name ?? '', {
        propagationPolicy: 'Background',
        preconditions: { uid: item.metadata.uid },
      });
      return result.deleted ? undefined : result.object;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      if (isConflict(err)) return item; // re-created meanwhile; the next sync sees it
      throw err;
    }
  }

  /** Removes the `kubernetes` finalizer through the finalize subresource (deleting the namespace). */
  private async finalize(name: string): Promise<void> {
    try {
      await namespaceFinalizeStore(this.namespaces.store).update(undefined, name, {
        updatedObject: (current) => {
          const spec = (current.spec ?? {}) as { finalizers?: string[] };
          spec.finalizers = namespaceFinalizers(current).filter((f) => f !== FINALIZER_KUBERNETES);
          current.spec = spec;
          return current;
        },
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /** The deletion conditions kube's namespace controller keeps on a terminating namespace. */
  private async updateConditions(name: string, remaining: Remaining): Promise<void> {
    const statusStore = this.namespaces.statusStore;
    if (!statusStore) return;
    const wanted = conditionsFor(remaining);
    try {
      await statusStore.update(undefined, name, {
        updatedObject: (current) => {
          const status = (current.status ?? {}) as { conditions?: NamespaceCondition[] };
          status.conditions = mergeConditions(status.conditions ?? [], wanted);
          current.status = status;
          return current;
        },
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  private async getNamespace(name: string): Promise<KubeObject | undefined> {
    try {
      return await this.namespaces.store.get(undefined, name);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** kube's namespace controller worker: a failed deletion is logged and added again rate-limited, never dropped. */
  private failed(name: string, err: unknown): void {
    this.queue.addRateLimited(name);
    this.log(`namespace controller: deletion of namespace ${name} failed (retry ${this.queue.numRequeues(name)}): ${(err as Error).message}`);
  }
}

function conditionsFor(remaining: Remaining): NamespaceCondition[] {
  const list = (m: Map<string, number>, fmt: (k: string, n: number) => string) =>
    [...m.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, n]) => fmt(k, n))
      .join(', ');
  const conditions: NamespaceCondition[] = [
    { type: 'NamespaceDeletionDiscoveryFailure', status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
    { type: 'NamespaceDeletionGroupVersionParsingFailure', status: 'False', reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
    { type: 'NamespaceDeletionContentFailure', status: 'False', reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
  ];
  conditions.push(
    remaining.resources.size > 0
      ? {
          type: 'NamespaceContentRemaining',
          status: 'True',
          reason: 'SomeResourcesRemain',
          message: `Some resources are remaining: ${list(remaining.resources, (gr, n) => `${gr} has ${n} resource instances`)}`,
        }
      : { type: 'NamespaceContentRemaining', status: 'False', reason: 'ContentRemoved', message: 'All content successfully removed' },
  );
  conditions.push(
    remaining.finalizers.size > 0
      ? {
          type: 'NamespaceFinalizersRemaining',
          status: 'True',
          reason: 'SomeFinalizersRemain',
          message: `Some content in the namespace has finalizers remaining: ${list(remaining.finalizers, (f, n) => `${f} in ${n} resource instances`)}`,
        }
      : { type: 'NamespaceFinalizersRemaining', status: 'False', reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
  );
  return conditions;
}

/** Sets each wanted condition, keeping lastTransitionTime unless its status changed. */
function mergeConditions(current: NamespaceCondition[], wanted: NamespaceCondition[]): NamespaceCondition[] {
  const out = current.filter((c) => !wanted.some((w) => w.type === c.type));
  for (const w of wanted) {
    const old = current.find((c) => c.type === w.type);
    const unchanged = old && old.status === w.status && old.reason === w.reason && old.message === w.message;
    if (unchanged) out.push(old);
    else out.push({ ...w, lastTransitionTime: old && old.status === w.status && old.lastTransitionTime ? old.lastTransitionTime : nowRFC3339() });
  }
  return out;
}

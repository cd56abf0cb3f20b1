/**
 * The in-process controllers kgen runs next to its API server, as kube-controller-manager runs
 * them next to kube-apiserver: the garbage collector and the namespace controller, over shared
 * informers of every installed resource. startControllers() returns at once, and the informers
 * start listing on the next turn of the event loop; work starts when every informer has listed
 * (so pending work left by a crash is found and finished), and stop() closes every watch, clears
 * every timer and waits for the work in progress. With `dynamic` (the extensions server),
 * resources defined at run time are watched while they are served.
 */
import { GarbageCollector } from './garbagecollector.js';
import { DependencyGraph } from './graph.js';
import { SharedInformers, type Log } from './informer.js';
import { NamespaceController } from './namespace.js';
import { DEFAULT_EVENT_TTL_MS, EventTTLController } from './eventttl.js';
import { ServiceAccountsController } from './serviceaccounts.js';
import type { WorkQueueOptions } from './queue.js';
import type { Store } from '../registry/store.js';
import { ResourceCatalog, type CatalogChange, type DynamicAPIs, type InstalledAPIs } from './resources.js';

export { GarbageCollector } from './garbagecollector.js';
export { NamespaceController } from './namespace.js';
export { EventTTLController, DEFAULT_EVENT_TTL_MS } from './eventttl.js';
export { ServiceAccountsController, DEFAULT_SERVICE_ACCOUNT } from './serviceaccounts.js';
export { SharedInformers, ResourceInformer, metadataOnly, type IndexedObject, type InformerHandlers, type InformerIndex, type InformerOptions, type InformerSetListener, type InformerTransform } from './informer.js';
export { ResourceCatalog, type CatalogChange, type DynamicAPIs, type InstalledAPIs } from './resources.js';
export { WorkQueue, type WorkQueueMetrics, type WorkQueueOptions } from './queue.js';

export interface ControllerOptions {
  apis: InstalledAPIs;
  /** Resources defined at run time (the extensions server's custom resources). */
  dynamic?: DynamicAPIs;
  log?: Log;
  /** Retry backoff and limits of the controllers' work queues. */
  queue?: WorkQueueOptions;
  /** kube's --event-ttl: how long an Event lives after its last write (default 1 h; 0 keeps them). */
  eventTTLMs?: number;
}

export interface RunningControllers {
  garbageCollector: GarbageCollector;
  namespaceController?: NamespaceController;
  serviceAccountsController?: ServiceAccountsController;
  eventTTLController?: EventTTLController;
  /** The informers both controllers share (`resources()` lists what is monitored). */
  informers: SharedInformers;
  /** Resolves once every informer has listed and the controllers are working. */
  readonly synced: Promise<void>;
  /** True when both controllers have nothing queued or in progress. */
  idle(): boolean;
  stop(): Promise<void>;
}

export function startControllers(opts: ControllerOptions): RunningControllers {
  const log = opts.log ?? (() => undefined);
  const catalog = new ResourceCatalog(opts.apis, opts.dynamic);
  // Neither controller reads the informers' copies (the namespace controller lists a namespace's
  // content when deleting it, as kube's does): the GC's graph is the informers' only index. It is
  // partial (DependencyGraph): a node only for the objects the GC needs one for, and for every
  // namespace and service account (the namespace and service account controllers act on their
  // deletions, also those a relist finds); the namespace controller looks again after a relist.
  const graph = new DependencyGraph({ partial: true, keepAll: indexedWhole });
  const informers = new SharedInformers(catalog.stores, log, { index: graph });
  const garbageCollector = new GarbageCollector(catalog, informers, log, opts.queue, graph);
  const namespaces = catalog.namespaces;
  const namespaceController = namespaces ? new NamespaceController(catalog, namespaces, informers, log, opts.queue) : undefined;
  const coreScope = (plural: string) => catalog.scopes.find((s) => s.definition.group === '' && s.definition.plural === plural);
  const serviceAccounts = coreScope('serviceaccounts');
  const serviceAccountsController = namespaces && serviceAccounts ? new ServiceAccountsController(serviceAccounts, namespaces, informers, log) : undefined;
  const events = coreScope('events');
  const eventTTLController = events ? new EventTTLController(events, opts.eventTTLMs ?? DEFAULT_EVENT_TTL_MS, log) : undefined;
  let stopped = false;
  const unsubscribe = opts.dynamic?.onChange(() => {
    if (!stopped) resync(informers, catalog.refresh(), log);
  });
  // The informers' first lists (one per served resource) start on the next turn of the event
  // loop, not in the caller's: a server reports ready first, as kube-apiserver's readiness does
  // not wait for kube-controller-manager. They list whatever was written meanwhile.
  const synced = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
    if (stopped) return;
    await informers.start();
    if (stopped) return;
    garbageCollector.run();
    namespaceController?.run();
    serviceAccountsController?.run();
    eventTTLController?.run();
  });
  let stopping: Promise<void> | undefined;
  return {
    garbageCollector,
    namespaceController,
    serviceAccountsController,
    eventTTLController,
    informers,
    synced,
    idle: () => garbageCollector.pending === 0 && (namespaceController?.pending ?? 0) === 0 && (serviceAccountsController?.pending ?? 0) === 0,
    stop() {
      stopping ??= (async () => {
        stopped = true;
        unsubscribe?.();
        await informers.stop();
        await synced;
        await Promise.all([garbageCollector.stop(), namespaceController?.stop(), serviceAccountsController?.stop(), eventTTLController?.stop()]);
      })();
      return stopping;
    },
  };
}

/** The core resources whose every object has a node (see startControllers). */
function indexedWhole(store: Store): boolean {
  const { group, plural } = store.definition;
  return group === '' && (plural === 'namespaces' || plural === 'serviceaccounts');
}

/** The informers follow the catalog: rebuilt resources hand over, new ones start, gone ones stop. */
function resync(informers: SharedInformers, change: CatalogChange, log: Log): void {
  for (const { old, scope } of change.replaced) informers.add(scope.store, old.store);
  for (const scope of change.added) informers.add(scope.store);
  for (const scope of change.removed) {
    informers.remove(scope.store).catch((err: unknown) => log(`controllers: stopping the informer of ${scope.definition.plural}: ${(err as Error).message}`));
  }
}

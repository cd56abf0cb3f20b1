/**
 * The in-process controllers kgen runs next to its API server, as kube-controller-manager runs
 * them next to kube-apiserver: the garbage collector and the namespace controller, over shared
 * informers of every installed resource. startControllers() returns at once; work starts when
 * every informer has listed (so pending work left by a crash is found and finished), and stop()
 * closes every watch, clears every timer and waits for the work in progress.
 */
import { GarbageCollector } from './garbagecollector.js';
import { SharedInformers, type Log } from './informer.js';
import { NamespaceController } from './namespace.js';
import type { WorkQueueOptions } from './queue.js';
import { ResourceCatalog, type InstalledAPIs } from './resources.js';

export { GarbageCollector } from './garbagecollector.js';
export { NamespaceController } from './namespace.js';
export { SharedInformers, ResourceInformer, type InformerHandlers } from './informer.js';
export { ResourceCatalog, type InstalledAPIs } from './resources.js';
export { WorkQueue, type WorkQueueOptions } from './queue.js';

export interface ControllerOptions {
  apis: InstalledAPIs;
  log?: Log;
  /** Retry backoff and limits of the controllers' work queues. */
  queue?: WorkQueueOptions;
}

export interface RunningControllers {
  garbageCollector: GarbageCollector;
  namespaceController?: NamespaceController;
  /** Resolves once every informer has listed and the controllers are working. */
  readonly synced: Promise<void>;
  /** True when both controllers have nothing queued or in progress. */
  idle(): boolean;
  stop(): Promise<void>;
}

export function startControllers(opts: ControllerOptions): RunningControllers {
  const log = opts.log ?? (() => undefined);
  const catalog = new ResourceCatalog(opts.apis);
  const informers = new SharedInformers(catalog.stores, log);
  const garbageCollector = new GarbageCollector(catalog, informers, log, opts.queue);
  const namespaces = catalog.namespaces;
  const namespaceController = namespaces ? new NamespaceController(catalog, namespaces, informers, log, opts.queue) : undefined;
  let stopped = false;
  const synced = informers.start().then(() => {
    if (stopped) return;
    garbageCollector.run();
    namespaceController?.run();
  });
  let stopping: Promise<void> | undefined;
  return {
    garbageCollector,
    namespaceController,
    synced,
    idle: () => garbageCollector.pending === 0 && (namespaceController?.pending ?? 0) === 0,
    stop() {
      stopping ??= (async () => {
        stopped = true;
        await informers.stop();
        await synced;
        await Promise.all([garbageCollector.stop(), namespaceController?.stop()]);
      })();
      return stopping;
    },
  };
}

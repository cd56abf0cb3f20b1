/**
 * SharedIndexInformer: a Reflector feeding an Indexer and event handlers, as client-go's
 * tools/cache.SharedIndexInformer. One informer per resource (and namespace/selector) serves any
 * number of handlers and listers from one list+watch.
 *
 * - start() lists in pages (500 by default) and watches; hasSynced() turns true, and waitForSync()
 *   resolves, once the initial list is in the cache and its onAdd calls (isInInitialList=true) made.
 * - Every change updates the cache first, then calls the handlers in registration order:
 *   onAdd(obj), onUpdate(old, new), onDelete(lastState). A handler added to a running informer
 *   first gets onAdd for everything already cached, as client-go does.
 * - Watch and list failures are retried with backoff forever (told to onError); a 410 relists and
 *   turns the difference into handler calls, so handlers never miss a change.
 * - resyncPeriodMs > 0 calls onUpdate(obj, obj) for every cached object that often.
 * Handlers run synchronously; a throwing handler is reported to onError and the others still run.
 */
import type { APIObject } from '../../../runtime/api/meta.js';
import type { BackoffOptions } from './backoff.js';
import { Indexer, type IndexFunc } from './indexer.js';
import { Lister } from './lister.js';
import { Reflector, metaNamespaceKey, type ReflectorEvent } from './reflector.js';
import type { ResourceClient } from './resource.js';

export interface ResourceEventHandler<T> {
  /** isInInitialList: the object came with the initial list (or was cached when the handler was added). */
  onAdd?(obj: T, isInInitialList: boolean): void;
  onUpdate?(oldObj: T, newObj: T): void;
  /** The object's final state; after a relist, the last state the informer had seen. */
  onDelete?(obj: T): void;
}

export interface HandlerRegistration {
  remove(): void;
  hasSynced(): boolean;
}

export interface InformerOptions<T> {
  labelSelector?: string;
  fieldSelector?: string;
  /** onUpdate(obj, obj) for every cached object this often; 0 or undefined: never. */
  resyncPeriodMs?: number;
  /** List page size; default 500. */
  pageSize?: number;
  backoff?: BackoffOptions;
  watchTimeoutSeconds?: number;
  /** Extra indices for the cache, as client-go's cache.Indexers. */
  indexers?: Record<string, IndexFunc<T>>;
  /** Told of list/watch errors (then retried) and of handler exceptions. Default: console.warn. */
  onError?: (err: unknown) => void;
}

export class SharedIndexInformer<T extends APIObject> {
  readonly indexer: Indexer<T>;
  private readonly handlers = new Set<ResourceEventHandler<T>>();
  private readonly reflector: Reflector<T>;
  private readonly abort = new AbortController();
  private loop?: Promise<void>;
  private synced = false;
  private stopped = false;
  private readonly syncWaiters = new Set<{ resolve: () => void; reject: (err: Error) => void }>();
  private resyncTimer?: NodeJS.Timeout;
  private cachedLister?: Lister<T>;

  constructor(
    readonly client: ResourceClient<T>,
    private readonly opts: InformerOptions<T> = {},
  ) {
    this.indexer = new Indexer<T>(opts.indexers);
    this.reflector = new Reflector(client, {
      labelSelector: opts.labelSelector,
      fieldSelector: opts.fieldSelector,
      pageSize: opts.pageSize,
      backoff: opts.backoff,
      watchTimeoutSeconds: opts.watchTimeoutSeconds,
      shouldRetry: () => true,
      onError: (err) => this.report(err),
      signal: this.abort.signal,
    });
  }

  addEventHandler(handler: ResourceEventHandler<T>): HandlerRegistration {
    this.handlers.add(handler);
    if (this.loop) for (const obj of this.indexer.list()) this.call(() => handler.onAdd?.(obj, true));
    return { remove: () => this.handlers.delete(handler), hasSynced: () => this.synced };
  }

  /** Starts listing and watching in the background; a second call does nothing. */
  start(): void {
    if (this.stopped) throw new Error('informer has been stopped; create a new one');
    this.loop ??= this.run();
  }

  /** Stops watching; the cache keeps its contents. Resolves once the watch has closed. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort(new Error('informer stopped'));
    await this.loop;
  }

  hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves once synced; rejects if the informer stops first or the signal aborts. */
  waitForSync(signal?: AbortSignal): Promise<void> {
    if (this.synced) return Promise.resolve();
    if (this.stopped) return Promise.reject(new Error('informer stopped before it synced'));
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject: (err: Error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(err);
        },
      };
      const onAbort = () => {
        this.syncWaiters.delete(waiter);
        reject(signal!.reason);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.syncWaiters.add(waiter);
    });
  }

  /** A typed lister over the cache. */
  lister(): Lister<T> {
    return (this.cachedLister ??= new Lister(this.indexer, this.client.resource, this.client.namespace));
  }

  /** The resourceVersion the cache is current at (the last event or list seen). */
  lastSyncResourceVersion(): string {
    return this.reflector.resourceVersion;
  }

  private async run(): Promise<void> {
    try {
      for await (const event of this.reflector.run()) this.process(event);
    } catch (err) {
      this.report(err);
    } finally {
      clearInterval(this.resyncTimer);
      for (const waiter of this.syncWaiters) waiter.reject(new Error('informer stopped before it synced'));
      this.syncWaiters.clear();
    }
  }

  private process(event: ReflectorEvent<T>): void {
    switch (event.type) {
      case 'SYNCED':
        if (!this.synced) this.markSynced();
        return;
      case 'BOOKMARK':
        return;
      case 'DELETED': {
        const old = this.indexer.deleteKey(metaNamespaceKey(event.object));
        return this.dispatch((h) => h.onDelete?.(event.object ?? old));
      }
      default: {
        const obj = event.object;
        const old = this.indexer.upsert(obj);
        if (old) this.dispatch((h) => h.onUpdate?.(old, obj));
        else this.dispatch((h) => h.onAdd?.(obj, !this.synced));
      }
    }
  }

  private markSynced(): void {
    this.synced = true;
    for (const waiter of this.syncWaiters) waiter.resolve();
    this.syncWaiters.clear();
    const period = this.opts.resyncPeriodMs ?? 0;
    if (period > 0) {
      this.resyncTimer = setInterval(() => {
        for (const obj of this.indexer.list()) this.dispatch((h) => h.onUpdate?.(obj, obj));
      }, period);
      this.resyncTimer.unref();
    }
  }

  private dispatch(fn: (handler: ResourceEventHandler<T>) => void): void {
    for (const handler of [...this.handlers]) this.call(() => fn(handler));
  }

  private call(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.report(err);
    }
  }

  private report(err: unknown): void {
    if (this.opts.onError) {
      try {
        this.opts.onError(err);
      } catch {
        // An error handler that throws has nowhere further to report to.
      }
    } else console.warn(`informer ${this.client.resource.plural}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * A controller runner (controller-runtime's Controller over client-go's pieces): informers feed a
 * rate-limited work queue with `namespace/name` keys; N workers call reconcile(key); the result
 * decides what happens next:
 *
 * - resolves with nothing (or `{}`): done; the key's failures are forgotten;
 * - `{ requeueAfter: ms }`: forgotten, and added again after ms;
 * - `{ requeue: true }`: added again through the rate limiter (backoff);
 * - throws: added again through the rate limiter (per-item exponential backoff and the overall
 *   bucket), reported to onError.
 *
 * Workers start only once every informer has synced. With leader election, the informers run on
 * every replica (so a new leader starts warm) and the workers only while leading; when leadership
 * is lost the controller stops (the process should exit, as controller-runtime's manager does, so
 * that it never acts on a stale view).
 */
import type { APIObject } from '../../../../runtime/api/meta.js';
import type { ResourceEventHandler } from '../informer.js';
import { metaNamespaceKey } from '../reflector.js';
import { realClock, type ToolkitClock } from './clock.js';
import { LeaderElector, type LeaderElectionConfig } from './leaderelection.js';
import type { WorkQueueRateLimiter } from './ratelimiter.js';
import { WorkQueue, type WorkQueueMetrics } from './workqueue.js';

export interface ReconcileResult {
  requeue?: boolean;
  requeueAfter?: number;
}

export type Reconciler = (key: string, signal: AbortSignal) => Promise<ReconcileResult | void>;

/** What the runner needs of an informer (a generated `informers.<gv>.<resource>().informer()` has it). */
export interface InformerLike {
  addEventHandler(handler: ResourceEventHandler<APIObject>): unknown;
  start(): void;
  stop(): Promise<void>;
  waitForSync(signal?: AbortSignal): Promise<void>;
}

/** An informer with a mapping from its objects to the keys to reconcile. */
export interface WatchSource {
  informer: InformerLike;
  /** Keys to enqueue for an object; default its own `namespace/name`. */
  keys?(obj: APIObject): string[];
}

export interface ControllerOptions {
  name: string;
  /** The primary resource's informer: its objects' own keys are enqueued. */
  informer: InformerLike;
  /** Other informers (owned objects: map them with `ownerKeys(kind)`). */
  watches?: WatchSource[];
  reconcile: Reconciler;
  /** Workers reconciling at once (different keys only); default 1. */
  workers?: number;
  rateLimiter?: WorkQueueRateLimiter<string>;
  metrics?: WorkQueueMetrics<string>;
  /** Run the workers only while leading; the callbacks given here are called too. */
  leaderElection?: Omit<LeaderElectionConfig, 'callbacks'> & { callbacks?: Partial<LeaderElectionConfig['callbacks']> };
  clock?: ToolkitClock;
  onError?(err: unknown, key?: string): void;
}

/** Keys of the controlling owner of the given kind (EnqueueRequestForOwner with OnlyControllerOwner). */
export function ownerKeys(kind: string, apiGroup?: string): (obj: APIObject) => string[] {
  return (obj) => {
    const ref = obj.metadata?.ownerReferences?.find((r) => r.controller === true);
    if (!ref || ref.kind !== kind) return [];
    if (apiGroup !== undefined && (ref.apiVersion.includes('/') ? ref.apiVersion.split('/')[0] : '') !== apiGroup) return [];
    const namespace = obj.metadata?.namespace;
    return [namespace ? `${namespace}/${ref.name}` : ref.name];
  };
}

export class Controller {
  readonly queue: WorkQueue<string>;
  private readonly sources: WatchSource[];
  private readonly workers: number;
  private leading = false;
  private elector?: LeaderElector;

  constructor(private readonly opts: ControllerOptions) {
    this.queue = new WorkQueue<string>({ name: opts.name, clock: opts.clock ?? realClock, rateLimiter: opts.rateLimiter, metrics: opts.metrics });
    this.sources = [{ informer: opts.informer }, ...(opts.watches ?? [])];
    this.workers = Math.max(1, opts.workers ?? 1);
    for (const source of this.sources) {
      const enqueue = (obj: APIObject) => {
        for (const key of source.keys ? source.keys(obj) : [metaNamespaceKey(obj)]) this.queue.add(key);
      };
      source.informer.addEventHandler({ onAdd: enqueue, onUpdate: (_old, obj) => enqueue(obj), onDelete: enqueue });
    }
  }

  /** True while this replica runs the workers (always true without leader election, once started). */
  isLeading(): boolean {
    return this.leading;
  }

  /** The leader elector, with leader election. */
  get leaderElector(): LeaderElector | undefined {
    return this.elector;
  }

  /**
   * Starts the informers, waits for them to sync, then runs the workers (while leading, with
   * leader election) until `signal` aborts or leadership is lost; then drains the queue and stops
   * the informers. Resolves when everything has stopped.
   */
  async run(signal: AbortSignal): Promise<void> {
    for (const { informer } of this.sources) informer.start();
    try {
      await Promise.all(this.sources.map(({ informer }) => informer.waitForSync(signal)));
      if (!this.opts.leaderElection) {
        await this.runWorkers(signal);
        return;
      }
      const le = this.opts.leaderElection;
      let workers: Promise<void> | undefined;
      this.elector = new LeaderElector({
        ...le,
        clock: le.clock ?? this.opts.clock,
        callbacks: {
          onStartedLeading: (leadingSignal) => {
            workers = this.runWorkers(leadingSignal);
            return le.callbacks?.onStartedLeading?.(leadingSignal);
          },
          onStoppedLeading: () => le.callbacks?.onStoppedLeading?.(),
          onNewLeader: (id) => le.callbacks?.onNewLeader?.(id),
        },
        onError: le.onError ?? ((err) => this.opts.onError?.(err)),
      });
      await this.elector.run(signal);
      await workers;
    } catch (err) {
      if (!signal.aborted) throw err;
    } finally {
      this.queue.shutDown();
      await Promise.all(this.sources.map(({ informer }) => informer.stop()));
    }
  }

  private async runWorkers(signal: AbortSignal): Promise<void> {
    this.leading = true;
    const stop = () => void this.queue.shutDownWithDrain();
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
    try {
      await Promise.all(Array.from({ length: this.workers }, () => this.worker(signal)));
      await this.queue.shutDownWithDrain();
    } finally {
      signal.removeEventListener('abort', stop);
      this.leading = false;
    }
  }

  private async worker(signal: AbortSignal): Promise<void> {
    for (;;) {
      const next = await this.queue.get();
      if (next.shutdown) return;
      await this.process(next.item, signal);
    }
  }

  private async process(key: string, signal: AbortSignal): Promise<void> {
    try {
      const result = (await this.opts.reconcile(key, signal)) ?? {};
      if (result.requeueAfter !== undefined && result.requeueAfter > 0) {
        this.queue.forget(key);
        this.queue.addAfter(key, result.requeueAfter);
      } else if (result.requeue) this.queue.addRateLimited(key);
      else this.queue.forget(key);
    } catch (err) {
      this.opts.onError?.(err, key);
      this.queue.addRateLimited(key);
    } finally {
      this.queue.done(key);
    }
  }
}

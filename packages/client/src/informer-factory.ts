/**
 * SharedInformerFactory: one shared informer per resource, namespace and factory-wide selector,
 * as informer-gen's SharedInformerFactory. Generated clientsets subclass it with one typed field
 * per group/version (`factory.widgetsExampleComV1.widgets('ns').lister()`), built by group():
 * the typed group client's resource methods, each returning a ResourceInformer instead of a
 * ResourceClient. As in client-go, start() starts the informers requested so far; informers
 * requested later need another start().
 */
import type { APIObject } from '../../../runtime/api/meta.js';
import type { BackoffOptions } from './backoff.js';
import { SharedIndexInformer, type InformerOptions } from './informer.js';
import type { Lister } from './lister.js';
import { ResourceClient } from './resource.js';

export interface InformerFactoryOptions {
  /** Resync period of every informer; 0 or undefined: no resync. */
  resyncPeriodMs?: number;
  /** Applied to every informer's list and watch, as WithTweakListOptions. */
  labelSelector?: string;
  fieldSelector?: string;
  pageSize?: number;
  backoff?: BackoffOptions;
  watchTimeoutSeconds?: number;
  onError?: (err: unknown) => void;
}

/** What informer-gen generates per resource: its shared informer and a lister over it. */
export interface ResourceInformer<T extends APIObject> {
  informer(): SharedIndexInformer<T>;
  lister(): Lister<T>;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
/** A typed group client's resource methods, turned into ResourceInformer accessors. */
export type InformersFor<C> = {
  readonly [K in keyof C as C[K] extends (...args: any[]) => ResourceClient<any> ? K : never]: C[K] extends (
    ...args: infer A
  ) => ResourceClient<infer T>
    ? (...args: A) => ResourceInformer<T>
    : never;
};
/* eslint-enable @typescript-eslint/no-explicit-any */

export class SharedInformerFactory {
  private readonly informers = new Map<string, SharedIndexInformer<APIObject>>();
  private readonly started = new Set<string>();

  constructor(readonly options: InformerFactoryOptions = {}) {}

  /** The shared informer for a resource client's resource and namespace, created on first use. */
  informerFor<T extends APIObject>(client: ResourceClient<T>, opts: Partial<InformerOptions<T>> = {}): SharedIndexInformer<T> {
    const { group, version, plural } = client.resource;
    const key = `${group}/${version}/${plural}/${client.namespace ?? ''}`;
    let informer = this.informers.get(key) as SharedIndexInformer<T> | undefined;
    if (!informer) {
      informer = new SharedIndexInformer<T>(client, { ...this.options, ...opts });
      this.informers.set(key, informer as unknown as SharedIndexInformer<APIObject>);
    }
    return informer;
  }

  /** informer() and lister() for a resource client. */
  forResource<T extends APIObject>(client: ResourceClient<T>): ResourceInformer<T> {
    return { informer: () => this.informerFor(client), lister: () => this.informerFor(client).lister() };
  }

  /** Starts every informer requested and not yet started. */
  start(): void {
    for (const [key, informer] of this.informers) {
      if (this.started.has(key)) continue;
      this.started.add(key);
      informer.start();
    }
  }

  /** Resolves once every started informer has synced. */
  async waitForCacheSync(signal?: AbortSignal): Promise<void> {
    await Promise.all([...this.started].map((key) => this.informers.get(key)!.waitForSync(signal)));
  }

  /** Stops every informer; resolves once their watches have closed. */
  async shutdown(): Promise<void> {
    await Promise.all([...this.informers.values()].map((informer) => informer.stop()));
  }

  /**
   * Mirrors a typed group client: each of its methods that returns a ResourceClient becomes one
   * that returns that resource's ResourceInformer. Used by generated informer factories.
   */
  protected group<C extends object>(client: C): InformersFor<C> {
    const out: Record<string, unknown> = {};
    for (const name of methodNames(client)) {
      const method = (client as Record<string, unknown>)[name] as (...args: unknown[]) => unknown;
      out[name] = (...args: unknown[]) => {
        const resource = method.apply(client, args);
        if (!(resource instanceof ResourceClient)) throw new Error(`${name}() does not return a ResourceClient`);
        return this.forResource(resource);
      };
    }
    return out as InformersFor<C>;
  }
}

function methodNames(obj: object): string[] {
  const names = new Set<string>();
  for (let proto = Object.getPrototypeOf(obj); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name !== 'constructor' && typeof Object.getOwnPropertyDescriptor(proto, name)?.value === 'function') names.add(name);
    }
  }
  return [...names];
}

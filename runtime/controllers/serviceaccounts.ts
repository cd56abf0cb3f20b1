/**
 * The service account controller (kube-controller-manager's serviceaccounts-controller): every
 * namespace that is not being deleted has a ServiceAccount named `default`; it is created when
 * the namespace appears, and again when someone deletes it.
 */
import type { KubeObject } from '../api/meta.js';
import { isAlreadyExists, isNotFound, StatusError } from '../api/status.js';
import type { RequestScope } from '../endpoints/handler.js';
import type { Log, SharedInformers } from './informer.js';

export const DEFAULT_SERVICE_ACCOUNT = 'default';

export class ServiceAccountsController {
  private running = false;
  private readonly inflight = new Set<Promise<void>>();
  /** Namespaces seen before run(): ensured once the informers have synced. */
  private readonly seen = new Set<string>();

  constructor(
    private readonly serviceAccounts: RequestScope,
    namespaces: RequestScope,
    informers: SharedInformers,
    private readonly log: Log,
  ) {
    const observe = (ns: KubeObject) => {
      const name = ns.metadata.name ?? '';
      if (ns.metadata.deletionTimestamp) this.seen.delete(name);
      else {
        this.seen.add(name);
        this.ensure(name);
      }
    };
    informers.informerFor(namespaces.store)?.addHandlers({ onAdd: observe, onUpdate: (_old, ns) => observe(ns), onDelete: (ns) => this.seen.delete(ns.metadata.name ?? '') });
    informers.informerFor(serviceAccounts.store)?.addHandlers({
      onDelete: (sa) => {
        const namespace = sa.metadata.namespace ?? '';
        if (sa.metadata.name === DEFAULT_SERVICE_ACCOUNT && this.seen.has(namespace)) this.ensure(namespace);
      },
    });
  }

  run(): void {
    this.running = true;
    for (const namespace of this.seen) this.ensure(namespace);
  }

  get pending(): number {
    return this.inflight.size;
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.allSettled([...this.inflight]);
  }

  private ensure(namespace: string): void {
    if (!this.running) return;
    const work = this.createDefault(namespace).finally(() => this.inflight.delete(work));
    this.inflight.add(work);
  }

  private async createDefault(namespace: string): Promise<void> {
    const { store } = this.serviceAccounts;
    try {
      await store.get(namespace, DEFAULT_SERVICE_ACCOUNT);
      return;
    } catch (err) {
      if (!isNotFound(err)) return this.report(namespace, err);
    }
    try {
      await store.create(namespace, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DEFAULT_SERVICE_ACCOUNT, namespace } });
    } catch (err) {
      // A namespace being deleted refuses new objects (403): nothing to do.
      if (isAlreadyExists(err) || (err instanceof StatusError && err.status.code === 403)) return;
      this.report(namespace, err);
    }
  }

  private report(namespace: string, err: unknown): void {
    this.log(`serviceaccounts controller: default service account in ${namespace}: ${(err as Error).message}`);
  }
}

/**
 * The aggregator (kube-aggregator), first in the server chain: it watches APIServices, Services
 * and Endpoints; every APIService with spec.service becomes a RemoteAPIService whose
 * group/version it proxies (proxy.ts) and reports to the merged discovery and OpenAPI; the
 * availability controller keeps each APIService's Available condition. Local APIServices
 * (no spec.service) are only marked Available; their group/versions are served by the servers
 * behind it.
 */
import type { KubeObject } from '../api/meta.js';
import { isNotFound } from '../api/status.js';
import { ResourceInformer } from '../controllers/informer.js';
import type { APIResponse, RequestScope } from '../endpoints/handler.js';
import type { CertificateAndKey } from '../api/certificates.js';
import type { DelegationResult, DelegationTarget, ServedGroupVersion } from '../server/delegation.js';
import { urlOf, type IncomingAPIRequest, type ResolvedRequest } from '../server/handler.js';
import { splitPath } from '../server/requestinfo.js';
import { v3Key } from '../server/openapi.js';
import { failedDiscoveryCheck, hasAvailability, LOCAL_AVAILABLE, PASSED, withAvailability, type Availability } from './available.js';
import { proxyToBackend } from './proxy.js';
import { RemoteAPIService, specOf } from './remote.js';
import { resolveEndpoint, ResolveError, type ServiceListers } from './resolver.js';

export const APIREGISTRATION_GROUP = 'apiregistration.k8s.io';

/** kube's resync period of the availability controller. */
export const DEFAULT_AVAILABILITY_INTERVAL_MS = 30_000;
export const DEFAULT_DISCOVERY_TIMEOUT_MS = 5_000;

export interface AggregatorAPIs {
  lookup(group: string, version: string, resource: string): RequestScope | undefined;
}

export interface AggregatorOptions {
  apis: AggregatorAPIs;
  /** The front-proxy client credential presented to backends. */
  proxyClient: CertificateAndKey;
  /** How often every APIService is checked again; default 30 s. */
  availabilityIntervalMs?: number;
  /** Deadline of a discovery check; default 5 s. */
  discoveryTimeoutMs?: number;
  log?: (line: string) => void;
}

export class APIAggregator implements DelegationTarget {
  readonly name = 'kube-aggregator';
  private readonly remotes = new Map<string, RemoteAPIService>();
  private readonly listeners = new Set<() => void>();
  private readonly informers: { apiservices?: ResourceInformer; services?: ResourceInformer; endpoints?: ResourceInformer } = {};
  private readonly statusStore;
  private readonly log: (line: string) => void;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  readonly listers: ServiceListers;

  constructor(private readonly options: AggregatorOptions) {
    this.log = options.log ?? (() => undefined);
    const scope = options.apis.lookup(APIREGISTRATION_GROUP, 'v1', 'apiservices');
    this.statusStore = scope?.statusStore;
    const log = this.log;
    if (scope) this.informers.apiservices = new ResourceInformer(scope.store, log);
    const services = options.apis.lookup('', 'v1', 'services');
    if (services) this.informers.services = new ResourceInformer(services.store, log);
    const endpoints = options.apis.lookup('', 'v1', 'endpoints');
    if (endpoints) this.informers.endpoints = new ResourceInformer(endpoints.store, log);
    const find = (informer: ResourceInformer | undefined, namespace: string, name: string) =>
      informer?.list().find((o) => o.metadata.namespace === namespace && o.metadata.name === name);
    this.listers = {
      service: (namespace, name) => find(this.informers.services, namespace, name),
      endpoints: (namespace, name) => find(this.informers.endpoints, namespace, name),
    };
  }

  /** Starts watching and waits for the first lists and the first availability checks. */
  async start(): Promise<void> {
    const { apiservices, services, endpoints } = this.informers;
    if (!apiservices) return;
    apiservices.addHandlers({
      onAdd: () => this.resync(),
      onUpdate: (old, obj) => {
        if (JSON.stringify(old.spec) !== JSON.stringify(obj.spec)) this.resync();
      },
      onDelete: () => this.resync(),
    });
    for (const informer of [services, endpoints]) informer?.addHandlers({ onAdd: () => this.resync(), onUpdate: () => this.resync(), onDelete: () => this.resync() });
    for (const informer of [apiservices, services, endpoints]) informer?.start();
    await Promise.all([apiservices, services, endpoints].map((i) => i?.synced));
    await this.resync();
    const interval = this.options.availabilityIntervalMs ?? DEFAULT_AVAILABILITY_INTERVAL_MS;
    this.timer = setInterval(() => void this.resync(), interval);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.all(Object.values(this.informers).map((i) => i.stop()));
    await this.running?.catch(() => undefined);
    for (const remote of this.remotes.values()) remote.close();
    this.remotes.clear();
  }

  /** Synchronous for what it does not proxy (no await for every local request); proxying is a promise. */
  serve(incoming: IncomingAPIRequest, resolved: ResolvedRequest): DelegationResult {
    if (this.remotes.size === 0) return undefined;
    const segments = splitPath(urlOf(incoming, resolved).pathname);
    const [prefix, a, b] = segments;
    if (prefix === 'openapi' && a === 'v3') return this.serveOpenAPIV3(incoming, resolved, segments.slice(2).join('/'));
    const group = prefix === 'apis' ? a : prefix === 'api' ? '' : undefined;
    const version = prefix === 'apis' ? b : a;
    if (group === undefined || version === undefined) return undefined;
    const remote = [...this.remotes.values()].find((r) => r.group === group && r.version === version);
    if (!remote) return undefined;
    return proxyToBackend(remote, this.listers, incoming, resolved.user, this.log);
  }

  /**
   * `/openapi/v3/<key>` of a remote APIService whose backend's last `/openapi/v3` index listed it
   * (its own group/version, or any other path of that index the front left to it):
   * proxied to the backend live, as kube-aggregator's specProxier.handleGroupVersion hands it to
   * the APIService's proxy handler (so 503 while the backend is unavailable). The front's merged
   * OpenAPI leaves exactly these to this server (ServedGroupVersion.openapiV3URL).
   */
  private serveOpenAPIV3(incoming: IncomingAPIRequest, resolved: ResolvedRequest, key: string): DelegationResult {
    const remotes = [...this.remotes.values()];
    // MergedOpenAPI.proxied's rule: a remote's own key first, then any other path a backend's index lists.
    const remote = remotes.find((r) => r.openapiURL !== undefined && v3Key(r.group, r.version) === key) ?? remotes.find((r) => r.openapiIndex?.has(key));
    return remote ? proxyToBackend(remote, this.listers, incoming, resolved.user, this.log) : undefined;
  }

  groupVersions(): readonly ServedGroupVersion[] {
    return [...this.remotes.values()].map((r) => r.served);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The remote APIService of that name, if any (for tests and status). */
  remote(name: string): RemoteAPIService | undefined {
    return this.remotes.get(name);
  }

  /** Reconciles the remotes with the APIServices and checks every one (runs one at a time). */
  resync(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.syncOnce();
        } catch (err) {
          this.log(`aggregator: ${(err as Error).message}`);
        }
      } while (this.again && !this.stopped);
    })().finally(() => (this.running = undefined));
    return this.running;
  }

  private async syncOnce(): Promise<void> {
    const apiServices = this.informers.apiservices?.list() ?? [];
    let changed = false;
    const seen = new Set<string>();
    for (const obj of apiServices) {
      const name = obj.metadata.name ?? '';
      const spec = specOf(obj);
      if (!spec.service) continue;
      seen.add(name);
      const existing = this.remotes.get(name);
      if (existing && existing.sameTransport(spec) && JSON.stringify(existing.spec) === JSON.stringify(spec)) continue;
      existing?.close();
      this.remotes.set(name, new RemoteAPIService(name, spec, this.options.proxyClient));
      changed = true;
    }
    for (const [name, remote] of this.remotes) {
      if (seen.has(name)) continue;
      remote.close();
      this.remotes.delete(name);
      changed = true;
    }
    if (changed) this.notify();
    await Promise.all(apiServices.map((obj) => this.check(obj)));
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  /** One APIService's availability, set on the remote and written to its status when it changed. */
  private async check(obj: KubeObject): Promise<void> {
    const name = obj.metadata.name ?? '';
    const remote = this.remotes.get(name);
    const availability = remote ? await this.probe(remote) : LOCAL_AVAILABLE;
    if (remote) remote.available = availability.status === 'True';
    if (hasAvailability(obj, availability) || !this.statusStore || this.stopped) return;
    try {
      await this.statusStore.update(undefined, name, {
        updatedObject: (current) => ({ ...structuredClone(current), status: withAvailability(current.status, availability) }),
      });
    } catch (err) {
      if (!isNotFound(err)) this.log(`aggregator: cannot update the status of APIService ${name}: ${(err as Error).message}`);
    }
  }

  private async probe(remote: RemoteAPIService): Promise<Availability> {
    const timeoutMs = this.options.discoveryTimeoutMs ?? DEFAULT_DISCOVERY_TIMEOUT_MS;
    let endpoint: URL;
    try {
      endpoint = resolveEndpoint(this.listers, remote.ref);
    } catch (err) {
      remote.markStale();
      if (err instanceof ResolveError) return { status: 'False', reason: err.reason, message: err.message };
      throw err;
    }
    try {
      await remote.checkDiscovery(endpoint, timeoutMs);
    } catch (err) {
      remote.markStale();
      return failedDiscoveryCheck(new URL(remote.discoveryPath(), endpoint).href, (err as Error).message);
    }
    await remote.refresh(endpoint, timeoutMs);
    return PASSED;
  }
}

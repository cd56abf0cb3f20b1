/**
 * The `default/kubernetes` Service and its Endpoints, as kube-apiserver's controlplane
 * reconciler keeps them with the lease endpoint reconciler (--endpoint-reconciler-type=lease):
 * the Service (cluster IP the first address of the service range, port 443 named https, labels
 * component=apiserver and provider=kubernetes) is created when missing; each server keeps its
 * address under a lease (`<root>/masterleases/<ip>:<port>`, renewed every `intervalMs`, expiring
 * after `leaseTTLMs`), and the Endpoints name every server whose lease is live. A server that
 * stops removes its lease and itself from the Endpoints; one that dies drops out when its lease
 * expires. In-cluster clients and `clientConfig.service` references resolve to the servers.
 *
 * Unlike kube, leases are keyed by address and port (replicas of kgen on one host listen on
 * different ports), and the Endpoints group addresses by port, one subset per port. kube's leases
 * are etcd TTL keys; here a lease carries its renew time and every reconcile drops expired ones.
 */
import type { KubeObject } from '../api/meta.js';
import { isNotFound, StatusError } from '../api/status.js';
import { jsonEqual } from './equality.js';
import type { Storage } from '../storage/interface.js';
import { DEFAULT_STORAGE_PREFIX } from '../storage/keys.js';
import type { Store } from './store.js';

export interface KubernetesServiceOptions {
  /** The cluster IP of the Service (kubernetesServiceIP of the range). */
  clusterIP: string;
  /** The address other clients reach this server at: an IP; anything else is 127.0.0.1. */
  ip: string;
  port: number;
}

const NAME = 'kubernetes';
const NAMESPACE = 'default';
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * The address a server is reached at: an IP, without the brackets a listen address such as
 * `[::1]` carries (an Endpoints address is a bare IP, and is validated as one); a wildcard or a
 * host name is 127.0.0.1.
 */
export function advertisedIP(listen: string): string {
  const ip = listen.startsWith('[') && listen.endsWith(']') ? listen.slice(1, -1) : listen;
  return IPV4.test(ip) && ip !== '0.0.0.0' ? ip : ip.includes(':') && ip !== '::' ? ip : '127.0.0.1';
}

/** Creates the Service when missing. */
export async function ensureKubernetesService(services: Store, opts: Pick<KubernetesServiceOptions, 'clusterIP' | 'port'>): Promise<void> {
  const service: KubeObject = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: NAME, namespace: NAMESPACE, labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: { type: 'ClusterIP', clusterIP: opts.clusterIP, ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: opts.port }] },
  };
  await createIfMissing(services, service);
}

export interface LeaseReconcilerOptions extends KubernetesServiceOptions {
  storage: Storage;
  keyRoot?: string;
  /** How long a lease lives unless renewed (kube: 15 s, --endpoint-reconciler lease TTL). */
  leaseTTLMs?: number;
  /** How often a server renews its lease and reconciles the Endpoints (kube: 10 s). */
  intervalMs?: number;
  log?: (msg: string) => void;
}

const RENEW_TIME = 'kgen.io/lease-renew-time';
const TTL_SECONDS = 'kgen.io/lease-duration-seconds';

/**
 * kube's leaseEndpointReconciler for default/kubernetes. start() creates the Service, writes this
 * server's lease and reconciles once before it returns; stop() removes the lease and this server
 * from the Endpoints.
 */
export class KubernetesEndpointsReconciler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private readonly leasePrefix: string;
  private readonly self: { ip: string; port: number };
  private readonly ttlMs: number;

  constructor(
    private readonly services: Store,
    private readonly endpoints: Store,
    private readonly opts: LeaseReconcilerOptions,
  ) {
    this.leasePrefix = `${(opts.keyRoot ?? DEFAULT_STORAGE_PREFIX).replace(/\/$/, '')}/masterleases/`;
    this.self = { ip: advertisedIP(opts.ip), port: opts.port };
    this.ttlMs = opts.leaseTTLMs ?? 15_000;
  }

  async start(): Promise<void> {
    await ensureKubernetesService(this.services, this.opts);
    await this.reconcile();
    this.timer = setInterval(() => {
      this.running = this.running.then(() => this.reconcile()).catch((err) => this.opts.log?.(`reconciling default/kubernetes endpoints failed: ${(err as Error).message}`));
    }, this.opts.intervalMs ?? 10_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    await this.opts.storage.delete(this.leaseKey(this.self)).catch(() => undefined);
    await this.writeEndpoints(await this.liveLeases()).catch(() => undefined);
  }

  /** Renews this server's lease, then makes the Endpoints name the servers with live leases. */
  async reconcile(): Promise<void> {
    const lease: KubeObject = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: {
        name: `${this.self.ip}:${this.self.port}`,
        annotations: { [RENEW_TIME]: new Date().toISOString(), [TTL_SECONDS]: String(this.ttlMs / 1000) },
      },
      subsets: [{ addresses: [{ ip: this.self.ip }], ports: [{ name: 'https', port: this.self.port, protocol: 'TCP' }] }],
    };
    await this.opts.storage.guaranteedUpdate(this.leaseKey(this.self), { ignoreNotFound: true }, () => lease);
    await this.writeEndpoints(await this.liveLeases());
  }

  private leaseKey(server: { ip: string; port: number }): string {
    return `${this.leasePrefix}${server.ip}:${server.port}`;
  }

  /** The servers with unexpired leases; expired leases are deleted on the way. */
  private async liveLeases(): Promise<Array<{ ip: string; port: number }>> {
    const { items } = await this.opts.storage.getList(this.leasePrefix);
    const live: Array<{ ip: string; port: number }> = [];
    for (const lease of items) {
      const annotations = lease.metadata.annotations ?? {};
      const expires = Date.parse(annotations[RENEW_TIME] ?? '') + Number(annotations[TTL_SECONDS] ?? 0) * 1000;
      const server = serverOf(lease);
      if (server && Number.isFinite(expires) && expires > Date.now()) live.push(server);
      else if (server) {
        const rv = lease.metadata.resourceVersion;
        await this.opts.storage.delete(this.leaseKey(server), { preconditions: { resourceVersion: rv } }).catch(() => undefined);
      }
    }
    return live;
  }

  private async writeEndpoints(servers: Array<{ ip: string; port: number }>): Promise<void> {
    const subsets = endpointSubsets(servers);
    const created = await createIfMissing(this.endpoints, { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: NAME, namespace: NAMESPACE }, subsets });
    if (created) return;
    await this.endpoints.update(NAMESPACE, NAME, {
      updatedObject: async (current) => (jsonEqual(current.subsets, subsets) ? current : { ...current, subsets }),
    });
  }
}

function serverOf(lease: KubeObject): { ip: string; port: number } | undefined {
  const subset = (lease.subsets as Array<{ addresses?: Array<{ ip?: string }>; ports?: Array<{ port?: number }> }> | undefined)?.[0];
  const ip = subset?.addresses?.[0]?.ip;
  const port = subset?.ports?.[0]?.port;
  return typeof ip === 'string' && typeof port === 'number' ? { ip, port } : undefined;
}

/** One subset per port, its addresses sorted, the subsets sorted by port (kube's repacked form). */
export function endpointSubsets(servers: Array<{ ip: string; port: number }>): unknown[] {
  const byPort = new Map<number, Set<string>>();
  for (const s of servers) byPort.set(s.port, (byPort.get(s.port) ?? new Set()).add(s.ip));
  return [...byPort.entries()]
    .sort(([a], [b]) => a - b)
    .map(([port, ips]) => ({ addresses: [...ips].sort().map((ip) => ({ ip })), ports: [{ name: 'https', port, protocol: 'TCP' }] }));
}

/**
 * True when obj was created, false when it existed. Looked up first, as kube's reconciler does:
 * creating the Service again would allocate its cluster IP again (and fail on it) before the
 * store finds the name taken.
 */
async function createIfMissing(store: Store, obj: KubeObject): Promise<boolean> {
  try {
    await store.get(NAMESPACE, obj.metadata.name ?? '');
    return false;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  try {
    await store.create(NAMESPACE, obj);
    return true;
  } catch (err) {
    if (err instanceof StatusError && err.reason === 'AlreadyExists') return false;
    // Another replica starting at the same moment may have taken the name (and the address) first.
    const exists = await store.get(NAMESPACE, obj.metadata.name ?? '').then(
      () => true,
      () => false,
    );
    if (exists) return false;
    throw err;
  }
}

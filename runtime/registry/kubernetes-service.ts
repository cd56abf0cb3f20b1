/**
 * The `default/kubernetes` Service and its Endpoints, as kube-apiserver's controlplane
 * reconciler keeps them: the Service (cluster IP the first address of the service range, port
 * 443 named https, labels component=apiserver and provider=kubernetes) is created when missing,
 * and the Endpoints name this server's address and port. In-cluster clients and
 * `clientConfig.service` references to it resolve to the server.
 *
 * Unlike kube's lease reconciler, several replicas do not merge their addresses: the last one
 * to start is the one the Endpoints name.
 */
import type { KubeObject } from '../api/meta.js';
import { isNotFound, StatusError } from '../api/status.js';
import { jsonEqual } from './equality.js';
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

/** Creates the Service when missing and makes its Endpoints name this server. */
export async function ensureKubernetesService(services: Store, endpoints: Store, opts: KubernetesServiceOptions): Promise<void> {
  const ip = IPV4.test(opts.ip) && opts.ip !== '0.0.0.0' ? opts.ip : opts.ip.includes(':') && opts.ip !== '::' ? opts.ip : '127.0.0.1';
  const service: KubeObject = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: NAME, namespace: NAMESPACE, labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: { type: 'ClusterIP', clusterIP: opts.clusterIP, ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: opts.port }] },
  };
  await createIfMissing(services, service);
  const subsets = [{ addresses: [{ ip }], ports: [{ name: 'https', port: opts.port, protocol: 'TCP' }] }];
  const created = await createIfMissing(endpoints, { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: NAME, namespace: NAMESPACE }, subsets });
  if (created) return;
  await endpoints.update(NAMESPACE, NAME, {
    updatedObject: async (current) => (jsonEqual(current.subsets, subsets) ? current : { ...current, subsets }),
  });
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

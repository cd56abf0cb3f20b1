/**
 * Resolving an APIService's spec.service to an address, as kube-apiserver does with
 * --enable-aggregator-routing=true (k8s.io/apiserver/pkg/util/proxy.ResolveEndpoint): the
 * Service's port numbered spec.service.port names a port, and the Service's Endpoints hold an
 * address serving the port of that name. The failures carry the Available condition's reason
 * and message kube's availability controller sets.
 */
import type { KubeObject } from '../api/meta.js';
import { isNotFound } from '../api/status.js';
import type { EndpointSubset, ServicePort } from '../../generated/models/core/v1.js';
import type { Store } from '../registry/store.js';

export interface ServiceListers {
  service(namespace: string, name: string): KubeObject | undefined;
  endpoints(namespace: string, name: string): KubeObject | undefined;
}

export interface ServiceRef {
  namespace: string;
  name: string;
  port: number;
}

export class ResolveError extends Error {
  constructor(
    /** The Available condition's reason: ServiceNotFound, ServicePortError, EndpointsNotFound, MissingEndpoints, … */
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}


const PROXYABLE_TYPES = new Set(['ClusterIP', 'NodePort', 'LoadBalancer']);

/** `https://<ip>:<port>` serving ref, or a ResolveError; picks a random ready address, as kube. */
export function resolveEndpoint(listers: ServiceListers, ref: ServiceRef): URL {
  const { namespace, name, port } = ref;
  const service = listers.service(namespace, name);
  if (!service) throw new ResolveError('ServiceNotFound', `service/${name} in "${namespace}" is not present`);
  const spec = (service.spec ?? {}) as { type?: string; ports?: ServicePort[] };
  const type = spec.type ?? 'ClusterIP';
  if (!PROXYABLE_TYPES.has(type)) throw new ResolveError('ServiceAccessError', `unsupported service type "${type}"`);
  const servicePort = (spec.ports ?? []).find((p) => p.port === port);
  if (!servicePort) throw new ResolveError('ServicePortError', `service/${name} in "${namespace}" is not listening on port ${port}`);
  const endpoints = listers.endpoints(namespace, name);
  if (!endpoints) throw new ResolveError('EndpointsNotFound', `cannot find endpoints for service/${name} in "${namespace}"`);
  const portName = servicePort.name ?? '';
  const candidates: URL[] = [];
  for (const subset of (endpoints.subsets ?? []) as EndpointSubset[]) {
    const endpointPort = (subset.ports ?? []).find((p) => (p.name ?? '') === portName);
    if (!endpointPort?.port) continue;
    for (const address of subset.addresses ?? []) {
      if (!address.ip) continue;
      const host = address.ip.includes(':') ? `[${address.ip}]` : address.ip;
      candidates.push(new URL(`https://${host}:${endpointPort.port}`));
    }
  }
  if (candidates.length === 0) {
    throw new ResolveError('MissingEndpoints', `endpoints for service/${name} in "${namespace}" have no addresses with port name "${portName}"`);
  }
  return candidates[Math.floor(Math.random() * candidates.length)]!;
}

/**
 * resolveEndpoint over the stores of Services and Endpoints, read when called: admission webhooks
 * resolve `clientConfig.service` with it (kube with --enable-aggregator-routing=true resolves
 * webhook services through Endpoints the same way). Rejects with the ResolveError.
 */
export function storeServiceResolver(services: Store, endpoints: Store): (ref: ServiceRef) => Promise<URL> {
  const read = async (store: Store, namespace: string, name: string): Promise<KubeObject | undefined> => {
    try {
      return await store.get(namespace, name);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  };
  return async (ref) => {
    const [service, eps] = await Promise.all([read(services, ref.namespace, ref.name), read(endpoints, ref.namespace, ref.name)]);
    return resolveEndpoint({ service: () => service, endpoints: () => eps }, ref);
  };
}

/**
 * kgen's control plane's storage providers (kube's RESTStorageProvider per API group, as
 * pkg/controlplane's NewLegacyRESTStorage, rbac's and apiextensions' RESTStorageProviders build
 * them): for each built-in resource, what its store adds to the generic one. The generic installer
 * (runtime/server/installer.ts) looks a resource up in this table by group and resource; a
 * resource absent from it (every compiled kind of the user's, every custom resource) keeps the
 * generic strategy.
 */
import { withCRDStrategy } from '../apiextensions/strategy.js';
import { GROUP as APIEXTENSIONS_GROUP, RESOURCE as CRD_RESOURCE } from '../apiextensions/types.js';
import { RBAC_RESOURCES, withRBACStrategy } from '../authorization/strategy.js';
import { RBAC_GROUP } from '../authorization/types.js';
import { eventsConversion, EVENTS_VERSION } from '../conversion/events.js';
import { ConvertingStorage } from '../conversion/storage.js';
import { ClusterIPAllocator, DEFAULT_SERVICE_CLUSTER_IP_RANGE } from '../registry/clusterip.js';
import { DEFAULT_SERVICE_NODE_PORT_RANGE, NodePortAllocator } from '../registry/nodeport.js';
import { APPS_GROUP, APPS_STRATEGIES, deploymentScaleSelector, withDeploymentStatusStrategy } from '../registry/apps/index.js';
import { CORE_STRATEGIES, withEventStrategy, withPersistentVolumeClaimStatusStrategy } from '../registry/core/index.js';
import { withLeaseStrategy } from '../registry/leases.js';
import { withNamespaceStrategy } from '../registry/namespaces.js';
import { withServiceStrategy } from '../registry/services.js';
import type { StatusResets } from '../registry/strategy.js';
import { objectKey, resourcePrefix } from '../storage/keys.js';
import type { KubeObject } from '../api/meta.js';
import { storageProviderKey, type ResourceStorageProvider, type StorageProviderContext, type StorageProviders } from '../server/storage-providers.js';

export interface ControlPlaneStorageOptions {
  /** Services' cluster IPs come from this IPv4 CIDR (kube's --service-cluster-ip-range). Default 10.0.0.0/24. */
  serviceClusterIPRange?: string;
  /** NodePort and LoadBalancer Services' node ports come from this range (kube's --service-node-port-range). Default 30000-32767. */
  serviceNodePortRange?: string;
}

type GroupProviders = [plural: string, provider: ResourceStorageProvider][];

/**
 * The cluster IP allocator of Services: reservations in storage, plus the addresses of the stored
 * Services (kept for data written before reservations existed).
 */
function clusterIPs({ definition, storage, keyRoot }: StorageProviderContext, range: string): ClusterIPAllocator {
  const prefix = resourcePrefix(definition.group, definition.plural, keyRoot);
  const ipOf = (s: KubeObject | undefined) => (s?.spec as { clusterIP?: unknown } | undefined)?.clusterIP;
  return new ClusterIPAllocator({
    range,
    storage,
    keyRoot,
    inUse: async () => new Set((await storage.getList(prefix)).items.map(ipOf).filter((ip): ip is string => typeof ip === 'string' && ip !== '' && ip !== 'None')),
    serviceIP: async ({ namespace, name }) => {
      const ip = ipOf(await storage.get(objectKey(prefix, namespace, name), { ignoreNotFound: true }).catch(() => undefined));
      return typeof ip === 'string' ? ip : undefined;
    },
  });
}

/** The node port allocator of Services: reservations in storage, plus the node ports of the stored Services. */
function nodePorts({ definition, storage, keyRoot }: StorageProviderContext, range: string): NodePortAllocator {
  const prefix = resourcePrefix(definition.group, definition.plural, keyRoot);
  const portsOf = (s: KubeObject | undefined) =>
    ((s?.spec as { ports?: Array<{ nodePort?: unknown }> } | undefined)?.ports ?? []).map((p) => p?.nodePort).filter((p): p is number => typeof p === 'number' && p !== 0);
  return new NodePortAllocator({
    range,
    storage,
    keyRoot,
    inUse: async () => new Set((await storage.getList(prefix)).items.flatMap(portsOf)),
    servicePorts: async ({ namespace, name }) => portsOf(await storage.get(objectKey(prefix, namespace, name), { ignoreNotFound: true }).catch(() => undefined)),
  });
}

/**
 * kube's status strategies of these kinds copy only spec (a Deployment's also its labels) from
 * the old object: a status write's other metadata changes are kept (see StatusResets).
 */
const SPEC: StatusResets = [['spec']];
const SPEC_AND_LABELS: StatusResets = [['spec'], ['metadata', 'labels']];

/**
 * A kind whose kube strategy leaves metadata.generation alone. kube's rest.BeforeCreate sets none;
 * only the strategies of Deployment, CustomResourceDefinition and the webhook configurations (and
 * of custom resources) set 1 and count changes to what is not metadata or status, which is the
 * generic strategy's rule (the webhook configurations hold only `webhooks` besides metadata, so
 * they need no entry). Every other built-in kind kgen stores has this entry
 * (test/controlplane/generation.test.ts checks each against kube's strategies).
 */
const NO_GENERATION = { tracksGeneration: false } as const;

/** core/v1 (kube's legacy RESTStorageProvider). */
function coreProviders(options: ControlPlaneStorageOptions): GroupProviders {
  const range = options.serviceClusterIPRange ?? DEFAULT_SERVICE_CLUSTER_IP_RANGE;
  const portRange = options.serviceNodePortRange ?? DEFAULT_SERVICE_NODE_PORT_RANGE;
  return [
    ['namespaces', { ...NO_GENERATION, nameValidation: 'DNS1123Label', strategy: withNamespaceStrategy, statusResets: SPEC }],
    ['services', { ...NO_GENERATION, strategy: (base, context) => withServiceStrategy(base, clusterIPs(context, range), nodePorts(context, portRange)), statusResets: SPEC }],
    ...Object.entries(CORE_STRATEGIES).map(([plural, wrap]): GroupProviders[number] => [
      plural,
      { ...NO_GENERATION, strategy: wrap, ...(plural === 'persistentvolumeclaims' ? { statusStrategy: withPersistentVolumeClaimStatusStrategy, statusResets: SPEC } : {}) },
    ]),
    ['serviceaccounts', NO_GENERATION],
    ['events', { ...NO_GENERATION, strategy: withEventStrategy('involvedObject') }],
  ];
}

/** rbac.authorization.k8s.io: RBAC names are path segments (`system:discovery`), as kube's ValidateRBACName. */
function rbacProviders(): GroupProviders {
  return RBAC_RESOURCES.map((plural) => [plural, { ...NO_GENERATION, nameValidation: 'PathSegmentName', strategy: (base) => withRBACStrategy(base, plural) }]);
}

/** apiextensions.k8s.io: the CustomResourceDefinition strategy (generation 1, counting spec changes). */
function apiextensionsProviders(): GroupProviders {
  return [[CRD_RESOURCE, { strategy: withCRDStrategy }]];
}

/** events.k8s.io: Events are core/v1 Events seen through another schema (one storage, one watch cache). */
function eventsProviders(): GroupProviders {
  return [['events', { ...NO_GENERATION, strategy: withEventStrategy('regarding'), storedAs: { group: '', plural: 'events', wrap: (storage) => new ConvertingStorage(storage, eventsConversion, EVENTS_VERSION) } }]];
}

/** coordination.k8s.io: Leases (kube's ValidateLeaseSpec). */
function coordinationProviders(): GroupProviders {
  return [['leases', { ...NO_GENERATION, strategy: withLeaseStrategy }]];
}

/** apiregistration.k8s.io: APIServices. */
function apiregistrationProviders(): GroupProviders {
  return [['apiservices', NO_GENERATION]];
}

/** apps: Deployments (stored and validated; no controller runs them); generation 1, counting spec and annotation changes. */
function appsProviders(): GroupProviders {
  return Object.entries(APPS_STRATEGIES).map(([plural, wrap]): GroupProviders[number] => [
    plural,
    {
      strategy: wrap,
      ...(plural === 'deployments' ? { scaleSelector: deploymentScaleSelector, statusStrategy: withDeploymentStatusStrategy, statusResets: SPEC_AND_LABELS } : {}),
    },
  ]);
}

/** The table startServer hands the installer. */
export function controlPlaneStorageProviders(options: ControlPlaneStorageOptions = {}): StorageProviders {
  const table = new Map<string, ResourceStorageProvider>();
  const groups: [string, GroupProviders][] = [
    ['', coreProviders(options)],
    [RBAC_GROUP, rbacProviders()],
    [APIEXTENSIONS_GROUP, apiextensionsProviders()],
    ['events.k8s.io', eventsProviders()],
    [APPS_GROUP, appsProviders()],
    ['coordination.k8s.io', coordinationProviders()],
    ['apiregistration.k8s.io', apiregistrationProviders()],
  ];
  for (const [group, providers] of groups) {
    for (const [plural, provider] of providers) table.set(storageProviderKey(group, plural), provider);
  }
  return table;
}

/**
 * Discovery order, as kube-aggregator sorts APIServices (apiservice.SortedByGroupAndVersion):
 * groups by their highest groupPriorityMinimum (higher first, then by name), versions within a
 * group by versionPriority (higher first, then kube-aware version order: GA > beta > alpha >
 * anything else, higher numbers first). The first version of a group is its preferred version.
 */
import type { ServedGroupVersion } from './delegation.js';

export interface Priority {
  group: number;
  version: number;
}

/**
 * kube-apiserver's priorities for its built-in group/versions (apiVersionPriorities in
 * pkg/controlplane/apiserver/aggregator.go and DefaultGenericAPIServicePriorities).
 */
const BUILTIN_PRIORITIES: Record<string, Priority> = {
  '/v1': { group: 18000, version: 1 },
  'apiregistration.k8s.io/v1': { group: 18000, version: 15 },
  'apps/v1': { group: 17800, version: 15 },
  'events.k8s.io/v1': { group: 17750, version: 15 },
  'authentication.k8s.io/v1': { group: 17700, version: 15 },
  'authorization.k8s.io/v1': { group: 17600, version: 15 },
  'autoscaling/v2': { group: 17500, version: 30 },
  'autoscaling/v1': { group: 17500, version: 15 },
  'batch/v1': { group: 17400, version: 15 },
  'certificates.k8s.io/v1': { group: 17300, version: 15 },
  'networking.k8s.io/v1': { group: 17200, version: 15 },
  'policy/v1': { group: 17100, version: 15 },
  'rbac.authorization.k8s.io/v1': { group: 17000, version: 15 },
  'storage.k8s.io/v1': { group: 16800, version: 15 },
  'apiextensions.k8s.io/v1': { group: 16700, version: 15 },
  'admissionregistration.k8s.io/v1': { group: 16700, version: 15 },
  'scheduling.k8s.io/v1': { group: 16600, version: 15 },
  'coordination.k8s.io/v1': { group: 16500, version: 15 },
  'node.k8s.io/v1': { group: 16300, version: 15 },
  'discovery.k8s.io/v1': { group: 16200, version: 15 },
  'flowcontrol.apiserver.k8s.io/v1': { group: 16100, version: 21 },
};

/** What kube gives a CustomResourceDefinition's group/versions (crdRegistrationController). */
export const DEFAULT_GROUP_PRIORITY = 1000;
export const DEFAULT_VERSION_PRIORITY = 100;

/** kube's priority of a built-in group/version, if it has one. */
export function builtinPriority(group: string, version: string): Priority | undefined {
  return BUILTIN_PRIORITIES[`${group}/${version}`];
}

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

function parseKubeVersion(v: string): { major: number; type: number; minor: number } | undefined {
  const m = KUBE_VERSION.exec(v);
  if (!m) return undefined;
  const type = m[2] === 'alpha' ? 0 : m[2] === 'beta' ? 1 : 2;
  return { major: Number(m[1]), type, minor: m[3] === undefined ? 0 : Number(m[3]) };
}

/**
 * k8s.io/apimachinery/pkg/version.CompareKubeAwareVersionStrings: > 0 when a sorts before
 * (has higher priority than) b.
 */
export function compareKubeAwareVersions(a: string, b: string): number {
  if (a === b) return 0;
  const va = parseKubeVersion(a);
  const vb = parseKubeVersion(b);
  if (!va && !vb) return a < b ? 1 : -1;
  if (!va) return -1;
  if (!vb) return 1;
  if (va.type !== vb.type) return va.type - vb.type;
  if (va.major !== vb.major) return va.major - vb.major;
  return va.minor - vb.minor;
}

export interface SortedGroup<T extends ServedGroupVersion = ServedGroupVersion> {
  name: string;
  /** Preferred first. */
  versions: T[];
}

/**
 * Groups in discovery order, each with its versions, preferred first. When two sources serve
 * the same group/version the first one listed wins (the server in front of the chain).
 */
export function sortGroupVersions<T extends ServedGroupVersion>(all: readonly T[]): SortedGroup<T>[] {
  const unique = new Map<string, T>();
  for (const gv of all) if (!unique.has(`${gv.group}/${gv.version}`)) unique.set(`${gv.group}/${gv.version}`, gv);
  const byGroup = new Map<string, T[]>();
  for (const gv of unique.values()) {
    const list = byGroup.get(gv.group) ?? [];
    list.push(gv);
    byGroup.set(gv.group, list);
  }
  const groups = [...byGroup.entries()].map(([name, versions]) => ({
    name,
    versions: versions.sort((a, b) => b.versionPriority - a.versionPriority || compareKubeAwareVersions(b.version, a.version)),
    priority: Math.max(...versions.map((v) => v.groupPriority)),
  }));
  groups.sort((a, b) => b.priority - a.priority || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return groups.map(({ name, versions }) => ({ name, versions }));
}

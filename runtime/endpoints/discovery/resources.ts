/**
 * A resource's discovery entries, built from its ResourceDefinition: the legacy APIResourceList
 * entries (`/apis/<group>/<version>`) and the apidiscovery.k8s.io/v2 APIResourceDiscovery. The
 * generator writes compiled kinds' documents with these at generate time, and apiextensions
 * builds a CRD's with them at run time, so both read alike (kube: apiserver/pkg/endpoints
 * installer.go and discovery, apiextensions-apiserver's customresource_discovery_controller.go).
 *
 * Where kube itself lists a custom resource differently from a compiled (Go) kind, the
 * definition's `customResource` decides: verbs in the discovery controller's order instead of
 * sorted, and subresources status-then-scale instead of sorted by path.
 */
import { createHash } from 'node:crypto';
import type { ResourceDefinition } from '../../api/resource.js';

/**
 * kube's verbs of a resource with a generic registry store, in the order apiextensions'
 * discovery controller writes them for a custom resource. The installer sorts a compiled kind's.
 */
const STORE_VERBS = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];
const SORTED_STORE_VERBS = [...STORE_VERBS].sort();
const SUBRESOURCE_VERBS = ['get', 'patch', 'update'];

/**
 * The verbs a resource is served with (ResourceDefinition.verbs): a virtual kind (a rest.Creater
 * such as SelfSubjectAccessReview) only creates; Namespaces have no deletecollection.
 */
export function resourceVerbs(r: { group: string; kind: string; virtual?: boolean; customResource?: boolean }): string[] {
  if (r.virtual) return ['create'];
  if (r.customResource) return [...STORE_VERBS];
  return r.group === '' && r.kind === 'Namespace' ? SORTED_STORE_VERBS.filter((v) => v !== 'deletecollection') : [...SORTED_STORE_VERBS];
}

/** kube's discovery verbs of a custom subresource: GET is `get`, CONNECT (exec-like) is `create` and `get`. */
export function customSubresourceVerbs(custom: { verbs: readonly string[] }): string[] {
  return custom.verbs.includes('connect') ? ['create', 'get'] : ['get'];
}

/**
 * kube's storageVersionHash (apiserver/pkg/endpoints/discovery StorageVersionHash): the first 8
 * bytes of the SHA-256 of `<group>/<version>/<kind>` of the storage version, base64. Every version
 * of a resource shows the same one, and it changes when the storage version does (what storage
 * version migrators watch for); the same kind gets the same hash as on a kube cluster.
 */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

interface Subresource {
  name: string;
  /** Set when the subresource answers with another group's kind (scale: autoscaling/v1 Scale). */
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
}

/**
 * A resource's subresources in kube's discovery order: a compiled kind's sorted by path, as the
 * installer registers its storage paths sorted; a custom resource's status then scale, as the
 * apiextensions discovery controller appends them.
 */
function subresources(d: ResourceDefinition): Subresource[] {
  const out: Subresource[] = [];
  if (d.subresources.status) out.push({ name: 'status', kind: d.kind, verbs: SUBRESOURCE_VERBS });
  if (d.subresources.scale) out.push({ name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: SUBRESOURCE_VERBS });
  for (const custom of d.subresources.custom ?? []) out.push({ name: custom.name, kind: d.kind, verbs: customSubresourceVerbs(custom) });
  return d.customResource ? out : out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A served resource and, unless it is virtual (never stored), the version its objects are stored in. */
export interface DiscoveryEntry {
  definition: ResourceDefinition;
  storageVersion?: string;
}

/** The entries of one APIResourceList (the resource, then its subresources). */
export function apiResourceEntries({ definition: d, storageVersion }: DiscoveryEntry): Record<string, unknown>[] {
  const namespaced = d.scope === 'Namespaced';
  const main: Record<string, unknown> = { name: d.plural, singularName: d.singular, namespaced, kind: d.kind, verbs: d.verbs };
  if (d.shortNames.length) main.shortNames = d.shortNames;
  if (d.categories.length) main.categories = d.categories;
  // kube publishes a storage version hash only for what it stores.
  if (storageVersion !== undefined && !d.virtual) main.storageVersionHash = storageVersionHash(d.group, storageVersion, d.kind);
  const out = [main];
  for (const s of subresources(d)) {
    out.push({ name: `${d.plural}/${s.name}`, singularName: '', namespaced, ...(s.group !== undefined ? { group: s.group, version: s.version } : {}), kind: s.kind, verbs: s.verbs });
  }
  return out;
}

/** The legacy `/apis/<group>/<version>` (or `/api/v1`) APIResourceList, resources by plural. */
export function apiResourceList(groupVersion: string, entries: DiscoveryEntry[]): Record<string, unknown> {
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources: byPlural(entries).flatMap(apiResourceEntries) };
}

/** A resource's apidiscovery.k8s.io/v2 APIResourceDiscovery. */
export function aggregatedResource(d: ResourceDefinition): Record<string, unknown> {
  const out: Record<string, unknown> = {
    resource: d.plural,
    responseKind: { group: d.group, version: d.version, kind: d.kind },
    scope: d.scope,
    singularResource: d.singular,
    verbs: d.verbs,
  };
  if (d.shortNames.length) out.shortNames = d.shortNames;
  if (d.categories.length) out.categories = d.categories;
  const subs = subresources(d).map((s) => ({
    subresource: s.name,
    responseKind: { group: s.group ?? d.group, version: s.version ?? d.version, kind: s.kind },
    verbs: s.verbs,
  }));
  if (subs.length) out.subresources = subs;
  return out;
}

/** One group/version's apidiscovery.k8s.io/v2 APIVersionDiscovery, resources by plural. */
export function aggregatedVersion(version: string, definitions: ResourceDefinition[]): Record<string, unknown> {
  return { version, resources: byPlural(definitions.map((definition) => ({ definition }))).map((e) => aggregatedResource(e.definition)), freshness: 'Current' };
}

function byPlural(entries: DiscoveryEntry[]): DiscoveryEntry[] {
  return [...entries].sort((a, b) => a.definition.plural.localeCompare(b.definition.plural));
}

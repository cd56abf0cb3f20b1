/**
 * Emits discovery documents as kube-apiserver serves them: legacy APIVersions / APIGroupList /
 * APIResourceList, and the aggregated apidiscovery.k8s.io/v2 APIGroupDiscoveryList (all groups,
 * the core group named "", preferred version first).
 */
import type { ApiVersion, Kind } from '../model.js';
import { apiVersionOf } from '../names.js';
import { jsonFile, type EmittedFile } from './emitted.js';
import { storageVersionOf } from '../versions.js';
import type { CheckedModel } from '../check/checked.js';
import { verbsFor } from './resource-definition.js';

const SUB_VERBS = ['get', 'patch', 'update'];

function resourceList(version: ApiVersion, storageOf: (kind: Kind) => Kind) {
  const resources: Record<string, unknown>[] = [];
  for (const kind of [...version.kinds].sort((a, b) => a.plural.localeCompare(b.plural))) {
    const namespaced = kind.scope === 'Namespaced';
    const main: Record<string, unknown> = {
      name: kind.plural,
      singularName: kind.singular,
      namespaced,
      kind: kind.name,
      verbs: verbsFor(kind),
    };
    if (kind.shortNames.length) main.shortNames = kind.shortNames;
    if (kind.categories.length) main.categories = kind.categories;
    // kube publishes a storage version hash only for what it stores.
    if (!kind.virtual) main.storageVersionHash = storageVersionHash(storageOf(kind));
    resources.push(main);
    if (kind.subresources.scale) {
      resources.push({ name: `${kind.plural}/scale`, singularName: '', namespaced, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: SUB_VERBS });
    }
    if (kind.subresources.status) {
      resources.push({ name: `${kind.plural}/status`, singularName: '', namespaced, kind: kind.name, verbs: SUB_VERBS });
    }
    for (const custom of kind.subresources.custom ?? []) {
      resources.push({ name: `${kind.plural}/${custom.name}`, singularName: '', namespaced, kind: kind.name, verbs: customSubresourceVerbs(custom) });
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf(version.group, version.name), resources };
}

/**
 * A stable short hash of the storage version's group/version/kind, as kube's storageVersionHash
 * (opaque to clients; every version of a resource shows the same one, and it changes when the
 * storage version does: what storage version migrators watch for).
 */
function storageVersionHash(kind: Kind): string {
  return storageVersionHashOf(kind.group, kind.version, kind.name);
}

/** The hash of group/version/kind (also used for the versions of CRDs served at run time). */
export function storageVersionHashOf(group: string, version: string, kind: string): string {
  let h = 0x811c9dc5;
  for (const c of `${group}/${version}/${kind}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return Buffer.from(h.toString(16).padStart(8, '0')).toString('base64').slice(0, 11);
}

function aggregatedResource(kind: Kind) {
  const out: Record<string, unknown> = {
    resource: kind.plural,
    responseKind: { group: kind.group, version: kind.version, kind: kind.name },
    scope: kind.scope,
    singularResource: kind.singular,
    verbs: verbsFor(kind),
  };
  if (kind.shortNames.length) out.shortNames = kind.shortNames;
  if (kind.categories.length) out.categories = kind.categories;
  const subresources: Record<string, unknown>[] = [];
  if (kind.subresources.scale) subresources.push({ subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: SUB_VERBS });
  if (kind.subresources.status) subresources.push({ subresource: 'status', responseKind: { group: kind.group, version: kind.version, kind: kind.name }, verbs: SUB_VERBS });
  for (const custom of kind.subresources.custom ?? []) {
    subresources.push({ subresource: custom.name, responseKind: { group: kind.group, version: kind.version, kind: kind.name }, verbs: customSubresourceVerbs(custom) });
  }
  if (subresources.length) out.subresources = subresources;
  return out;
}

export function emitDiscovery(checked: CheckedModel): EmittedFile[] {
  const files: EmittedFile[] = [];
  // Unserved versions (@kgen:unservedversion) are not discovered; storage versions may be unserved.
  const model = checked.served;
  const storageOf = (kind: Kind) => storageVersionOf(checked.model.groups.find((g) => g.name === kind.group)!, kind);
  const named = model.groups.filter((g) => g.name !== '');
  const core = model.groups.find((g) => g.name === '');
  files.push(jsonFile('discovery/api.json', { kind: 'APIVersions', apiVersion: 'v1', versions: core ? core.versions.map((v) => v.name) : [], serverAddressByClientCIDRs: [] }));
  files.push(
    jsonFile('discovery/apis.json', {
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: named.map((g) => ({
        name: g.name,
        versions: g.versions.map((v) => ({ groupVersion: `${g.name}/${v.name}`, version: v.name })),
        preferredVersion: { groupVersion: `${g.name}/${g.versions[0]!.name}`, version: g.versions[0]!.name },
      })),
    }),
  );
  for (const group of model.groups) {
    for (const version of group.versions) {
      const path = group.name ? `discovery/apis/${group.name}/${version.name}.json` : `discovery/api/${version.name}.json`;
      files.push(jsonFile(path, resourceList(version, storageOf)));
    }
  }
  files.push(
    jsonFile('discovery/aggregated.json', {
      kind: 'APIGroupDiscoveryList',
      apiVersion: 'apidiscovery.k8s.io/v2',
      metadata: {},
      items: model.groups.map((g) => ({
        metadata: { name: g.name, creationTimestamp: null },
        versions: g.versions.map((v) => ({
          version: v.name,
          resources: [...v.kinds].sort((a, b) => a.plural.localeCompare(b.plural)).map(aggregatedResource),
          freshness: 'Current',
        })),
      })),
    }),
  );
  return files;
}

/** kube's discovery verbs of a subresource: GET is `get`, CONNECT (exec-like) is `create` and `get`. */
export function customSubresourceVerbs(custom: { verbs: readonly string[] }): string[] {
  return custom.verbs.includes('connect') ? ['create', 'get'] : ['get'];
}

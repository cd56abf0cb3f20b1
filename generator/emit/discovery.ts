/**
 * Emits discovery documents as kube-apiserver serves them: legacy APIVersions / APIGroupList /
 * APIResourceList, and the aggregated apidiscovery.k8s.io/v2 APIGroupDiscoveryList (all groups,
 * the core group named "", preferred version first). Each resource's entries come from the
 * runtime's builders (runtime/endpoints/discovery), the ones CRDs are discovered with.
 */
import { aggregatedVersion, apiResourceList, type DiscoveryEntry } from '../../runtime/endpoints/discovery/resources.js';
import { resourceDefinition } from '../definitions.js';
import type { CheckedModel } from '../check/checked.js';
import type { ApiVersion, Kind } from '../model.js';
import { apiVersionOf } from '../names.js';
import { jsonFile, type EmittedFile } from './emitted.js';
import { storageVersionOf } from '../versions.js';

/** Each version's APIResourceList file, with the versions of its group (in the full model) it was built with. */
const resourceLists = new WeakMap<ApiVersion, { versions: readonly ApiVersion[]; file: EmittedFile }>();

export function emitDiscovery(checked: CheckedModel): EmittedFile[] {
  const fullModel = checked.model;
  const files: EmittedFile[] = [];
  // Unserved versions (@kgen:unservedversion) are not discovered; storage versions may be unserved.
  const model = checked.served;
  const entry = (kind: Kind): DiscoveryEntry => ({
    definition: resourceDefinition(kind),
    storageVersion: storageVersionOf(fullModel.groups.find((g) => g.name === kind.group)!, kind).version,
  });
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
  const fullGroups = new Map(fullModel.groups.map((g) => [g.name, g.versions]));
  for (const group of model.groups) {
    const versions = fullGroups.get(group.name)!;
    for (const version of group.versions) {
      // Kept for a --watch session's next run while the version and its group's versions (which
      // decide the storage version) are the same objects.
      const kept = resourceLists.get(version);
      if (kept && kept.versions.length === versions.length && kept.versions.every((v, i) => v === versions[i])) {
        files.push(kept.file);
        continue;
      }
      const path = group.name ? `discovery/apis/${group.name}/${version.name}.json` : `discovery/api/${version.name}.json`;
      const file = jsonFile(path, apiResourceList(apiVersionOf(version.group, version.name), version.kinds.map(entry)));
      resourceLists.set(version, { versions, file });
      files.push(file);
    }
  }
  files.push(
    jsonFile('discovery/aggregated.json', {
      kind: 'APIGroupDiscoveryList',
      apiVersion: 'apidiscovery.k8s.io/v2',
      metadata: {},
      items: model.groups.map((g) => ({
        metadata: { name: g.name, creationTimestamp: null },
        versions: g.versions.map((v) => aggregatedVersion(v.name, v.kinds.map(resourceDefinition))),
      })),
    }),
  );
  return files;
}

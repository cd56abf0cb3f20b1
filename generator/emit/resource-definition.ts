/**
 * The ResourceDefinition of a compiled kind: what the storage module hands the runtime
 * (`defineResource`), and what discovery lists. Shared by the emitters that print it, so no
 * emitter imports another. Not an emitter.
 */
import type { ResourceDefinition } from '../../runtime/api/resource.js';
import type { ApiVersion, Kind } from '../model.js';
import { contextFor, kindSchemaName } from './openapi-schemas.js';

/**
 * kube's verbs for a resource with a generic registry store. Namespaces have no deletecollection;
 * a virtual kind (SelfSubjectAccessReview, …) is only created.
 */
export function verbsFor(kind: Kind): string[] {
  if (kind.virtual) return ['create'];
  const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
  return kind.group === '' && kind.name === 'Namespace' ? verbs.filter((v) => v !== 'deletecollection') : verbs;
}

/** `version` is the kind's own version (its schema name is qualified by it). */
export function resourceDefinition(kind: Kind, version: ApiVersion): ResourceDefinition {
  const def: ResourceDefinition = {
    group: kind.group,
    version: kind.version,
    kind: kind.name,
    listKind: `${kind.name}List`,
    plural: kind.plural,
    singular: kind.singular,
    scope: kind.scope,
    shortNames: kind.shortNames,
    categories: kind.categories,
    subresources: { status: !!kind.subresources.status },
    printerColumns: kind.printColumns.map((c) => {
      const out: ResourceDefinition['printerColumns'][number] = { name: c.name, type: c.type, jsonPath: c.jsonPath, priority: c.priority };
      if (c.description) out.description = c.description;
      if (c.format) out.format = c.format;
      return out;
    }),
    selectableFields: kind.selectableFields.map((f) => f.jsonPath),
    schemaName: kindSchemaName(contextFor(version), kind.name),
    storageVersion: kind.storageVersion,
    verbs: verbsFor(kind),
  };
  if (kind.virtual) def.virtual = true;
  if (kind.subresources.custom?.length) def.subresources.custom = kind.subresources.custom.map((c) => ({ name: c.name, verbs: [...c.verbs] }));
  const scale = kind.subresources.scale;
  if (scale) {
    def.subresources.scale = { specReplicasPath: scale.specReplicasPath, statusReplicasPath: scale.statusReplicasPath };
    if (scale.labelSelectorPath) def.subresources.scale.labelSelectorPath = scale.labelSelectorPath;
  }
  return def;
}

/**
 * A checked kind as the runtime's ResourceDefinition: what generated storage modules export, and
 * the key of the runtime's discovery and OpenAPI builders (runtime/endpoints/discovery, /openapi),
 * which the emitters call at generate time as apiextensions calls them for CRDs at run time.
 * Built once per kind object (the model is not changed after checking, and `--watch` reuses the
 * kinds of groups it did not parse again); callers treat it as immutable.
 */
import type { ResourceDefinition } from '../runtime/api/resource.js';
import { resourceVerbs } from '../runtime/endpoints/discovery/resources.js';
import { kindSchemaName } from '../runtime/endpoints/openapi/names.js';
import type { Kind } from './model.js';

const built = new WeakMap<Kind, ResourceDefinition>();

export function resourceDefinition(kind: Kind): ResourceDefinition {
  let def = built.get(kind);
  if (!def) built.set(kind, (def = build(kind)));
  return def;
}

function build(kind: Kind): ResourceDefinition {
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
    schemaName: kindSchemaName(kind.group, kind.version, kind.name),
    storageVersion: kind.storageVersion,
    verbs: resourceVerbs({ group: kind.group, kind: kind.name, virtual: !!kind.virtual }),
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

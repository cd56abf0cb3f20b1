/**
 * What a served version of an established CustomResourceDefinition becomes: the same
 * ResourceDefinition compiled kinds have (names from status.acceptedNames, as kube serves them)
 * and the component schemas its validator, field manager and OpenAPI document are built from
 * (the version's openAPIV3Schema as the kind's schema, plus the apimachinery schemas it refers to).
 */
import type { PrinterColumn, ResourceDefinition } from '../api/resource.js';
import { resourceVerbs } from '../endpoints/discovery/resources.js';
import { kindSchema, listSchema } from '../endpoints/openapi/kind-schemas.js';
import { withMetaSchemas } from '../endpoints/openapi/meta-schemas.js';
import { kindSchemaName } from '../endpoints/openapi/names.js';
import { operationSchemas, resourceOperations } from '../endpoints/openapi/operations.js';
import { ageColumn } from '../endpoints/tableconvertor.js';
import type { CRDVersion, CustomResourceDefinition, JSONSchemaProps } from './types.js';

export type ComponentSchemas = Record<string, Record<string, unknown>>;

export interface ServedVersion {
  definition: ResourceDefinition;
  schemas: ComponentSchemas;
  version: CRDVersion;
}

/** The served versions of a CRD, in spec order. */
export function servedVersions(crd: CustomResourceDefinition): ServedVersion[] {
  return (crd.spec.versions ?? []).filter((v) => v.served).map((v) => servedVersion(crd, v));
}

export function servedVersion(crd: CustomResourceDefinition, version: CRDVersion): ServedVersion {
  const definition = resourceDefinition(crd, version);
  return { definition, version, schemas: componentSchemas(definition, (version.schema?.openAPIV3Schema as JSONSchemaProps | undefined) ?? { type: 'object' }) };
}

function resourceDefinition(crd: CustomResourceDefinition, v: CRDVersion): ResourceDefinition {
  const accepted = crd.status?.acceptedNames;
  const names = accepted?.kind ? accepted : crd.spec.names;
  const kind = names.kind;
  const group = crd.spec.group;
  const scale = v.subresources?.scale;
  return {
    group,
    version: v.name,
    kind,
    listKind: names.listKind || `${kind}List`,
    plural: crd.spec.names.plural,
    singular: names.singular || kind.toLowerCase(),
    scope: crd.spec.scope === 'Cluster' ? 'Cluster' : 'Namespaced',
    shortNames: [...(names.shortNames ?? [])],
    categories: [...(names.categories ?? [])],
    subresources: {
      status: v.subresources?.status !== undefined && v.subresources?.status !== null,
      ...(scale ? { scale: { specReplicasPath: scale.specReplicasPath, statusReplicasPath: scale.statusReplicasPath, ...(scale.labelSelectorPath ? { labelSelectorPath: scale.labelSelectorPath } : {}) } } : {}),
    },
    printerColumns: printerColumns(v),
    exactPrinterColumns: true,
    customResource: true,
    selectableFields: (v.selectableFields ?? []).map((f) => f.jsonPath),
    schemaName: kindSchemaName(group, v.name, kind),
    storageVersion: v.storage,
    verbs: resourceVerbs({ group, kind, customResource: true }),
  };
}

/**
 * The Table columns after Name: the version's additionalPrinterColumns, or Age when it declares
 * none (kube's serveDefaultColumnsIfEmpty); no Age is added to declared columns.
 */
function printerColumns(v: CRDVersion): PrinterColumn[] {
  const declared = v.additionalPrinterColumns ?? [];
  if (declared.length === 0) return [ageColumn()];
  return declared.map(
    (c): PrinterColumn => ({
      name: c.name,
      type: c.type as PrinterColumn['type'],
      jsonPath: c.jsonPath,
      priority: c.priority ?? 0,
      ...(c.format ? { format: c.format } : {}),
      ...(c.description ? { description: c.description } : {}),
    }),
  );
}

/** The kind's and list's schemas plus the apimachinery schemas they and the operations refer to. */
function componentSchemas(definition: ResourceDefinition, schema: JSONSchemaProps): ComponentSchemas {
  const own: ComponentSchemas = {
    [definition.schemaName]: kindSchema(definition, structuredClone(schema) as Record<string, unknown>),
    [`${definition.schemaName}List`]: listSchema(definition),
  };
  return withMetaSchemas(own, operationSchemas(resourceOperations(definition))) as ComponentSchemas;
}

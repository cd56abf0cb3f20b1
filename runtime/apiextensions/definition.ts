/**
 * What a served version of an established CustomResourceDefinition becomes: the same
 * ResourceDefinition compiled kinds have (names from status.acceptedNames, as kube serves them)
 * and the component schemas its validator, field manager and OpenAPI document are built from
 * (the version's openAPIV3Schema as the kind's schema, plus the apimachinery schemas it refers to).
 */
import type { PrinterColumn, ResourceDefinition } from '../api/resource.js';
import { META, withMetaSchemas } from '../../generator/emit/meta-schemas.js';
import { schemaPrefix } from '../../generator/names.js';
import { ageColumn } from '../endpoints/tableconvertor.js';
import type { CRDVersion, CustomResourceDefinition, JSONSchemaProps } from './types.js';

export type ComponentSchemas = Record<string, Record<string, unknown>>;

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const API_VERSION = 'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const KIND = 'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
const METADATA = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const LIST_METADATA = 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

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
    schemaName: `${schemaPrefix(group, v.name)}.${kind}`,
    storageVersion: v.storage,
    verbs: [...VERBS],
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

/** The kind's schema as kube publishes a CRD's: apiVersion, kind and ObjectMeta metadata added. */
function kindSchema(definition: ResourceDefinition, schema: JSONSchemaProps): Record<string, unknown> {
  const copy = structuredClone(schema) as Record<string, unknown>;
  const properties = { ...((copy.properties as Record<string, unknown>) ?? {}) };
  properties.apiVersion = { type: 'string', description: API_VERSION };
  properties.kind = { type: 'string', description: KIND };
  properties.metadata = { allOf: [ref(`${META}.ObjectMeta`)], description: METADATA };
  copy.type ??= 'object';
  copy.properties = properties;
  copy['x-kubernetes-group-version-kind'] = [{ group: definition.group, kind: definition.kind, version: definition.version }];
  return copy;
}

function listSchema(definition: ResourceDefinition): Record<string, unknown> {
  return {
    description: `${definition.kind}List is a list of ${definition.kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { type: 'string', description: API_VERSION },
      items: { type: 'array', items: ref(definition.schemaName), description: `List of ${definition.plural}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md` },
      kind: { type: 'string', description: KIND },
      metadata: { allOf: [ref(`${META}.ListMeta`)], description: LIST_METADATA },
    },
    'x-kubernetes-group-version-kind': [{ group: definition.group, kind: definition.listKind, version: definition.version }],
  };
}

/** The kind's and list's schemas plus the apimachinery schemas they (and the operations) refer to. */
export function componentSchemas(definition: ResourceDefinition, schema: JSONSchemaProps): ComponentSchemas {
  const own: ComponentSchemas = {
    [definition.schemaName]: kindSchema(definition, schema),
    [`${definition.schemaName}List`]: listSchema(definition),
  };
  const wanted = [`${META}.Status`, `${META}.DeleteOptions`, `${META}.Patch`];
  if (definition.subresources.scale) wanted.push('io.k8s.api.autoscaling.v1.Scale');
  return withReferenced(own, wanted);
}

/** Adds every apimachinery schema reachable from `own` and `extra`. */
export function withReferenced(own: ComponentSchemas, extra: string[] = []): ComponentSchemas {
  return withMetaSchemas(own, extra) as ComponentSchemas;
}

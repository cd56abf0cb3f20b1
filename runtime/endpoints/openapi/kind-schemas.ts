/**
 * A resource's kind and list schemas, as kube-apiserver publishes them, built from its
 * ResourceDefinition and the kind's own schema: apiVersion and kind from TypeMeta, metadata as a
 * reference to ObjectMeta (ListMeta for the list), and x-kubernetes-group-version-kind. The
 * generator builds compiled kinds' with these, apiextensions a CRD version's (whose own schema is
 * its openAPIV3Schema), as kube-openapi and apiextensions-apiserver's OpenAPI builder do.
 */
import type { ResourceDefinition } from '../../api/resource.js';
import { API_VERSION_DESCRIPTION, KIND_DESCRIPTION, LIST_METADATA_DESCRIPTION, META, METADATA_DESCRIPTION, ref } from './meta-schemas.js';

export type JSONSchema = Record<string, unknown>;

const gvk = (group: string, version: string, kind: string) => [{ group, kind, version }];

/**
 * A reference to ObjectMeta or ListMeta with its description. A compiled kind's carries
 * `default: {}`, as kube-openapi writes for a Go type's non-pointer struct field; a custom
 * resource's has none, as apiextensions-apiserver's builder writes it.
 */
function metaProperty(d: ResourceDefinition, schema: string, description: string): JSONSchema {
  return { allOf: [ref(`${META}.${schema}`)], description, ...(d.customResource ? {} : { default: {} }) };
}

/** TypeMeta's fields and metadata, the first properties of a kind and of its list. */
function typeMetaProperties(d: ResourceDefinition, meta: 'ObjectMeta' | 'ListMeta'): JSONSchema {
  return {
    apiVersion: { type: 'string', description: API_VERSION_DESCRIPTION },
    kind: { type: 'string', description: KIND_DESCRIPTION },
    metadata: metaProperty(d, meta, meta === 'ObjectMeta' ? METADATA_DESCRIPTION : LIST_METADATA_DESCRIPTION),
  };
}

/**
 * The kind's schema: `own` (its fields, description, required, rules) with apiVersion, kind and
 * metadata set (replacing any the schema declares, as kube does) and the kind's GVK.
 */
export function kindSchema(d: ResourceDefinition, own: JSONSchema): JSONSchema {
  const properties = typeMetaProperties(d, 'ObjectMeta');
  for (const [name, schema] of Object.entries((own.properties as JSONSchema | undefined) ?? {})) if (!(name in properties)) properties[name] = schema;
  return { ...own, type: own.type ?? 'object', properties, 'x-kubernetes-group-version-kind': gvk(d.group, d.version, d.kind) };
}

/** The list's schema: `<listKind> is a list of <kind>`, items referring to the kind's schema. */
export function listSchema(d: ResourceDefinition): JSONSchema {
  const { apiVersion, kind, metadata } = typeMetaProperties(d, 'ListMeta');
  return {
    description: `${d.listKind} is a list of ${d.kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion,
      items: { type: 'array', items: ref(d.schemaName), description: `List of ${d.plural}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md` },
      kind,
      metadata,
    },
    'x-kubernetes-group-version-kind': gvk(d.group, d.version, d.listKind),
  };
}

/**
 * The discovery and OpenAPI documents of the CRDs served in one group/version, as kube's
 * apiextensions discovery controller and OpenAPI v3 builder publish them: an APIResourceList
 * (subresources as `plural/status`, `plural/scale`), the apidiscovery.k8s.io/v2 version entry,
 * and an OpenAPI v3 document with kube-apiserver's paths and operations (the generator's own
 * operation table, so compiled kinds and CRDs read alike to kubectl).
 */
import type { ResourceDefinition } from '../api/resource.js';
import type { Kind } from '../../generator/model.js';
import { storageVersionHashOf } from '../../generator/emit/discovery.js';
import { kindOperations, type Operation } from '../../generator/emit/openapi-operations.js';
import type { ComponentSchemas, ServedVersion } from './definition.js';

/** kube's verbs of a custom resource, in its discovery order. */
const CR_VERBS = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];
const SUB_VERBS = ['get', 'patch', 'update'];
const JSON_TYPES = ['application/json', 'application/yaml'];

/** One CRD's served version plus the CRD's storage version (for the storage version hash). */
export interface VersionEntry extends ServedVersion {
  storageVersion: string;
}


function byPlural(entries: VersionEntry[]): VersionEntry[] {
  return [...entries].sort((a, b) => a.definition.plural.localeCompare(b.definition.plural));
}

/** The legacy `/apis/<group>/<version>` APIResourceList. */
export function resourceList(group: string, version: string, entries: VersionEntry[]): unknown {
  const resources: Record<string, unknown>[] = [];
  for (const { definition: d, storageVersion } of byPlural(entries)) {
    const namespaced = d.scope === 'Namespaced';
    const main: Record<string, unknown> = { name: d.plural, singularName: d.singular, namespaced, kind: d.kind, verbs: CR_VERBS };
    if (d.shortNames.length) main.shortNames = d.shortNames;
    if (d.categories.length) main.categories = d.categories;
    main.storageVersionHash = storageVersionHashOf(d.group, storageVersion, d.kind);
    resources.push(main);
    if (d.subresources.status) resources.push({ name: `${d.plural}/status`, singularName: '', namespaced, kind: d.kind, verbs: SUB_VERBS });
    if (d.subresources.scale) {
      resources.push({ name: `${d.plural}/scale`, singularName: '', namespaced, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: SUB_VERBS });
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${group}/${version}`, resources };
}

/** This group/version's apidiscovery.k8s.io/v2 APIVersionDiscovery. */
export function aggregatedVersion(version: string, entries: VersionEntry[]): unknown {
  const resources = byPlural(entries).map(({ definition: d }) => {
    const out: Record<string, unknown> = {
      resource: d.plural,
      responseKind: { group: d.group, version: d.version, kind: d.kind },
      scope: d.scope,
      singularResource: d.singular,
      verbs: CR_VERBS,
    };
    if (d.shortNames.length) out.shortNames = d.shortNames;
    if (d.categories.length) out.categories = d.categories;
    const subresources: Record<string, unknown>[] = [];
    if (d.subresources.scale) subresources.push({ subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: SUB_VERBS });
    if (d.subresources.status) subresources.push({ subresource: 'status', responseKind: { group: d.group, version: d.version, kind: d.kind }, verbs: SUB_VERBS });
    if (subresources.length) out.subresources = subresources;
    return out;
  });
  return { version, resources, freshness: 'Current' };
}

/** The operations table speaks the generator's Kind; a CRD version fills the fields it reads. */
function asKind(d: ResourceDefinition): Kind {
  return {
    name: d.kind,
    group: d.group,
    version: d.version,
    plural: d.plural,
    singular: d.singular,
    scope: d.scope,
    subresources: { status: d.subresources.status ? { file: '', line: 0, column: 0 } : undefined, scale: d.subresources.scale },
  } as unknown as Kind;
}

function v3Operation(op: Operation): Record<string, unknown> {
  const out: Record<string, unknown> = {
    tags: [op.tag],
    description: op.description,
    operationId: op.operationId,
    parameters: op.query.map((p) => ({ name: p.name, in: 'query', description: p.description, schema: { type: p.type, uniqueItems: true } })),
  };
  if (op.body) {
    const required = op.action !== 'delete' && op.action !== 'deletecollection';
    const types = op.patchTypes ?? JSON_TYPES;
    out.requestBody = { content: Object.fromEntries(types.map((t) => [t, { schema: { $ref: `#/components/schemas/${op.body}` } }])), ...(required ? { required: true } : {}) };
  }
  out.responses = {
    ...Object.fromEntries(
      Object.entries(op.responses).map(([code, schema]) => [
        code,
        { description: code === '201' ? 'Created' : code === '202' ? 'Accepted' : 'OK', content: Object.fromEntries(JSON_TYPES.map((t) => [t, { schema: { $ref: `#/components/schemas/${schema}` } }])) },
      ]),
    ),
    '401': { description: 'Unauthorized' },
  };
  out['x-kubernetes-action'] = op.action;
  out['x-kubernetes-group-version-kind'] = op.gvk;
  return out;
}

/** The OpenAPI v3 document `/openapi/v3/apis/<group>/<version>` of the CRDs served there. */
export function openapiDocument(entries: VersionEntry[]): unknown {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: ComponentSchemas = {};
  for (const { definition: d, schemas: own } of byPlural(entries)) {
    for (const op of kindOperations(asKind(d), d.schemaName, `${d.schemaName}List`, { customResource: true })) {
      const item = (paths[op.path] ??= {
        parameters: op.pathParams.map((p) => ({ name: p.name, in: 'path', description: p.description, required: true, schema: { type: 'string', uniqueItems: true } })),
      });
      item[op.method] = v3Operation(op);
    }
    Object.assign(schemas, own);
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes CRD Swagger', version: 'v0.1.0' },
    paths: Object.fromEntries(Object.keys(paths).sort().map((p) => [p, paths[p]])),
    components: { schemas: Object.fromEntries(Object.keys(schemas).sort().map((k) => [k, schemas[k]])) },
  };
}

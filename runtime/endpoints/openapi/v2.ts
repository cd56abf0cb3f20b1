/**
 * Operations and schemas in Swagger 2.0's shape, as kube-apiserver prints `/openapi/v2`: the one
 * printer of the generator's swagger.json and of a CRD group/version's part of the merged
 * document. Swagger 2.0 has no request bodies (a `body` parameter instead), no anyOf and no
 * nullable.
 */
import { INT_OR_STRING, META_SCHEMAS, QUANTITY } from './meta-schemas.js';
import type { Operation } from './operations.js';
import { responseDescription, type QueryPrinter } from './v3.js';

const JSON_TYPES = ['application/json', 'application/yaml'];
const PROTOBUF = 'application/vnd.kubernetes.protobuf';

export const v2QueryParameter = (p: { name: string; description: string; type: string }): Record<string, unknown> => ({ name: p.name, in: 'query', description: p.description, type: p.type, uniqueItems: true });

const inlineQuery: QueryPrinter = (query) => query.map(v2QueryParameter);

/** A v3 reference (`#/components/schemas/X`) as Swagger 2.0 writes it (`#/definitions/X`). */
export const refV2 = (ref: string): string => ref.replace('#/components/schemas/', '#/definitions/');

/**
 * The Swagger 2.0 reference of a reference with annotations of its own, or undefined. OpenAPI v3
 * wraps such a reference (`allOf: [{$ref}]` beside a description or default); Swagger 2.0 as kube
 * prints it puts `$ref` beside them. kubectl 1.27 and 1.28 read /openapi/v2 for client-side
 * apply's strategic merge patch, and their model parser (kube-openapi's util/proto) sees an allOf
 * wrapper as an arbitrary value without fields: the patch of any list under such a field (a
 * Deployment's spec.template.spec.containers) then panics in kubectl.
 */
export function wrappedRefV2(o: Record<string, unknown>): string | undefined {
  if ('$ref' in o || !Array.isArray(o.allOf) || o.allOf.length !== 1) return undefined;
  const only = o.allOf[0] as Record<string, unknown> | null;
  if (!only || typeof only !== 'object' || typeof only.$ref !== 'string' || Object.keys(only).length !== 1) return undefined;
  return refV2(only.$ref);
}

/** A schema in Swagger 2.0: no anyOf or nullable; int-or-string as kube prints it, a string format. */
export function toV2Schema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toV2Schema);
  if (!value || typeof value !== 'object') return value;
  const o = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const intOrString = o['x-kubernetes-int-or-string'] === true;
  if (intOrString) {
    out.type = 'string';
    out.format = 'int-or-string';
  }
  const wrapped = wrappedRefV2(o);
  if (wrapped) out.$ref = wrapped;
  for (const [k, v] of Object.entries(o)) {
    if (wrapped && k === 'allOf') continue;
    if (k === '$ref' && typeof v === 'string') out[k] = refV2(v);
    else if (k === 'nullable' || (intOrString && (k === 'anyOf' || k === 'pattern'))) continue;
    else out[k] = toV2Schema(v);
  }
  return out;
}

/**
 * kube's Swagger 2.0 definitions of intstr.IntOrString and resource.Quantity: strings, the first
 * with format int-or-string (what toV2Schema makes of an inline int-or-string), the second plain.
 */
const KUBE_V2: Record<string, Record<string, unknown>> = {
  [INT_OR_STRING]: { description: META_SCHEMAS[INT_OR_STRING]!.description, format: 'int-or-string', type: 'string' },
  [QUANTITY]: { description: META_SCHEMAS[QUANTITY]!.description, type: 'string' },
};

/** The Swagger 2.0 definition of the component schema `name`. */
export function definitionV2(name: string, schema: unknown): unknown {
  return KUBE_V2[name] ?? toV2Schema(schema);
}

/**
 * The media types an operation consumes and produces. kube-apiserver's installer lets a Go type's
 * routes consume anything and produce protobuf too; apiextensions' builder has a custom
 * resource's consume and produce JSON and YAML only.
 */
function mediaTypes(op: Operation): { consumes: string[]; produces: string[] } {
  if (op.customResource) return { consumes: op.patchTypes ?? JSON_TYPES, produces: JSON_TYPES };
  return { consumes: op.patchTypes ?? ['*/*'], produces: op.opaqueResponse ? ['*/*'] : [...JSON_TYPES, PROTOBUF] };
}

/**
 * How a body or path parameter prints: in place (the default), or as a reference to its shared
 * declaration (the generator's swagger.json, see ./v2-parameters.ts). Query parameters print
 * through the QueryPrinter.
 */
export type ParameterPrinter = (p: Record<string, unknown>) => Record<string, unknown>;
const inPlace: ParameterPrinter = (p) => p;

export function v2Operation(op: Operation, printQuery: QueryPrinter = inlineQuery, share: ParameterPrinter = inPlace): Record<string, unknown> {
  const parameters = printQuery(op.query);
  if (op.body) {
    parameters.unshift(share({ name: 'body', in: 'body', required: op.action !== 'delete' && op.action !== 'deletecollection', schema: { $ref: `#/definitions/${op.body}` } }));
  }
  return {
    description: op.description,
    ...mediaTypes(op),
    schemes: ['https'],
    tags: [op.tag],
    operationId: op.operationId,
    parameters,
    responses: {
      ...(op.opaqueResponse ? { '200': { description: 'OK', schema: { type: 'string' } } } : {}),
      ...Object.fromEntries(Object.entries(op.responses).map(([code, schema]) => [code, { description: responseDescription(code), schema: { $ref: `#/definitions/${schema}` } }])),
      '401': { description: 'Unauthorized' },
    },
    'x-kubernetes-action': op.action,
    'x-kubernetes-group-version-kind': op.gvk,
  };
}

/**
 * The Swagger `paths` of these operations, sorted by path, every parameter in place unless the
 * printers share them (the whole document's parameters shared as kube does: shareParameters).
 */
export function v2Paths(operations: Operation[], printQuery: QueryPrinter = inlineQuery, share: ParameterPrinter = inPlace): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const item = (paths[op.path] ??= {
      parameters: op.pathParams.map((p) => share({ name: p.name, in: 'path', description: p.description, required: true, type: 'string', uniqueItems: true })),
    });
    item[op.method] = v2Operation(op, printQuery, share);
  }
  return Object.fromEntries(Object.keys(paths).sort().map((p) => [p, paths[p]!]));
}

/** Component schemas as Swagger `definitions`, sorted by name. */
export function v2Definitions(schemas: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(schemas).sort().map((name) => [name, definitionV2(name, schemas[name])]));
}

/**
 * Emits the OpenAPI documents kube-apiserver serves: one OpenAPI 3.0 document per group/version
 * (`openapi/v3/apis/<group>/<version>.json`, `openapi/v3/api/v1.json`) and one Swagger 2.0
 * document of everything (`openapi/v2/swagger.json`).
 */
import type { OpenAPIV2, OpenAPIV3 } from 'openapi-types';
import type { ApiModel, ApiVersion } from '../model.js';
import { groupFolder } from '../names.js';
import { jsonFile, type EmitOptions, type EmittedFile } from './emitted.js';
import { META_SCHEMAS } from './meta-schemas.js';
import { kindOperations, type Operation } from './openapi-operations.js';
import { contextFor, kindSchemaName, versionSchemas, type SchemaOrRef } from './openapi-schemas.js';

const INFO = { title: 'Kubernetes', version: 'unversioned' };
const JSON_TYPES = ['application/json', 'application/yaml'];

export function openapiPath(group: string, version: string): string {
  return group ? `openapi/v3/apis/${group}/${version}.json` : `openapi/v3/api/${version}.json`;
}

interface VersionSpec {
  version: ApiVersion;
  operations: Operation[];
  schemas: Record<string, SchemaOrRef>;
}

function buildVersion(version: ApiVersion, options: EmitOptions): VersionSpec {
  const ctx = contextFor(version, options.maxDescriptionLength);
  const operations = version.kinds.flatMap((k) =>
    kindOperations(k, kindSchemaName(ctx, k.name), kindSchemaName(ctx, `${k.name}List`)),
  );
  const own = versionSchemas(ctx, version);
  return { version, operations, schemas: withReferenced(own, operations) };
}

/** Adds the meta schemas reachable from the version's schemas and operations, sorted by name. */
function withReferenced(own: Record<string, SchemaOrRef>, operations: Operation[]): Record<string, SchemaOrRef> {
  const all: Record<string, SchemaOrRef> = { ...own };
  const queue: string[] = [];
  const want = (name: string) => {
    if (!(name in all) && name in META_SCHEMAS) {
      all[name] = META_SCHEMAS[name]!;
      queue.push(name);
    }
  };
  const scan = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(scan);
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (k === '$ref' && typeof v === 'string') want(v.replace('#/components/schemas/', ''));
        else scan(v);
      }
    }
  };
  scan(own);
  for (const op of operations) {
    if (op.body) want(op.body);
    Object.values(op.responses).forEach(want);
  }
  while (queue.length) scan(all[queue.pop()!]);
  return Object.fromEntries(Object.keys(all).sort().map((k) => [k, all[k]!]));
}

const refTo = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function v3Operation(op: Operation): OpenAPIV3.OperationObject {
  const out: Record<string, unknown> = {
    tags: [op.tag],
    description: op.description,
    operationId: op.operationId,
    parameters: op.query.map((p): OpenAPIV3.ParameterObject => ({ name: p.name, in: 'query', description: p.description, schema: { type: p.type, uniqueItems: true } })),
  };
  if (op.body) {
    const types = op.patchTypes ?? JSON_TYPES;
    const required = op.action !== 'delete' && op.action !== 'deletecollection';
    out.requestBody = { content: Object.fromEntries(types.map((t) => [t, { schema: refTo(op.body!) }])), ...(required ? { required: true } : {}) };
  }
  out.responses = {
    ...Object.fromEntries(
      Object.entries(op.responses).map(([code, schema]) => [
        code,
        { description: code === '201' ? 'Created' : code === '202' ? 'Accepted' : 'OK', content: Object.fromEntries(JSON_TYPES.map((t) => [t, { schema: refTo(schema) }])) },
      ]),
    ),
    '401': { description: 'Unauthorized' },
  };
  out['x-kubernetes-action'] = op.action;
  out['x-kubernetes-group-version-kind'] = op.gvk;
  return out as unknown as OpenAPIV3.OperationObject;
}

function pathParameters(op: Operation): OpenAPIV3.ParameterObject[] {
  return op.pathParams.map((p) => ({ name: p.name, in: 'path', description: p.description, required: true, schema: { type: 'string', uniqueItems: true } }));
}

function v3Document(spec: VersionSpec): OpenAPIV3.Document {
  const paths: OpenAPIV3.PathsObject = {};
  for (const op of spec.operations) {
    const item = (paths[op.path] ??= { parameters: pathParameters(op) }) as Record<string, unknown>;
    item[op.method] = v3Operation(op);
  }
  return {
    openapi: '3.0.0',
    info: INFO,
    paths: Object.fromEntries(Object.keys(paths).sort().map((p) => [p, paths[p]!])),
    components: { schemas: spec.schemas as Record<string, OpenAPIV3.SchemaObject> },
  };
}

/** Swagger 2.0 has no anyOf and no nullable; kube prints int-or-string as a string format. */
function toV2Schema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toV2Schema);
  if (!value || typeof value !== 'object') return value;
  const o = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (o['x-kubernetes-int-or-string'] === true) {
    out.type = 'string';
    out.format = 'int-or-string';
  }
  for (const [k, v] of Object.entries(o)) {
    if (k === '$ref' && typeof v === 'string') out[k] = v.replace('#/components/schemas/', '#/definitions/');
    else if (k === 'nullable' || (k === 'anyOf' && o['x-kubernetes-int-or-string'] === true) || (k === 'pattern' && o['x-kubernetes-int-or-string'] === true)) continue;
    else out[k] = toV2Schema(v);
  }
  return out;
}

function v2Operation(op: Operation): OpenAPIV2.OperationObject {
  const parameters: OpenAPIV2.Parameters = op.query.map((p) => ({ name: p.name, in: 'query', description: p.description, type: p.type, uniqueItems: true }));
  if (op.body) {
    parameters.unshift({ name: 'body', in: 'body', required: op.action !== 'delete' && op.action !== 'deletecollection', schema: { $ref: `#/definitions/${op.body}` } });
  }
  const out: OpenAPIV2.OperationObject & Record<string, unknown> = {
    description: op.description,
    consumes: op.patchTypes ?? ['*/*'],
    produces: [...JSON_TYPES, 'application/vnd.kubernetes.protobuf'],
    schemes: ['https'],
    tags: [op.tag],
    operationId: op.operationId,
    parameters,
    responses: {
      ...Object.fromEntries(
        Object.entries(op.responses).map(([code, schema]) => [code, { description: code === '201' ? 'Created' : code === '202' ? 'Accepted' : 'OK', schema: { $ref: `#/definitions/${schema}` } }]),
      ),
      '401': { description: 'Unauthorized' },
    },
    'x-kubernetes-action': op.action,
    'x-kubernetes-group-version-kind': op.gvk,
  };
  return out;
}

function v2Document(specs: VersionSpec[]): OpenAPIV2.Document {
  const paths: Record<string, Record<string, unknown>> = {};
  const definitions: Record<string, unknown> = {};
  for (const spec of specs) {
    for (const op of spec.operations) {
      const item = (paths[op.path] ??= {
        parameters: op.pathParams.map((p) => ({ name: p.name, in: 'path', description: p.description, required: true, type: 'string', uniqueItems: true })),
      });
      item[op.method] = v2Operation(op);
    }
    for (const [name, schema] of Object.entries(spec.schemas)) definitions[name] = toV2Schema(schema);
  }
  return {
    swagger: '2.0',
    info: INFO,
    paths: Object.fromEntries(Object.keys(paths).sort().map((p) => [p, paths[p]!])) as OpenAPIV2.PathsObject,
    definitions: Object.fromEntries(Object.keys(definitions).sort().map((k) => [k, definitions[k]])) as OpenAPIV2.DefinitionsObject,
  };
}

export function emitOpenAPI(model: ApiModel, options: EmitOptions = {}): EmittedFile[] {
  const specs = model.groups.flatMap((g) => g.versions.map((v) => buildVersion(v, options)));
  return [
    ...specs.map((s) => jsonFile(openapiPath(s.version.group, s.version.name), v3Document(s))),
    jsonFile('openapi/v2/swagger.json', v2Document(specs)),
  ];
}

export { groupFolder };

/**
 * Converting an OpenAPI v3 group/version document to the Swagger 2.0 shape of `/openapi/v2`, so
 * group/versions that only publish v3 (CustomResourceDefinitions, remote APIServices) still appear
 * in the merged v2 document, as kube's aggregator merges every server's v2 spec: schemas become
 * `definitions` (references rewritten), request bodies become `in: body` parameters, response
 * contents become `schema` plus `produces`.
 */

import { refV2, wrappedRefV2 } from '../endpoints/openapi/v2.js';
import { shareParameters } from '../endpoints/openapi/v2-parameters.js';

type JSONObject = Record<string, unknown>;

const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Rewrites `#/components/schemas/X` references to `#/definitions/X`, recursively; a reference with
 * annotations of its own is put beside them, as kube prints Swagger 2.0 (wrappedRefV2).
 */
export function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (!isObject(value)) return value;
  const wrapped = wrappedRefV2(value);
  const out: JSONObject = {};
  for (const [k, v] of Object.entries(value)) {
    if (wrapped && k === 'allOf') out.$ref = wrapped;
    else out[k] = k === '$ref' && typeof v === 'string' ? refV2(v) : rewriteRefs(v);
  }
  return out;
}

function parameter(p: unknown): unknown {
  if (!isObject(p)) return p;
  const { schema, ...rest } = p;
  return isObject(schema) ? { ...rest, ...(rewriteRefs(schema) as JSONObject) } : rest;
}

function operation(op: JSONObject): JSONObject {
  const { requestBody, responses, parameters, ...rest } = op;
  const out: JSONObject = { ...rest };
  const params = Array.isArray(parameters) ? parameters.map(parameter) : [];
  if (isObject(requestBody) && isObject(requestBody.content)) {
    const types = Object.keys(requestBody.content);
    const first = requestBody.content[types[0]!] as JSONObject | undefined;
    out.consumes = types;
    params.unshift({ name: 'body', in: 'body', required: requestBody.required === true, schema: rewriteRefs(first?.schema ?? {}) });
  }
  out.parameters = params;
  if (isObject(responses)) {
    const converted: JSONObject = {};
    const produces = new Set<string>();
    for (const [code, response] of Object.entries(responses)) {
      if (!isObject(response)) continue;
      const { content, ...r } = response;
      const entry: JSONObject = { ...r, description: r.description ?? '' };
      if (isObject(content)) {
        const types = Object.keys(content);
        for (const t of types) produces.add(t);
        const first = content[types[0]!] as JSONObject | undefined;
        if (first?.schema) entry.schema = rewriteRefs(first.schema);
      }
      converted[code] = entry;
    }
    out.responses = converted;
    if (produces.size) out.produces = [...produces];
  }
  return out;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

/**
 * The v2 paths, definitions and shared parameters of a v3 document: its parameters shared as the
 * server's own kube-openapi builder shares them in its /openapi/v2 (shareParameters).
 */
export function v3ToV2(doc: unknown): { paths: JSONObject; definitions: JSONObject; parameters: JSONObject } {
  const paths: JSONObject = {};
  const definitions: JSONObject = {};
  if (!isObject(doc)) return { paths, definitions, parameters: {} };
  if (isObject(doc.paths)) {
    for (const [path, item] of Object.entries(doc.paths)) {
      if (!isObject(item)) continue;
      const out: JSONObject = {};
      for (const [k, v] of Object.entries(item)) {
        if (k === 'parameters' && Array.isArray(v)) out.parameters = v.map(parameter);
        else if (METHODS.includes(k) && isObject(v)) out[k] = operation(v);
      }
      paths[path] = out;
    }
  }
  const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
  for (const [name, schema] of Object.entries(schemas)) definitions[name] = rewriteRefs(schema);
  return { ...shareParameters(paths), definitions };
}

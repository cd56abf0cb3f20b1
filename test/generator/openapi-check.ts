/**
 * A small structural validator for the OpenAPI documents kgen emits: enough of OpenAPI 3.0 and
 * Swagger 2.0 to catch dangling references, undeclared path parameters, malformed operations and
 * schemas. Returns a list of problems (empty when the document is valid), each with a JSON pointer.
 */

type Json = any;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const PATH_ITEM_KEYS = new Set([...METHODS, 'parameters', 'summary', 'description', 'servers', '$ref']);
const SCHEMA_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

/** Resolves a local JSON pointer (`#/components/schemas/a.b`) inside doc. */
export function resolvePointer(doc: Json, ref: string): Json {
  if (!ref.startsWith('#/')) return undefined;
  let node = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

/** Every `$ref` string in a document, with where it was found. */
export function collectRefs(doc: Json): { at: string; ref: string }[] {
  const out: { at: string; ref: string }[] = [];
  const walk = (node: Json, at: string): void => {
    if (Array.isArray(node)) node.forEach((v, i) => walk(v, `${at}/${i}`));
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref') out.push({ at, ref: String(v) });
        else walk(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      }
    }
  };
  walk(doc, '#');
  return out;
}

export interface OperationInfo {
  path: string;
  method: string;
  /** The operation, its parameters resolved (Swagger 2.0's `#/parameters/` references replaced by their declarations). */
  op: Json;
  /** Path-level and operation-level parameters together, resolved. */
  parameters: Json[];
}

/** A parameter list with `{$ref: "#/parameters/<key>"}` replaced by the declaration (left as is when it does not resolve). */
export function resolveParameters(doc: Json, list: Json[] | undefined): Json[] {
  return (list ?? []).map((p) => (typeof p?.$ref === 'string' && p.$ref.startsWith('#/parameters/') ? (resolvePointer(doc, p.$ref) ?? p) : p));
}

export function operations(doc: Json): OperationInfo[] {
  const out: OperationInfo[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const method of METHODS) {
      if (!item[method]) continue;
      const op = item[method].parameters ? { ...item[method], parameters: resolveParameters(doc, item[method].parameters) } : item[method];
      out.push({ path, method, op, parameters: [...resolveParameters(doc, item.parameters), ...(op.parameters ?? [])] });
    }
  }
  return out;
}

/** Swagger 2.0: a `$ref` in a parameter list names `#/parameters/`, and everything else `#/definitions/`. */
function parameterRefs(doc: Json): Set<string> {
  const at = new Set<string>();
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    const pointer = `#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    (item.parameters ?? []).forEach((_: Json, i: number) => at.add(`${pointer}/parameters/${i}`));
    for (const method of METHODS) (item[method]?.parameters ?? []).forEach((_: Json, i: number) => at.add(`${pointer}/${method}/parameters/${i}`));
  }
  return at;
}

function checkSchema(schema: Json, at: string, problems: string[], v2: boolean): void {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) {
    problems.push(`${at}: schema is not an object`);
    return;
  }
  if ('$ref' in schema) {
    // Swagger 2.0 as kube prints it keeps a reference's description and default beside it
    // (readers ignore them); OpenAPI v3 wraps the reference in allOf instead.
    const extra = Object.keys(schema).filter((k) => k !== '$ref' && !(v2 && (k === 'description' || k === 'default')));
    if (extra.length) problems.push(`${at}: $ref with siblings ${extra.join(', ')} (siblings of $ref are ignored; wrap in allOf)`);
    return;
  }
  if (v2 && Array.isArray(schema.allOf) && schema.allOf.length === 1 && Object.keys(schema.allOf[0] ?? {}).join() === '$ref') {
    // kubectl 1.27/1.28 read /openapi/v2 with kube-openapi's proto models, which see an allOf
    // wrapper as an arbitrary value: strategic merge patches below it then panic in kubectl.
    problems.push(`${at}: allOf around one $ref (Swagger 2.0 puts $ref beside description, as kube)`);
  }
  if (schema.type !== undefined && !SCHEMA_TYPES.has(schema.type)) problems.push(`${at}: bad type ${JSON.stringify(schema.type)}`);
  if (schema.type === 'array' && !schema.items) problems.push(`${at}: array without items`);
  if (schema.required !== undefined) {
    if (!Array.isArray(schema.required) || schema.required.some((r: unknown) => typeof r !== 'string')) problems.push(`${at}: required must be a list of names`);
    else if (schema.properties) {
      for (const r of schema.required) if (!(r in schema.properties)) problems.push(`${at}: required "${r}" is not a property`);
    }
  }
  if (schema.enum !== undefined && (!Array.isArray(schema.enum) || schema.enum.length === 0)) problems.push(`${at}: enum must be a non-empty list`);
  if (v2 && ('nullable' in schema || 'anyOf' in schema || 'oneOf' in schema)) problems.push(`${at}: nullable/anyOf/oneOf are not Swagger 2.0`);
  for (const [k, v] of Object.entries<Json>(schema.properties ?? {})) checkSchema(v, `${at}/properties/${k}`, problems, v2);
  if (schema.items) checkSchema(schema.items, `${at}/items`, problems, v2);
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') checkSchema(schema.additionalProperties, `${at}/additionalProperties`, problems, v2);
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    if (schema[key] === undefined) continue;
    if (!Array.isArray(schema[key]) || schema[key].length === 0) problems.push(`${at}/${key}: must be a non-empty list`);
    else schema[key].forEach((s: Json, i: number) => checkSchema(s, `${at}/${key}/${i}`, problems, v2));
  }
}

function checkOperations(doc: Json, problems: string[], v2: boolean): void {
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    if (!path.startsWith('/')) problems.push(`paths: "${path}" must start with /`);
    for (const key of Object.keys(item)) if (!PATH_ITEM_KEYS.has(key) && !key.startsWith('x-')) problems.push(`${path}: unknown path item key "${key}"`);
  }
  for (const { path, method, op, parameters } of operations(doc)) {
    const at = `${method.toUpperCase()} ${path}`;
    if (typeof op.operationId !== 'string' || !op.operationId) problems.push(`${at}: no operationId`);
    if (!op.responses || Object.keys(op.responses).length === 0) problems.push(`${at}: no responses`);
    for (const [code, response] of Object.entries<Json>(op.responses ?? {})) {
      if (!/^([1-5]\d\d|default)$/.test(code)) problems.push(`${at}: bad response code ${code}`);
      if (typeof response.description !== 'string') problems.push(`${at} ${code}: response without description`);
    }
    const seen = new Set<string>();
    for (const p of op.parameters ?? []) {
      const key = `${p.in}:${p.name}`;
      if (seen.has(key)) problems.push(`${at}: parameter ${key} declared twice`);
      seen.add(key);
    }
    for (const p of parameters) {
      const ins = v2 ? ['query', 'header', 'path', 'formData', 'body'] : ['query', 'header', 'path', 'cookie'];
      if (!ins.includes(p.in)) problems.push(`${at}: parameter ${p.name} has bad "in" ${p.in}`);
      if (p.in === 'path' && p.required !== true) problems.push(`${at}: path parameter ${p.name} must be required`);
      if (!v2 && !p.schema) problems.push(`${at}: parameter ${p.name} has no schema`);
      if (v2 && p.in !== 'body' && !p.type) problems.push(`${at}: parameter ${p.name} has no type`);
      if (v2 && p.in === 'body' && !p.schema) problems.push(`${at}: body parameter has no schema`);
    }
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!).sort();
    const declared = parameters.filter((p) => p.in === 'path').map((p) => p.name as string).sort();
    if (JSON.stringify(templated) !== JSON.stringify(declared)) {
      problems.push(`${at}: path parameters {${templated.join(', ')}} but declared [${declared.join(', ')}]`);
    }
    if (!v2 && op.requestBody) {
      const content = op.requestBody.content ?? {};
      if (Object.keys(content).length === 0) problems.push(`${at}: requestBody without content`);
      for (const [type, media] of Object.entries<Json>(content)) checkSchema(media.schema, `${at} requestBody ${type}`, problems, v2);
    }
    if (method === 'get' && (op.requestBody || parameters.some((p) => p.in === 'body'))) problems.push(`${at}: GET with a body`);
  }
}

/** Problems with an OpenAPI 3.0 document. */
export function checkOpenAPIv3(doc: Json): string[] {
  const problems: string[] = [];
  if (typeof doc.openapi !== 'string' || !/^3\.0\.\d+$/.test(doc.openapi)) problems.push(`openapi must be 3.0.x, got ${JSON.stringify(doc.openapi)}`);
  if (typeof doc.info?.title !== 'string' || typeof doc.info?.version !== 'string') problems.push('info.title and info.version are required strings');
  if (!doc.paths || typeof doc.paths !== 'object') problems.push('paths is required');
  for (const [name, schema] of Object.entries<Json>(doc.components?.schemas ?? {})) {
    if (!/^[A-Za-z0-9._-]+$/.test(name)) problems.push(`components.schemas: bad name "${name}"`);
    checkSchema(schema, `#/components/schemas/${name}`, problems, false);
  }
  for (const { at, ref } of collectRefs(doc)) {
    if (!ref.startsWith('#/components/')) problems.push(`${at}: $ref ${ref} is not a local components ref`);
    else if (resolvePointer(doc, ref) === undefined) problems.push(`${at}: $ref ${ref} does not resolve`);
  }
  checkOperations(doc, problems, false);
  return problems;
}

/** Problems with a Swagger 2.0 document. */
export function checkSwagger2(doc: Json): string[] {
  const problems: string[] = [];
  if (doc.swagger !== '2.0') problems.push(`swagger must be "2.0", got ${JSON.stringify(doc.swagger)}`);
  if ('openapi' in doc || 'components' in doc) problems.push('Swagger 2.0 has no openapi or components keys');
  for (const [name, schema] of Object.entries<Json>(doc.definitions ?? {})) checkSchema(schema, `#/definitions/${name}`, problems, true);
  for (const [key, p] of Object.entries<Json>(doc.parameters ?? {})) {
    if (!p || typeof p !== 'object' || typeof p.name !== 'string' || typeof p.in !== 'string') problems.push(`#/parameters/${key}: not a parameter`);
    else if ('$ref' in p) problems.push(`#/parameters/${key}: a declaration is no reference`);
  }
  const inLists = parameterRefs(doc);
  for (const { at, ref } of collectRefs(doc)) {
    const prefix = inLists.has(at) ? '#/parameters/' : '#/definitions/';
    if (!ref.startsWith(prefix)) problems.push(`${at}: $ref ${ref} is not a ${prefix} ref`);
    else if (resolvePointer(doc, ref) === undefined) problems.push(`${at}: $ref ${ref} does not resolve`);
  }
  checkOperations(doc, problems, true);
  return problems;
}

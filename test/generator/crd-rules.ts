/**
 * An independent checker of apiextensions.k8s.io/v1 CustomResourceDefinitions, written from
 * Kubernetes' documentation ("Specifying a structural schema", "Defaulting", "Validation rules")
 * and apiextensions-apiserver's validation (pkg/apis/apiextensions/validation/validation.go and
 * pkg/apiserver/schema's structural invariants), not from kgen's emitter. It returns every
 * problem as `<field path>: <what kube would say>`; an empty list means kube would accept the CRD.
 * It does not compile CEL (the rules' compilation is covered by the KG050 tests) and does not
 * estimate CEL cost.
 */

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSONSchemaProps' JSON field names (apiextensions v1 types.go). */
const SCHEMA_KEYS = new Set([
  'id', '$schema', '$ref', 'description', 'type', 'format', 'title', 'default', 'maximum', 'exclusiveMaximum',
  'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems',
  'multipleOf', 'enum', 'maxProperties', 'minProperties', 'required', 'items', 'allOf', 'oneOf', 'anyOf', 'not',
  'properties', 'additionalProperties', 'patternProperties', 'dependencies', 'additionalItems', 'definitions',
  'externalDocs', 'example', 'nullable', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string', 'x-kubernetes-list-map-keys', 'x-kubernetes-list-type', 'x-kubernetes-map-type',
  'x-kubernetes-validations',
]);
/** Keywords the structural-schema rules and the v3 validator forbid outright. */
const FORBIDDEN = ['id', '$ref', 'definitions', 'patternProperties', 'dependencies', 'additionalItems'];
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);
/** allowedFieldsAtRootSchema, in JSON names, when the status subresource is enabled. */
const ROOT_KEYS = new Set([
  'description', 'type', 'format', 'title', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength',
  'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'required', 'items', 'properties',
  'externalDocs', 'example', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-validations',
]);
/** What may not appear inside allOf/anyOf/oneOf/not (structural schema rule 3). */
const NOT_IN_JUNCTORS = ['type', 'description', 'default', 'additionalProperties', 'nullable'];
const COLUMN_TYPES = new Set(['integer', 'number', 'string', 'boolean', 'date']);
const COLUMN_FORMATS = new Set(['int32', 'int64', 'float', 'double', 'byte', 'date', 'date-time', 'password']);
const REASONS = new Set(['FieldValueInvalid', 'FieldValueForbidden', 'FieldValueRequired', 'FieldValueDuplicate']);
const DNS1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function checkCRD(crd: unknown): string[] {
  const errs: string[] = [];
  if (!isObject(crd)) return ['<root>: not an object'];
  if (crd.apiVersion !== 'apiextensions.k8s.io/v1') errs.push(`apiVersion: must be apiextensions.k8s.io/v1, got ${String(crd.apiVersion)}`);
  if (crd.kind !== 'CustomResourceDefinition') errs.push(`kind: must be CustomResourceDefinition`);
  const spec = isObject(crd.spec) ? crd.spec : {};
  const names = isObject(spec.names) ? spec.names : {};
  const meta = isObject(crd.metadata) ? crd.metadata : {};
  if (meta.name !== `${String(names.plural)}.${String(spec.group)}`) errs.push(`metadata.name: must be spec.names.plural+"."+spec.group`);
  for (const key of Object.keys(spec)) {
    if (!['group', 'names', 'scope', 'versions', 'conversion', 'preserveUnknownFields'].includes(key)) errs.push(`spec.${key}: unknown field`);
  }
  const group = String(spec.group ?? '');
  if (!DNS1123_SUBDOMAIN.test(group) || !group.includes('.')) errs.push(`spec.group: must be a DNS subdomain with at least one dot`);
  if (/(^|\.)(k8s\.io|kubernetes\.io)$/.test(group)) errs.push(`spec.group: protected group (needs api-approved.kubernetes.io)`);
  if (spec.scope !== 'Namespaced' && spec.scope !== 'Cluster') errs.push(`spec.scope: Unsupported value`);
  errs.push(...checkNames(names));
  errs.push(...checkVersions(spec.versions));
  return errs;
}

function checkNames(names: Json): string[] {
  const errs: string[] = [];
  for (const key of ['plural', 'singular', 'kind', 'listKind']) if (typeof names[key] !== 'string' || names[key] === '') errs.push(`spec.names.${key}: Required value`);
  for (const key of ['plural', 'singular']) if (typeof names[key] === 'string' && !DNS1035.test(names[key] as string)) errs.push(`spec.names.${key}: not a DNS-1035 label`);
  for (const key of ['kind', 'listKind']) if (typeof names[key] === 'string' && !DNS1035.test((names[key] as string).toLowerCase())) errs.push(`spec.names.${key}: may have mixed case, but should otherwise match DNS-1035`);
  if (names.kind === names.listKind) errs.push('spec.names.listKind: kind and listKind may not be the same');
  for (const key of ['shortNames', 'categories']) {
    const list = names[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) errs.push(`spec.names.${key}: must be a list`);
    else list.forEach((v, i) => { if (typeof v !== 'string' || !DNS1035.test(v)) errs.push(`spec.names.${key}[${i}]: not a DNS-1035 label`); });
  }
  return errs;
}

function checkVersions(versions: unknown): string[] {
  if (!Array.isArray(versions) || versions.length === 0) return ['spec.versions: must have at least one version'];
  const errs: string[] = [];
  const seen = new Set<string>();
  let storage = 0;
  versions.forEach((v, i) => {
    const at = `spec.versions[${i}]`;
    if (!isObject(v)) return errs.push(`${at}: not an object`);
    for (const key of Object.keys(v)) {
      if (!['name', 'served', 'storage', 'deprecated', 'deprecationWarning', 'schema', 'subresources', 'additionalPrinterColumns', 'selectableFields'].includes(key)) errs.push(`${at}.${key}: unknown field`);
    }
    const name = String(v.name ?? '');
    if (!DNS1035.test(name)) errs.push(`${at}.name: not a DNS-1035 label`);
    if (seen.has(name)) errs.push('spec.versions: must contain unique version names');
    seen.add(name);
    if (typeof v.served !== 'boolean') errs.push(`${at}.served: Required value`);
    if (typeof v.storage !== 'boolean') errs.push(`${at}.storage: Required value`);
    if (v.storage === true) storage++;
    if (v.deprecationWarning !== undefined) {
      if (v.deprecated !== true) errs.push(`${at}.deprecationWarning: can only be set for deprecated versions`);
      if (typeof v.deprecationWarning !== 'string' || v.deprecationWarning.length > 256) errs.push(`${at}.deprecationWarning: must be a string of at most 256 characters`);
    }
    const subresources = isObject(v.subresources) ? v.subresources : undefined;
    const schema = isObject(v.schema) && isObject(v.schema.openAPIV3Schema) ? v.schema.openAPIV3Schema : undefined;
    if (!schema) errs.push(`${at}.schema.openAPIV3Schema: Required value: schemas are required`);
    else errs.push(...checkRootSchema(schema, `${at}.schema.openAPIV3Schema`, subresources?.status !== undefined));
    if (subresources) errs.push(...checkSubresources(subresources, `${at}.subresources`));
    errs.push(...checkColumns(v.additionalPrinterColumns, `${at}.additionalPrinterColumns`));
    errs.push(...checkSelectableFields(v.selectableFields, schema, `${at}.selectableFields`));
  });
  if (storage !== 1) errs.push('spec.versions: must have exactly one version marked as storage version');
  return errs;
}

function checkSubresources(sub: Json, at: string): string[] {
  const errs: string[] = [];
  for (const key of Object.keys(sub)) if (key !== 'status' && key !== 'scale') errs.push(`${at}.${key}: unknown field`);
  if (sub.status !== undefined && !(isObject(sub.status) && Object.keys(sub.status).length === 0)) errs.push(`${at}.status: must be {}`);
  if (isObject(sub.scale)) {
    const s = sub.scale;
    const path = (key: string, prefixes: string[]) => {
      const p = s[key];
      if (typeof p !== 'string' || !p.startsWith('.')) errs.push(`${at}.scale.${key}: must be a simple json path starting with .`);
      else if (!prefixes.some((x) => p.startsWith(x))) errs.push(`${at}.scale.${key}: should be a json path under ${prefixes.join(' or ')}`);
    };
    path('specReplicasPath', ['.spec.']);
    path('statusReplicasPath', ['.status.']);
    if (s.labelSelectorPath !== undefined) path('labelSelectorPath', ['.spec.', '.status.']);
  }
  return errs;
}

function checkColumns(columns: unknown, at: string): string[] {
  if (columns === undefined) return [];
  if (!Array.isArray(columns)) return [`${at}: must be a list`];
  const errs: string[] = [];
  columns.forEach((c, i) => {
    if (!isObject(c)) return errs.push(`${at}[${i}]: not an object`);
    if (typeof c.name !== 'string' || c.name === '') errs.push(`${at}[${i}].name: Required value`);
    if (!COLUMN_TYPES.has(c.type as string)) errs.push(`${at}[${i}].type: Unsupported value`);
    if (c.format !== undefined && !COLUMN_FORMATS.has(c.format as string)) errs.push(`${at}[${i}].format: Unsupported value`);
    if (c.priority !== undefined && !(Number.isInteger(c.priority) && (c.priority as number) >= 0)) errs.push(`${at}[${i}].priority: must be a non-negative integer`);
    if (typeof c.jsonPath !== 'string' || !c.jsonPath.startsWith('.')) errs.push(`${at}[${i}].jsonPath: must be a JSONPath starting with .`);
  });
  return errs;
}

/** Each selectable field names a string, integer or boolean field of the schema (at most 8). */
function checkSelectableFields(fields: unknown, schema: Json | undefined, at: string): string[] {
  if (fields === undefined) return [];
  if (!Array.isArray(fields)) return [`${at}: must be a list`];
  const errs: string[] = [];
  if (fields.length > 8) errs.push(`${at}: Too many: must have at most 8 items`);
  fields.forEach((f, i) => {
    const path = isObject(f) ? f.jsonPath : undefined;
    if (typeof path !== 'string' || !path.startsWith('.')) return errs.push(`${at}[${i}].jsonPath: must be a JSONPath starting with .`);
    let node: Json | undefined = schema;
    for (const part of path.slice(1).split('.')) node = node && isObject(node.properties) && isObject(node.properties[part]) ? node.properties[part] : undefined;
    if (!node) errs.push(`${at}[${i}].jsonPath: Invalid value: does not refer to a field of the schema`);
    else if (!['string', 'integer', 'boolean'].includes(node.type as string)) errs.push(`${at}[${i}].jsonPath: must point to a field of type string, boolean or integer`);
  });
  return errs;
}

function checkRootSchema(schema: Json, at: string, statusEnabled: boolean): string[] {
  const errs: string[] = [];
  if (schema.type !== 'object') errs.push(`${at}.type: must be object at the root`);
  if (statusEnabled) {
    for (const key of Object.keys(schema)) if (!ROOT_KEYS.has(key)) errs.push(`${at}: only ${[...ROOT_KEYS].join(', ')} are allowed at the root if the status subresource is enabled (got ${key})`);
  }
  if (schema.additionalProperties !== undefined) errs.push(`${at}.additionalProperties: not allowed at the root`);
  const props = isObject(schema.properties) ? schema.properties : {};
  if (props.metadata !== undefined) errs.push(...checkRootMetadata(props.metadata, `${at}.properties[metadata]`));
  errs.push(...checkSchema(schema, at, { root: true, uncorrelated: false }));
  return errs;
}

/** Only metadata.name and metadata.generateName may be restricted, and nothing defaulted. */
function checkRootMetadata(meta: unknown, at: string): string[] {
  if (!isObject(meta)) return [`${at}: not an object`];
  const errs: string[] = [];
  for (const key of Object.keys(meta)) if (!['type', 'properties', 'description'].includes(key)) errs.push(`${at}.${key}: must not be set in top-level metadata`);
  if (meta.type !== 'object') errs.push(`${at}.type: must be object`);
  for (const [name, sub] of Object.entries(isObject(meta.properties) ? meta.properties : {})) {
    if (name !== 'name' && name !== 'generateName') errs.push(`${at}.properties[${name}]: only name and generateName may be restricted`);
    else if (!isObject(sub) || sub.type !== 'string' || sub.default !== undefined) errs.push(`${at}.properties[${name}]: must be a string without a default`);
  }
  return errs;
}

interface Context {
  root: boolean;
  /** Under the items of a list that is not list-type=map: oldSelf is forbidden here. */
  uncorrelated: boolean;
}

function checkSchema(s: Json, at: string, ctx: Context): string[] {
  const errs: string[] = [];
  for (const key of Object.keys(s)) if (!SCHEMA_KEYS.has(key)) errs.push(`${at}.${key}: unknown field in JSONSchemaProps`);
  for (const key of FORBIDDEN) if (s[key] !== undefined) errs.push(`${at}.${key}: ${key} is not supported`);
  if (s.uniqueItems === true) errs.push(`${at}.uniqueItems: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`);
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  if (s.type !== undefined && !TYPES.has(s.type as string)) errs.push(`${at}.type: Unsupported value: ${String(s.type)}`);
  if (s.type === undefined && !intOrString && !preserve) errs.push(`${at}.type: Required value: must not be empty for specified object fields`);
  if (intOrString) {
    if (s.type !== undefined) errs.push(`${at}.type: must be empty if x-kubernetes-int-or-string is true`);
    if (s.anyOf !== undefined && JSON.stringify(s.anyOf) !== JSON.stringify([{ type: 'integer' }, { type: 'string' }])) {
      errs.push(`${at}.anyOf: only anyOf: [{type: integer}, {type: string}] is allowed with x-kubernetes-int-or-string`);
    }
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === false) errs.push(`${at}.x-kubernetes-preserve-unknown-fields: must be true or undefined`);
  if (s.additionalProperties === false) errs.push(`${at}.additionalProperties: must not be false in a structural schema`);
  if (s.additionalProperties !== undefined && isObject(s.properties) && Object.keys(s.properties).length > 0) {
    errs.push(`${at}.additionalProperties: additionalProperties and properties are mutual exclusive`);
  }
  if (s['x-kubernetes-embedded-resource'] === true && (s.type !== 'object' || (!preserve && !isObject(s.properties)))) {
    errs.push(`${at}: x-kubernetes-embedded-resource needs type object and properties or x-kubernetes-preserve-unknown-fields`);
  }
  errs.push(...checkJunctors(s, at, intOrString));
  errs.push(...checkListAndMapTypes(s, at));
  if (s.default !== undefined) errs.push(...checkDefault(s.default, s, `${at}.default`));
  errs.push(...checkRules(s, at, ctx));
  for (const [name, child] of Object.entries(isObject(s.properties) ? s.properties : {})) {
    if (!isObject(child)) errs.push(`${at}.properties[${name}]: not a schema`);
    else if (!(ctx.root && name === 'metadata')) errs.push(...checkSchema(child, `${at}.properties[${name}]`, { root: false, uncorrelated: ctx.uncorrelated || s['x-kubernetes-map-type'] === 'atomic' }));
  }
  if (s.items !== undefined) {
    if (!isObject(s.items)) errs.push(`${at}.items: items must be a schema object and not an array`);
    else errs.push(...checkSchema(s.items, `${at}.items`, { root: false, uncorrelated: ctx.uncorrelated || s['x-kubernetes-list-type'] !== 'map' }));
  }
  if (isObject(s.additionalProperties)) errs.push(...checkSchema(s.additionalProperties, `${at}.additionalProperties`, { root: false, uncorrelated: ctx.uncorrelated }));
  if (s.type === 'array' && s.items === undefined) errs.push(`${at}.items: Required value: must be specified for arrays`);
  return errs;
}

/** Structural rule 3: junctors hold value validations only (the int-or-string anyOf aside). */
function checkJunctors(s: Json, at: string, intOrString: boolean): string[] {
  const errs: string[] = [];
  const visit = (node: unknown, path: string, inIntOrString: boolean) => {
    if (!isObject(node)) return;
    for (const key of NOT_IN_JUNCTORS) {
      if (node[key] !== undefined && !(key === 'type' && inIntOrString)) errs.push(`${path}.${key}: must not be set inside allOf, anyOf, oneOf or not`);
    }
    for (const name of Object.keys(isObject(node.properties) ? node.properties : {})) {
      if (!isObject(s.properties) || !(name in s.properties)) errs.push(`${path}.properties[${name}]: must be specified outside of the junctor too`);
    }
  };
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    if (s[key] === undefined) continue;
    if (!Array.isArray(s[key])) errs.push(`${at}.${key}: must be a list`);
    else (s[key] as unknown[]).forEach((n, i) => visit(n, `${at}.${key}[${i}]`, intOrString && key === 'anyOf'));
  }
  if (s.not !== undefined) visit(s.not, `${at}.not`, false);
  return errs;
}

function checkListAndMapTypes(s: Json, at: string): string[] {
  const errs: string[] = [];
  const mapType = s['x-kubernetes-map-type'];
  if (mapType !== undefined) {
    if (s.type !== 'object') errs.push(`${at}.type: must be object if x-kubernetes-map-type is specified`);
    if (mapType !== 'atomic' && mapType !== 'granular') errs.push(`${at}.x-kubernetes-map-type: Unsupported value`);
  }
  const listType = s['x-kubernetes-list-type'];
  const keys = s['x-kubernetes-list-map-keys'];
  if (Array.isArray(keys) && keys.length > 0 && listType !== 'map') errs.push(`${at}.x-kubernetes-list-type: must be map if x-kubernetes-list-map-keys is non-empty`);
  if (listType === undefined) return errs;
  if (s.type !== 'array') errs.push(`${at}.type: must be array if x-kubernetes-list-type is specified`);
  if (!['atomic', 'set', 'map'].includes(listType as string)) errs.push(`${at}.x-kubernetes-list-type: Unsupported value`);
  const items = isObject(s.items) ? s.items : undefined;
  if ((listType === 'set' || listType === 'map') && items?.nullable === true) errs.push(`${at}.items.nullable: cannot be nullable when x-kubernetes-list-type is ${String(listType)}`);
  if (listType === 'set' && items) {
    if (items.type === 'array' && items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== 'atomic') errs.push(`${at}.items.x-kubernetes-list-type: must be atomic as item of a list with x-kubernetes-list-type=set`);
    if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') errs.push(`${at}.items.x-kubernetes-map-type: must be atomic as item of a list with x-kubernetes-list-type=set`);
  }
  if (listType === 'map') {
    if (!Array.isArray(keys) || keys.length === 0) errs.push(`${at}.x-kubernetes-list-map-keys: must not be empty if x-kubernetes-list-type is map`);
    if (!items) errs.push(`${at}.items: must have a schema if x-kubernetes-list-type is map`);
    else if (items.type !== 'object') errs.push(`${at}.items.type: must be object if parent array's x-kubernetes-list-type is map`);
    else {
      const props = isObject(items.properties) ? items.properties : {};
      const required = Array.isArray(items.required) ? items.required : [];
      for (const key of Array.isArray(keys) ? keys : []) {
        const prop = props[key as string];
        if (!isObject(prop)) {
          errs.push(`${at}.x-kubernetes-list-map-keys: entries must all be names of item properties`);
          continue;
        }
        if (prop.type === 'array' || prop.type === 'object') errs.push(`${at}.items.properties[${key}].type: must be a scalar type if parent array's x-kubernetes-list-type is map`);
        if (!required.includes(key) && prop.default === undefined) errs.push(`${at}.items.properties[${key}].default: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`);
        if (prop.nullable === true) errs.push(`${at}.items.properties[${key}].nullable: this property is in x-kubernetes-list-map-keys, so it cannot be nullable`);
      }
    }
  }
  return errs;
}

function checkRules(s: Json, at: string, ctx: Context): string[] {
  const rules = s['x-kubernetes-validations'];
  if (rules === undefined) return [];
  if (!Array.isArray(rules)) return [`${at}.x-kubernetes-validations: must be a list`];
  const errs: string[] = [];
  rules.forEach((r, i) => {
    const p = `${at}.x-kubernetes-validations[${i}]`;
    if (!isObject(r)) return errs.push(`${p}: not an object`);
    for (const key of Object.keys(r)) if (!['rule', 'message', 'messageExpression', 'reason', 'fieldPath', 'optionalOldSelf'].includes(key)) errs.push(`${p}.${key}: unknown field`);
    const rule = typeof r.rule === 'string' ? r.rule.trim() : '';
    if (rule === '') errs.push(`${p}.rule: Required value: rule is not specified`);
    if (typeof r.message === 'string' && (r.message.trim() === '' || /[\n\r]/.test(r.message))) errs.push(`${p}.message: must be non-empty and one line`);
    if (/[\n\r]/.test(rule) && !r.message) errs.push(`${p}.message: Required value: message must be specified if rule contains line breaks`);
    if (r.reason !== undefined && !REASONS.has(r.reason as string)) errs.push(`${p}.reason: Unsupported value`);
    if (r.fieldPath !== undefined && (typeof r.fieldPath !== 'string' || !/^(\.[^.[\]]+|\['[^']*'\])+$/.test(r.fieldPath))) errs.push(`${p}.fieldPath: must be a valid path`);
    if (ctx.uncorrelated && /\boldSelf\b/.test(rule)) errs.push(`${p}.rule: oldSelf cannot be used on the uncorrelatable portion of the schema`);
  });
  return errs;
}

/**
 * Defaults must validate against their schema and survive pruning (kube's defaulting docs):
 * type, enum, bounds, lengths, pattern, and no fields the schema does not declare.
 */
function checkDefault(value: unknown, s: Json, at: string): string[] {
  const errs: string[] = [];
  if (value === null) return s.nullable === true ? [] : [`${at}: null is not allowed for a non-nullable field`];
  const type = s.type as string | undefined;
  const kind = Array.isArray(value) ? 'array' : typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value === 'object' ? 'object' : typeof value;
  if (s['x-kubernetes-int-or-string'] === true) {
    if (kind !== 'integer' && kind !== 'string') errs.push(`${at}: must be an integer or a string`);
  } else if (type !== undefined && type !== kind && !(type === 'number' && kind === 'integer')) {
    return [`${at}: must be of type ${type}, got ${kind}`];
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) errs.push(`${at}: Unsupported value ${JSON.stringify(value)}`);
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && (s.exclusiveMinimum ? value <= s.minimum : value < s.minimum)) errs.push(`${at}: below minimum`);
    if (typeof s.maximum === 'number' && (s.exclusiveMaximum ? value >= s.maximum : value > s.maximum)) errs.push(`${at}: above maximum`);
  }
  if (typeof value === 'string') {
    if (typeof s.maxLength === 'number' && [...value].length > s.maxLength) errs.push(`${at}: longer than maxLength`);
    if (typeof s.minLength === 'number' && [...value].length < s.minLength) errs.push(`${at}: shorter than minLength`);
    if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(value)) errs.push(`${at}: does not match the pattern`);
  }
  if (Array.isArray(value) && isObject(s.items)) value.forEach((v, i) => errs.push(...checkDefault(v, s.items as Json, `${at}[${i}]`)));
  if (isObject(value)) {
    const props = isObject(s.properties) ? s.properties : undefined;
    for (const [k, v] of Object.entries(value)) {
      if (props && isObject(props[k])) errs.push(...checkDefault(v, props[k] as Json, `${at}.${k}`));
      else if (isObject(s.additionalProperties)) errs.push(...checkDefault(v, s.additionalProperties, `${at}.${k}`));
      else if (s['x-kubernetes-preserve-unknown-fields'] !== true) errs.push(`${at}.${k}: would be pruned (unknown field)`);
    }
    for (const r of Array.isArray(s.required) ? s.required : []) if (!(r in value)) errs.push(`${at}.${String(r)}: Required value`);
  }
  return errs;
}

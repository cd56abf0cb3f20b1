/**
 * The rules a CustomResourceDefinition's openAPIV3Schema must follow (apiextensions validation.go
 * ValidateCustomResourceDefinitionOpenAPISchema and specStandardValidatorV3, and the structural
 * schema invariants of pkg/apiserver/schema/validation.go), with kube's field paths and messages.
 * The built-in kind keeps nested schemas as given (the type is recursive), so these checks are
 * where a nested schema is validated.
 */
import { field, type FieldError } from '../validation/index.js';
import { compileRE2 } from '../validation/re2.js';
import { validateCELCost } from './cel-cost-rules.js';

type Props = Record<string, unknown>;
type Level = 'root' | 'field' | 'item';

const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const UNSUPPORTED = ['$ref', 'definitions', 'dependencies', 'additionalItems', 'patternProperties', 'id', '$schema'] as const;
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);

function isObject(v: unknown): v is Props {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every problem of a version's openAPIV3Schema at `path` (`spec.versions[0].schema.openAPIV3Schema`). */
export function validateOpenAPISchema(schema: unknown, path: string, statusEnabled: boolean): FieldError[] {
  if (!isObject(schema)) return [field.invalid(path, schema, 'must be an object')];
  const errs: FieldError[] = [];
  if (schema.nullable === true) errs.push(field.forbidden(`${path}.nullable`, 'nullable cannot be true at the root'));
  if (statusEnabled && schema.type !== undefined && schema.type !== 'object') {
    errs.push(field.invalid(`${path}.type`, schema.type, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled'));
  }
  walk(schema, path, 'root', true, errs);
  // As kube: rules are only priced on a schema that is otherwise valid.
  if (errs.length === 0) errs.push(...validateCELCost(schema, path));
  return errs;
}

function walk(s: Props, path: string, level: Level, isRoot: boolean, errs: FieldError[]): void {
  standardRules(s, path, errs);
  structuralRules(s, path, level, errs);
  listAndMapRules(s, path, errs);
  if (isObject(s.properties)) {
    for (const [name, sub] of Object.entries(s.properties)) {
      const subPath = `${path}.properties[${name}]`;
      if (!isObject(sub)) {
        errs.push(field.invalid(subPath, sub, 'must be a schema object'));
        continue;
      }
      // apiVersion, kind and metadata of a resource are the server's; their schema may only narrow them.
      if ((isRoot || s['x-kubernetes-embedded-resource'] === true) && META_FIELDS.has(name)) continue;
      walk(sub, subPath, 'field', false, errs);
    }
  }
  if (isObject(s.additionalProperties)) walk(s.additionalProperties, `${path}.additionalProperties`, 'field', false, errs);
  if (isObject(s.items)) walk(s.items, `${path}.items`, 'item', false, errs);
  if (isObject(s.not)) junctorRules(s.not, `${path}.not`, errs);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = s[key];
    if (Array.isArray(list)) list.forEach((sub, i) => isObject(sub) && junctorRules(sub, `${path}.${key}[${i}]`, errs));
  }
}

/** specStandardValidatorV3.validate. */
function standardRules(s: Props, path: string, errs: FieldError[]): void {
  for (const key of UNSUPPORTED) {
    if (s[key] !== undefined && !(isObject(s[key]) && Object.keys(s[key] as Props).length === 0)) errs.push(field.forbidden(`${path}.${key}`, `${key} is not supported`));
  }
  if (s.type !== undefined && (typeof s.type !== 'string' || !OPENAPI_V3_TYPES.includes(s.type))) {
    errs.push(field.notSupported(`${path}.type`, s.type, OPENAPI_V3_TYPES));
  }
  if (Array.isArray(s.items)) errs.push(field.forbidden(`${path}.items`, 'items must be a schema object and not an array'));
  if (s.additionalProperties === false) errs.push(field.forbidden(`${path}.additionalProperties`, 'additionalProperties cannot be set to false'));
  if (s.uniqueItems === true) errs.push(field.forbidden(`${path}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  if (s.additionalProperties !== undefined && isObject(s.properties) && Object.keys(s.properties).length > 0) {
    errs.push(field.forbidden(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    errs.push(field.invalid(`${path}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
  }
  if (typeof s.pattern === 'string' && s.pattern !== '') {
    try {
      compileRE2(s.pattern);
    } catch (err) {
      errs.push(field.invalid(`${path}.pattern`, s.pattern, `must be a valid regular expression, but isn't: ${(err as Error).message}`));
    }
  }
  const rules = s['x-kubernetes-validations'];
  if (Array.isArray(rules)) {
    rules.forEach((rule, i) => {
      const r = isObject(rule) ? rule : {};
      if (typeof r.rule !== 'string' || r.rule.trim() === '') errs.push(field.required(`${path}.x-kubernetes-validations[${i}].rule`, 'rule is not specified'));
    });
  }
}

/** The structural schema invariants (ValidateStructural). */
function structuralRules(s: Props, path: string, level: Level, errs: FieldError[]): void {
  const type = typeof s.type === 'string' ? s.type : '';
  if (level === 'root' && type !== '' && type !== 'object') errs.push(field.invalid(`${path}.type`, type, 'must be object at the root'));
  if (type === 'array' && s.items === undefined) errs.push(field.required(`${path}.items`, 'must be specified'));
  if (s['x-kubernetes-embedded-resource'] === true && type !== 'object') {
    errs.push(type === '' ? field.required(`${path}.type`, 'must be object if x-kubernetes-embedded-resource is true') : field.invalid(`${path}.type`, type, 'must be object if x-kubernetes-embedded-resource is true'));
  }
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  if (intOrString && type !== '') errs.push(field.invalid(`${path}.type`, type, 'must be empty if x-kubernetes-int-or-string is true'));
  const untypedOK = s['x-kubernetes-embedded-resource'] === true || intOrString || s['x-kubernetes-preserve-unknown-fields'] === true;
  if (type === '' && !untypedOK) {
    const where = level === 'root' ? 'at the root' : level === 'item' ? 'for specified array items' : 'for specified object fields';
    errs.push(field.required(`${path}.type`, `must not be empty ${where}`));
  }
}

/** x-kubernetes-list-type / list-map-keys / map-type consistency. */
function listAndMapRules(s: Props, path: string, errs: FieldError[]): void {
  const listType = s['x-kubernetes-list-type'];
  const mapType = s['x-kubernetes-map-type'];
  const keys = s['x-kubernetes-list-map-keys'];
  if (mapType !== undefined && s.type !== 'object') {
    errs.push(s.type === undefined ? field.required(`${path}.type`, 'must be object if x-kubernetes-map-type is specified') : field.invalid(`${path}.type`, s.type, 'must be object if x-kubernetes-map-type is specified'));
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') errs.push(field.notSupported(`${path}.x-kubernetes-map-type`, mapType, ['atomic', 'granular']));
  if (listType !== undefined && s.type !== 'array') {
    errs.push(s.type === undefined ? field.required(`${path}.type`, 'must be array if x-kubernetes-list-type is specified') : field.invalid(`${path}.type`, s.type, 'must be array if x-kubernetes-list-type is specified'));
  }
  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map') {
    errs.push(field.notSupported(`${path}.x-kubernetes-list-type`, listType, ['atomic', 'set', 'map']));
  }
  if (Array.isArray(keys) && keys.length > 0) {
    if (listType === undefined) errs.push(field.required(`${path}.x-kubernetes-list-type`, 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') errs.push(field.invalid(`${path}.x-kubernetes-list-type`, listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType === 'map') {
    if (!Array.isArray(keys) || keys.length === 0) errs.push(field.required(`${path}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map'));
    if (s.items === undefined) errs.push(field.required(`${path}.items`, 'must have a schema if x-kubernetes-list-type is map'));
    else if (isObject(s.items)) {
      const items = s.items;
      if (items.type !== 'object') errs.push(field.invalid(`${path}.items.type`, items.type, "must be object if parent array's x-kubernetes-list-type is map"));
      else if (Array.isArray(keys)) {
        const props = isObject(items.properties) ? items.properties : {};
        for (const k of keys) {
          if (typeof k !== 'string' || !(k in props)) errs.push(field.invalid(`${path}.x-kubernetes-list-map-keys`, keys, 'entries must all be names of item properties'));
        }
      }
    }
  }  mapListKeysMapSetRules(s, path, errs);
}

/**
 * validateMapListKeysMapSet (required of every CRD created since 1.30): the items of a set or map
 * list are not nullable, and a map list's keys are required or defaulted, and not nullable.
 */
function mapListKeysMapSetRules(s: Props, path: string, errs: FieldError[]): void {
  const listType = s['x-kubernetes-list-type'];
  if ((listType !== 'set' && listType !== 'map') || !isObject(s.items)) return;
  const items = s.items;
  if (items.nullable === true) errs.push(field.forbidden(`${path}.items.nullable`, `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType !== 'map' || !Array.isArray(s['x-kubernetes-list-map-keys'])) return;
  const props = isObject(items.properties) ? items.properties : {};
  const required = new Set(Array.isArray(items.required) ? items.required : []);
  for (const k of s['x-kubernetes-list-map-keys'] as unknown[]) {
    const prop = typeof k === 'string' ? props[k] : undefined;
    if (!isObject(prop)) continue;
    if (!required.has(k) && prop.default === undefined) {
      errs.push(field.required(`${path}.items.properties[${k}].default`, 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
    }
    if (prop.nullable === true) errs.push(field.forbidden(`${path}.items.properties[${k}].nullable`, 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
  }
}

/**
 * Inside allOf/anyOf/oneOf/not a structural schema may only restrict values: no types,
 * properties definitions with types, defaults or extensions (kube's validateNestedValueValidation).
 */
function junctorRules(s: Props, path: string, errs: FieldError[]): void {
  standardRules(s, path, errs);
  if (s.default !== undefined) errs.push(field.forbidden(`${path}.default`, 'must be undefined to be structural'));
  for (const key of ['x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource'] as const) {
    if (s[key] !== undefined) errs.push(field.forbidden(`${path}.${key}`, 'must be false to be structural'));
  }
  // validateNestedValueValidation goes down properties, items and nested junctors (patterns in them are compiled too).
  if (isObject(s.properties)) {
    for (const [name, sub] of Object.entries(s.properties)) if (isObject(sub)) junctorRules(sub, `${path}.properties[${name}]`, errs);
  }
  if (isObject(s.additionalProperties)) junctorRules(s.additionalProperties, `${path}.additionalProperties`, errs);
  if (isObject(s.items)) junctorRules(s.items, `${path}.items`, errs);
  if (isObject(s.not)) junctorRules(s.not, `${path}.not`, errs);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = s[key];
    if (Array.isArray(list)) list.forEach((sub, i) => isObject(sub) && junctorRules(sub, `${path}.${key}[${i}]`, errs));
  }
}

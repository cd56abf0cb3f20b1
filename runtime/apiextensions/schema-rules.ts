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

/**
 * kube's validationOptions that change schema rules. A v1 CRD is created with all of them true
 * (V1_OPTIONS); an update keeps a rule off when the old CRD already broke it, and kube's unit
 * tests switch them individually (test/apiextensions/schema-rules-table.test.ts).
 */
export interface SchemaValidationOptions {
  requireStructuralSchema: boolean;
  requireValidPropertyType: boolean;
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
}

export const V1_OPTIONS: SchemaValidationOptions = {
  requireStructuralSchema: true,
  requireValidPropertyType: true,
  requireAtomicSetType: true,
  requireMapListKeysMapSetValidation: true,
};

/** Every problem of a version's openAPIV3Schema at `path` (`spec.versions[0].schema.openAPIV3Schema`). */
export function validateOpenAPISchema(schema: unknown, path: string, statusEnabled: boolean, opts: SchemaValidationOptions = V1_OPTIONS): FieldError[] {
  if (!isObject(schema)) return [field.invalid(path, schema, 'must be an object')];
  const errs: FieldError[] = [];
  if (schema.nullable === true) errs.push(field.forbidden(`${path}.nullable`, 'nullable cannot be true at the root'));
  if (statusEnabled && schema.type !== undefined && schema.type !== 'object') {
    errs.push(field.invalid(`${path}.type`, schema.type, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled'));
  }
  walk(schema, path, 'root', true, errs, opts);
  // As kube: rules are only priced on a schema that is otherwise valid.
  if (errs.length === 0) errs.push(...validateCELCost(schema, path));
  return errs;
}

function walk(s: Props, path: string, level: Level, isRoot: boolean, errs: FieldError[], opts: SchemaValidationOptions): void {
  standardRules(s, path, errs, opts);
  if (opts.requireStructuralSchema) structuralRules(s, path, level, errs);
  listAndMapRules(s, path, errs, opts);
  if (isObject(s.properties)) {
    for (const [name, sub] of Object.entries(s.properties)) {
      const subPath = `${path}.properties[${name}]`;
      if (!isObject(sub)) {
        errs.push(field.invalid(subPath, sub, 'must be a schema object'));
        continue;
      }
      // apiVersion, kind and metadata of a resource are the server's; their schema may only narrow them.
      if ((isRoot || s['x-kubernetes-embedded-resource'] === true) && META_FIELDS.has(name)) continue;
      walk(sub, subPath, 'field', false, errs, opts);
    }
  }
  if (isObject(s.additionalProperties)) walk(s.additionalProperties, `${path}.additionalProperties`, 'field', false, errs, opts);
  if (isObject(s.items)) walk(s.items, `${path}.items`, 'item', false, errs, opts);
  if (isObject(s.not)) junctorRules(s.not, `${path}.not`, errs);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = s[key];
    if (Array.isArray(list)) list.forEach((sub, i) => isObject(sub) && junctorRules(sub, `${path}.${key}[${i}]`, errs));
  }
}

/** specStandardValidatorV3.validate, and the checks ValidateCustomResourceDefinitionOpenAPISchema adds. */
function standardRules(s: Props, path: string, errs: FieldError[], opts: SchemaValidationOptions = V1_OPTIONS): void {
  for (const key of UNSUPPORTED) {
    if (s[key] !== undefined && !(isObject(s[key]) && Object.keys(s[key] as Props).length === 0)) errs.push(field.forbidden(`${path}.${key}`, `${key} is not supported`));
  }
  if (opts.requireValidPropertyType && s.type !== undefined && s.type !== '' && (typeof s.type !== 'string' || !OPENAPI_V3_TYPES.includes(s.type))) {
    errs.push(field.notSupported(`${path}.type`, s.type, OPENAPI_V3_TYPES));
  }
  if (s.type === 'null') errs.push(field.forbidden(`${path}.type`, 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items)) errs.push(field.forbidden(`${path}.items`, 'items must be a schema object and not an array'));
  if (s.uniqueItems === true) errs.push(field.forbidden(`${path}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  // Only a map schema (additionalProperties: false, or a schema) contradicts properties; `true` does not.
  if (s.additionalProperties !== undefined && s.additionalProperties !== true && isObject(s.properties) && Object.keys(s.properties).length > 0) {
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

/** The structural schema invariants (pkg/apiserver/schema/validation.go validateStructuralInvariants). */
function structuralRules(s: Props, path: string, level: Level, errs: FieldError[]): void {
  const type = typeof s.type === 'string' ? s.type : '';
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  if (type === 'array' && s.items === undefined) errs.push(field.required(`${path}.items`, 'must be specified'));
  if (s.additionalProperties !== undefined && level === 'root') errs.push(field.forbidden(`${path}.additionalProperties`, 'must not be used at the root'));
  if (intOrString && preserve) errs.push(field.invalid(`${path}.x-kubernetes-preserve-unknown-fields`, true, 'must be false if x-kubernetes-int-or-string is true'));
  if (intOrString && embedded) errs.push(field.invalid(`${path}.x-kubernetes-embedded-resource`, true, 'must be false if x-kubernetes-int-or-string is true'));
  if (embedded && type !== 'object') {
    errs.push(type === '' ? field.required(`${path}.type`, 'must be object if x-kubernetes-embedded-resource is true') : field.invalid(`${path}.type`, type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (type === '' && !intOrString && !preserve) {
    const where = level === 'root' ? 'at the root' : level === 'item' ? 'for specified array items' : 'for specified object fields';
    errs.push(field.required(`${path}.type`, `must not be empty ${where}`));
  }
  if (embedded && s.additionalProperties !== undefined) errs.push(field.forbidden(`${path}.additionalProperties`, 'must not be used if x-kubernetes-embedded-resource is set'));
  if (level === 'root' && type !== '' && type !== 'object') errs.push(field.invalid(`${path}.type`, type, 'must be object at the root'));
  const props = isObject(s.properties) ? s.properties : {};
  if (level === 'root' || embedded) {
    for (const key of ['kind', 'apiVersion'] as const) {
      const sub = props[key];
      if (isObject(sub) && sub.type !== 'string') errs.push(field.invalid(`${path}.properties[${key}].type`, sub.type ?? '', 'must be string'));
    }
  }
  if (embedded && !preserve && Object.keys(props).length === 0) {
    errs.push(field.required(`${path}.properties`, 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
}

/** x-kubernetes-list-type / list-map-keys / map-type consistency. */
function listAndMapRules(s: Props, path: string, errs: FieldError[], opts: SchemaValidationOptions): void {
  const listType = s['x-kubernetes-list-type'];
  const mapType = s['x-kubernetes-map-type'];
  const keys = s['x-kubernetes-list-map-keys'];
  if (mapType !== undefined && s.type !== 'object') {
    errs.push(s.type === undefined ? field.required(`${path}.type`, 'must be object if x-kubernetes-map-type is specified') : field.invalid(`${path}.type`, s.type, 'must be object if x-kubernetes-map-type is specified'));
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') errs.push(field.notSupported(`${path}.x-kubernetes-map-type`, mapType, ['atomic', 'granular']));
  if (listType !== undefined && s.type !== 'array') {
    errs.push(s.type === undefined ? field.required(`${path}.type`, 'must be array if x-kubernetes-list-type is specified') : field.invalid(`${path}.type`, s.type, 'must be array if x-kubernetes-list-type is specified'));
  } else if (opts.requireAtomicSetType && listType === 'set' && isObject(s.items)) {
    const items = s.items;
    if (items.type === 'array' && items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== 'atomic') {
      errs.push(field.invalid(`${path}.items.x-kubernetes-list-type`, items['x-kubernetes-list-type'], 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
    if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      errs.push(field.invalid(`${path}.items.x-kubernetes-map-type`, items['x-kubernetes-list-type'] ?? null, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
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
    else if (Array.isArray(s.items)) errs.push(field.invalid(`${path}.items`, s.items, 'must only have a single schema if x-kubernetes-list-type is map'));
    else if (isObject(s.items)) {
      const items = s.items;
      if (items.type !== 'object') errs.push(field.invalid(`${path}.items.type`, items.type, "must be object if parent array's x-kubernetes-list-type is map"));
      else if (Array.isArray(keys)) {
        const props = isObject(items.properties) ? items.properties : {};
        const seen = new Set<unknown>();
        for (const k of keys) {
          const prop = typeof k === 'string' && Object.hasOwn(props, k) ? props[k] : undefined;
          if (!isObject(prop)) errs.push(field.invalid(`${path}.x-kubernetes-list-map-keys`, keys, 'entries must all be names of item properties'));
          else if (prop.type === 'array' || prop.type === 'object') {
            errs.push(field.invalid(`${path}.items.properties[${String(k)}].type`, items.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
          }
          if (seen.has(k)) errs.push(field.invalid(`${path}.x-kubernetes-list-map-keys`, keys, 'must not contain duplicate entries'));
          seen.add(k);
        }
      }
    }
  }
  if (opts.requireMapListKeysMapSetValidation) mapListKeysMapSetRules(s, path, errs);
}

/** validateMapListKeysMapSet: set and map items are not nullable; map keys are required or defaulted, never nullable. */
function mapListKeysMapSetRules(s: Props, path: string, errs: FieldError[]): void {
  const listType = s['x-kubernetes-list-type'];
  if (!isObject(s.items) || (listType !== 'set' && listType !== 'map')) return;
  const items = s.items;
  if (items.nullable === true) errs.push(field.forbidden(`${path}.items.nullable`, `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType !== 'map') return;
  const required = new Set(Array.isArray(items.required) ? items.required : []);
  const props = isObject(items.properties) ? items.properties : {};
  for (const k of Array.isArray(s['x-kubernetes-list-map-keys']) ? (s['x-kubernetes-list-map-keys'] as unknown[]) : []) {
    const prop = typeof k === 'string' && Object.hasOwn(props, k) ? props[k] : undefined;
    if (!isObject(prop)) continue;
    if (!required.has(k) && prop.default === undefined) {
      errs.push(field.required(`${path}.items.properties[${String(k)}].default`, 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
    }
    if (prop.nullable === true) errs.push(field.forbidden(`${path}.items.properties[${String(k)}].nullable`, 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
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

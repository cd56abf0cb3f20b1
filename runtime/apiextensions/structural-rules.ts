/**
 * Structural schema rules of apiextensions-apiserver pkg/apiserver/schema: NewStructural's
 * refusals (convert.go: fields a structural schema cannot hold), and ValidateStructural
 * (validation.go: validateStructuralInvariants, the metadata invariants, the nested value
 * validations allowed inside allOf/anyOf/oneOf/not, and complete.go's completeness: every
 * property or items a value validation names must be specified in the structural part).
 * Paths and messages are kube's; ValidateStructural's errors are sorted by their text, as kube
 * sorts them.
 */
import { field, type FieldError } from '../validation/index.js';
import { compileRE2 } from '../validation/re2.js';

type Props = Record<string, unknown>;
type Level = 'root' | 'item' | 'field';

export const isObject = (v: unknown): v is Props => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown) => (Array.isArray(v) ? v.length > 0 : isObject(v) ? Object.keys(v).length > 0 : v !== undefined && v !== null && v !== '' && v !== false);

/** validateUnsupportedFields, in kube's order. */
function unsupportedField(s: Props): string | undefined {
  if (typeof s.id === 'string' && s.id !== '') return "OpenAPIV3Schema 'id' is not supported";
  if (typeof s.$schema === 'string' && s.$schema !== '') return "OpenAPIV3Schema 'schema' is not supported";
  if (typeof s.$ref === 'string' && s.$ref !== '') return "OpenAPIV3Schema '$ref' is not supported";
  if (nonEmpty(s.patternProperties)) return "OpenAPIV3Schema 'patternProperties' is not supported";
  if (nonEmpty(s.dependencies)) return "OpenAPIV3Schema 'dependencies' is not supported";
  if (s.additionalItems !== undefined && s.additionalItems !== null) return "OpenAPIV3Schema 'additionalItems' is not supported";
  if (nonEmpty(s.definitions)) return "OpenAPIV3Schema 'definitions' is not supported";
  return undefined;
}

/**
 * Why NewStructural cannot read the schema, or undefined. kube reports it as one error at the
 * schema's root, and only when no other schema error was found.
 */
export function structuralConversionError(s: unknown): string | undefined {
  if (!isObject(s)) return undefined;
  const unsupported = unsupportedField(s);
  if (unsupported) return unsupported;
  for (const key of ['not'] as const) {
    const err = structuralConversionError(s[key]);
    if (err) return err;
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (!Array.isArray(s[key])) continue;
    for (const sub of s[key] as unknown[]) {
      const err = structuralConversionError(sub);
      if (err) return err;
    }
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === false) return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  if (Array.isArray(s.items) && s.items.length > 0) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  const children = [s.items, ...(isObject(s.properties) ? Object.values(s.properties) : []), s.additionalProperties];
  for (const child of children) {
    const err = structuralConversionError(child);
    if (err) return err;
  }
  return undefined;
}

/**
 * ValidateStructural: invariants and completeness, sorted by their text as kube sorts them.
 * `unusualBelow`, when given, holds the nodes with not, allOf, anyOf or oneOf at or below them
 * (SchemaFacts.unusualBelow, a superset): under any other node the value validations inside those
 * and completeness have nothing to check.
 */
export function validateStructural(s: Props, path: string, unusualBelow?: WeakSet<Props>): FieldError[] {
  const errs: FieldError[] = [];
  const unusual = unusualBelow ?? ALL;
  invariants(s, 'root', path, unusual.has(s) ? unusual : true, errs);
  if (unusual.has(s)) errs.push(...completeness(s, path));
  return errs.sort((a, b) => (errorText(a) < errorText(b) ? -1 : errorText(a) > errorText(b) ? 1 : 0));
}

const errorText = (e: FieldError) => `${e.field}: ${e.message}`;
const typeOf = (s: Props) => (typeof s.type === 'string' ? s.type : '');
const propsOf = (s: Props): Props => (isObject(s.properties) ? s.properties : {});

/** Every node counts as unusual (validateStructural without SchemaFacts). */
const ALL = { has: (_: Props) => true } as const;

/**
 * validateStructuralInvariants of one node and below, appended to `errs` (sorted by the caller).
 * `unusual`: true when nothing here or below is unusual, else the set to ask about each child.
 */
function invariants(s: Props, level: Level, path: string, unusual: true | { has(s: Props): boolean }, errs: FieldError[]): void {
  const common = unusual === true;
  const below = (child: Props) => (common || !unusual.has(child) ? true : unusual);
  const type = typeOf(s);
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const items = s.items;
  if (type === 'array' && !isObject(items)) errs.push(field.required(`${path}.items`, 'must be specified'));
  if (isObject(items)) invariants(items, 'item', `${path}.items`, below(items), errs);
  const props = propsOf(s);
  for (const name in props) {
    if (!Object.hasOwn(props, name)) continue;
    const sub = props[name];
    if (isObject(sub)) invariants(sub, 'field', `${path}.properties[${name}]`, below(sub), errs);
  }
  const ap = s.additionalProperties;
  if (ap !== undefined && ap !== null) {
    if (level === 'root') errs.push(field.forbidden(`${path}.additionalProperties`, 'must not be used at the root'));
    if (isObject(ap)) invariants(ap, 'field', `${path}.additionalProperties`, below(ap), errs);
  }
  if (intOrString && preserve) errs.push(field.invalid(`${path}.x-kubernetes-preserve-unknown-fields`, true, 'must be false if x-kubernetes-int-or-string is true'));
  if (intOrString && embedded) errs.push(field.invalid(`${path}.x-kubernetes-embedded-resource`, true, 'must be false if x-kubernetes-int-or-string is true'));
  if (common) patternValidation(s, path, errs);
  else errs.push(...valueValidation(s, isIntOrStringAnyOf(s), isIntOrStringAllOf(s), level, path));
  const checkMetadata = level === 'root' || embedded;
  if (embedded && type !== 'object') {
    errs.push(type === '' ? field.required(`${path}.type`, 'must be object if x-kubernetes-embedded-resource is true') : field.invalid(`${path}.type`, type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (type === '' && !intOrString && !preserve) {
    const where = level === 'root' ? 'at the root' : level === 'item' ? 'for specified array items' : 'for specified object fields';
    errs.push(field.required(`${path}.type`, `must not be empty ${where}`));
  }
  if (embedded && ap !== undefined && ap !== null) {
    errs.push(field.forbidden(`${path}.additionalProperties`, 'must not be used if x-kubernetes-embedded-resource is set'));
  }
  if (level === 'root' && type !== '' && type !== 'object') errs.push(field.invalid(`${path}.type`, type, 'must be object at the root'));
  if (checkMetadata) {
    for (const key of ['kind', 'apiVersion'] as const) {
      const sub = props[key];
      if (isObject(sub) && sub.type !== 'string') errs.push(field.invalid(`${path}.properties[${key}].type`, typeOf(sub), 'must be string'));
    }
  }
  if (isObject(props.metadata)) errs.push(...metadataInvariants(props.metadata, checkMetadata, level, `${path}.properties[metadata]`));
  if (embedded && !preserve && Object.keys(props).length === 0) {
    errs.push(field.required(`${path}.properties`, 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
}

/**
 * validateStructuralMetadataInvariants: metadata of a resource is an object, and at the root it
 * may only narrow name and generateName (a default there is API validation's to refuse).
 */
function metadataInvariants(s: Props, checkMetadata: boolean, level: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && s.type !== 'object') errs.push(field.invalid(`${path}.type`, typeOf(s), 'must be object'));
  if (level === 'root') {
    const props = Object.keys(propsOf(s));
    const onlyNames = props.every((p) => p === 'name' || p === 'generateName');
    const rest = Object.entries(s).filter(([k, v]) => k !== 'type' && k !== 'default' && k !== 'properties' && !isZero(k, v));
    if (!onlyNames || rest.length > 0) errs.push(field.forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  }
  return errs;
}

/** Go's zero value for a JSONSchemaProps field as it reaches the Structural type. */
function isZero(key: string, v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === '') return true;
  // Slices and maps the converter leaves nil when empty.
  if ((Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0 && key !== 'not' && key !== 'additionalProperties' && key !== 'items')) return true;
  return false;
}

const INT_OR_STRING_ANY_OF = (anyOf: unknown) =>
  Array.isArray(anyOf) &&
  anyOf.length === 2 &&
  anyOf.every((x, i) => isObject(x) && Object.keys(x).length === 1 && x.type === (i === 0 ? 'integer' : 'string'));
const isIntOrStringAnyOf = (s: Props) => INT_OR_STRING_ANY_OF(s.anyOf);
const isIntOrStringAllOf = (s: Props) => Array.isArray(s.allOf) && s.allOf.length >= 1 && isObject(s.allOf[0]) && INT_OR_STRING_ANY_OF(s.allOf[0].anyOf);

/** validateValueValidation: the junctors of one schema and its pattern. */
function valueValidation(v: Props, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, level: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!skipAnyOf && Array.isArray(v.anyOf)) v.anyOf.forEach((x, i) => isObject(x) && errs.push(...nested(x, false, level, `${path}.anyOf[${i}]`)));
  if (Array.isArray(v.allOf)) v.allOf.forEach((x, i) => isObject(x) && errs.push(...nested(x, skipFirstAllOfAnyOf && i === 0, level, `${path}.allOf[${i}]`)));
  if (Array.isArray(v.oneOf)) v.oneOf.forEach((x, i) => isObject(x) && errs.push(...nested(x, false, level, `${path}.oneOf[${i}]`)));
  if (isObject(v.not)) errs.push(...nested(v.not, false, level, `${path}.not`));
  patternValidation(v, path, errs);
  return errs;
}

/** The pattern part of validateValueValidation: it must compile (as Go's regexp). */
function patternValidation(v: Props, path: string, errs: FieldError[]): void {
  if (typeof v.pattern === 'string' && v.pattern !== '') {
    try {
      compileRE2(v.pattern);
    } catch (err) {
      errs.push(field.invalid(`${path}.pattern`, v.pattern, `must be a valid regular expression, but isn't: ${(err as Error).message}`));
    }
  }
}

/** validateNestedValueValidation: inside a junctor a schema may only restrict values. */
function nested(v: Props, skipAnyOf: boolean, level: Level, path: string): FieldError[] {
  const errs = valueValidation(v, skipAnyOf, false, level, path);
  if (isObject(v.items)) errs.push(...nested(v.items, false, level, `${path}.items`));
  for (const [name, sub] of Object.entries(propsOf(v))) if (isObject(sub)) errs.push(...nested(sub, false, 'field', `${path}.properties[${name}]`));
  if (typeof v.type === 'string' && v.type !== '') errs.push(field.forbidden(`${path}.type`, 'must be empty to be structural'));
  // additionalProperties: false becomes no nested validation at all (NewStructural drops it).
  if (isObject(v.additionalProperties) || v.additionalProperties === true) errs.push(field.forbidden(`${path}.additionalProperties`, 'must be undefined to be structural'));
  if (v.default !== undefined) errs.push(field.forbidden(`${path}.default`, 'must be undefined to be structural'));
  if (typeof v.title === 'string' && v.title !== '') errs.push(field.forbidden(`${path}.title`, 'must be empty to be structural'));
  if (typeof v.description === 'string' && v.description !== '') errs.push(field.forbidden(`${path}.description`, 'must be empty to be structural'));
  if (v.nullable === true) errs.push(field.forbidden(`${path}.nullable`, 'must be false to be structural'));
  if (v['x-kubernetes-preserve-unknown-fields'] === true) errs.push(field.forbidden(`${path}.x-kubernetes-preserve-unknown-fields`, 'must be false to be structural'));
  if (v['x-kubernetes-embedded-resource'] === true) errs.push(field.forbidden(`${path}.x-kubernetes-embedded-resource`, 'must be false to be structural'));
  if (v['x-kubernetes-int-or-string'] === true) errs.push(field.forbidden(`${path}.x-kubernetes-int-or-string`, 'must be false to be structural'));
  if (Array.isArray(v['x-kubernetes-list-map-keys']) && v['x-kubernetes-list-map-keys'].length > 0) {
    errs.push(field.forbidden(`${path}.x-kubernetes-list-map-keys`, 'must be empty to be structural'));
  }
  if (v['x-kubernetes-list-type'] !== undefined && v['x-kubernetes-list-type'] !== null) errs.push(field.forbidden(`${path}.x-kubernetes-list-type`, 'must be undefined to be structural'));
  if (v['x-kubernetes-map-type'] !== undefined && v['x-kubernetes-map-type'] !== null) errs.push(field.forbidden(`${path}.x-kubernetes-map-type`, 'must be undefined to be structural'));
  if (Array.isArray(v['x-kubernetes-validations']) && v['x-kubernetes-validations'].length > 0) {
    errs.push(field.forbidden(`${path}.x-kubernetes-validations`, 'must be empty to be structural'));
  }
  if (isObject(propsOf(v).metadata)) errs.push(field.forbidden(`${path}.properties[metadata]`, 'must not be specified in a nested context'));
  return errs;
}

/** validateStructuralCompleteness (CRDs: no nested additionalProperties, no properties matched through additionalProperties). */
function completeness(s: Props, path: string): FieldError[] {
  return valueCompleteness(s, s, path, path);
}

function valueCompleteness(v: Props, s: Props | undefined, sPath: string, vPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isObject(v.not)) errs.push(...nestedCompleteness(v.not, s, sPath, `${vPath}.not`));
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (Array.isArray(v[key])) (v[key] as unknown[]).forEach((x, i) => isObject(x) && errs.push(...nestedCompleteness(x, s, sPath, `${vPath}.${key}[${i}]`)));
  }
  return errs;
}

function nestedCompleteness(v: Props, s: Props | undefined, sPath: string, vPath: string): FieldError[] {
  if (s === undefined) return [field.required(sPath, `because it is defined in ${vPath}`)];
  const errs = valueCompleteness(v, s, sPath, vPath);
  if (isObject(v.items)) errs.push(...nestedCompleteness(v.items, isObject(s.items) ? s.items : undefined, `${sPath}.items`, `${vPath}.items`));
  const sProps = propsOf(s);
  for (const [name, sub] of Object.entries(propsOf(v))) {
    if (!isObject(sub)) continue;
    const sFld = sProps[name];
    if (!isObject(sFld)) errs.push(field.required(`${sPath}.properties[${name}]`, `because it is defined in ${vPath}.properties[${name}]`));
    else errs.push(...nestedCompleteness(sub, sFld, `${sPath}.properties[${name}]`, `${vPath}.properties[${name}]`));
  }
  return errs;
}

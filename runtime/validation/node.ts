/**
 * SchemaNode: one compiled, resolved schema (the structural schema of apiextensions-apiserver's
 * pkg/apiserver/schema, plus the value validations kube-openapi checks). $refs and allOf are
 * resolved at compile time, so recursive types are cyclic graphs of nodes and every walk is a
 * plain recursion over data, never over schema text.
 */
import { setOwnValue } from '../api/ownkeys.js';

/** One x-kubernetes-validations entry (apiextensions v1 ValidationRule), unchecked. */
export interface RawValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export type JsonKind = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

export interface SchemaNode {
  /** Declared types; undefined means no type check (a typeless node). */
  types: JsonKind[] | undefined;
  /** `types` joined with ',' as kube-openapi prints them (`integer,string`). */
  typeName: string;
  nullable: boolean;
  /** Only formats this engine checks (see formats.ts); any other format is dropped, as kube strips them. */
  format: string | undefined;
  /** The check for a string `format`, if it is one this engine validates. */
  formatCheck: ((value: string) => boolean) | undefined;
  /** format: int32, range-checked (kube's decoder would reject an overflowing int32). */
  int32: boolean;
  enumValues: unknown[] | undefined;

  maximum: number | undefined;
  exclusiveMaximum: boolean;
  minimum: number | undefined;
  exclusiveMinimum: boolean;
  multipleOf: number | undefined;

  maxLength: number | undefined;
  minLength: number | undefined;
  pattern: string | undefined;
  /** Compiled `pattern`; null when the pattern does not compile (reported on use, as kube does). */
  patternRegExp: RegExp | null | undefined;
  patternError: string | undefined;

  items: SchemaNode | undefined;
  maxItems: number | undefined;
  minItems: number | undefined;
  uniqueItems: boolean;
  listType: 'atomic' | 'set' | 'map' | undefined;
  listMapKeys: string[] | undefined;

  properties: Map<string, SchemaNode> | undefined;
  required: string[] | undefined;
  /** additionalProperties: a schema (a map), true (any value, kept as is), false (forbidden), undefined (not declared). */
  additional: SchemaNode | boolean | undefined;
  maxProperties: number | undefined;
  minProperties: number | undefined;

  preserveUnknown: boolean;
  embedded: boolean;
  intOrString: boolean;
  mapType: string | undefined;
  /** x-kubernetes-validations as written (CEL rules; compiled once per schema by cel-validate.ts). */
  validations: RawValidationRule[] | undefined;

  hasDefault: boolean;
  defaultValue: unknown;
  /**
   * Properties that are plain (not pointer) fields of a Go type (a built-in kind's, known from
   * its protobuf table): their Go zero value ("", 0, false) is what Go decodes for an absent
   * field, so a default replaces it too, as kube's SetDefaults_* functions do (`protocol: ""` is
   * TCP, a probe's `periodSeconds: 0` is 10).
   */
  zeroIsUnset: ReadonlySet<string> | undefined;
  /**
   * Properties that are a Go type's metav1.Time or metav1.MicroTime (a built-in kind's, known from
   * its protobuf table): kube decodes them into Go time and writes them back in UTC, at seconds or
   * at microseconds, so the defaulting walk writes them so too (canonicalTime in api/time.ts).
   */
  goTimes: ReadonlyMap<string, 'time' | 'microTime'> | undefined;
  /**
   * The Go type a built-in kind's JSON decodes into, as Go prints it (`v1.DeploymentSpec` for a
   * named schema, `int32`, `string`, `[]uint8` for a scalar); set only when the schema was compiled
   * with Go facts (go-decode.ts; lists and maps are named from their elements).
   */
  goType: string | undefined;
  /**
   * On kgen's stand-ins for JSONSchemaProps' recursive fields (NestedJSONSchemaProps,
   * JSONSchemaPropsOrArray, …OrBool, …OrStringArray: kept as JSON, since a structural schema cannot
   * recurse), the JSONSchemaProps node Go decodes them into (go-decode.ts); set with Go facts only.
   */
  goSchemaProps: SchemaNode | undefined;
  /**
   * A resource.Quantity of one of Kubernetes' own kinds: the defaulting walk writes it as kube's
   * MarshalJSON does (quantityString: `0.5` is `500m`), where a custom resource keeps what was sent.
   */
  goQuantity: boolean;

  /** apiVersion, kind and metadata are known here (the resource root and embedded resources). */
  keepsTypeMeta: boolean;
  /** The subtree holds a list-type set/map or an embedded resource (checked in a second pass). */
  needsStructuralPass: boolean;
}

export function emptyNode(): SchemaNode {
  return {
    types: undefined,
    typeName: '',
    nullable: false,
    format: undefined,
    formatCheck: undefined,
    int32: false,
    enumValues: undefined,
    maximum: undefined,
    exclusiveMaximum: false,
    minimum: undefined,
    exclusiveMinimum: false,
    multipleOf: undefined,
    maxLength: undefined,
    minLength: undefined,
    pattern: undefined,
    patternRegExp: undefined,
    patternError: undefined,
    items: undefined,
    maxItems: undefined,
    minItems: undefined,
    uniqueItems: false,
    listType: undefined,
    listMapKeys: undefined,
    properties: undefined,
    required: undefined,
    additional: undefined,
    maxProperties: undefined,
    minProperties: undefined,
    preserveUnknown: false,
    embedded: false,
    intOrString: false,
    mapType: undefined,
    validations: undefined,
    hasDefault: false,
    defaultValue: undefined,
    zeroIsUnset: undefined,
    goTimes: undefined,
    goType: undefined,
    goSchemaProps: undefined,
    goQuantity: false,
    keepsTypeMeta: false,
    needsStructuralPass: false,
  };
}

/** The JSON kind of a decoded value (integral numbers are integers, as Go's decoder makes them int64). */
export function kindOf(value: unknown): JsonKind | 'null' {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return Number.isInteger(value) ? 'integer' : 'number';
    case 'boolean':
      return 'boolean';
  }
  return Array.isArray(value) ? 'array' : 'object';
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** runtime.DeepCopyJSONValue. */
export function deepCopyJSON<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(deepCopyJSON) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) setOwnValue(out, k, deepCopyJSON(v));
  return out as T;
}

/** JSON with object keys sorted, as Go's json.Marshal of map[string]interface{} writes it: a set key. */
export function canonicalJSON(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJSON).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJSON(obj[k])}`).join(',')}}`;
}

export function deepEqualJSON(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return canonicalJSON(a) === canonicalJSON(b);
}

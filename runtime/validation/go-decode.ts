/**
 * What kube's JSON decoder (sigs.k8s.io/json, a fork of encoding/json) answers when a built-in
 * kind's body does not decode into its Go type: a field of the wrong JSON type
 * (`spec.replicas: "3"`, a ConfigMap's `data: {"a": 1}`, `spec.ports: {}`). kube's handlers turn
 * it into a 400 (transformDecodeError) before any validation, where a schema check would give 422.
 * Custom resources and kgen's own kinds decode into unstructured in kube, so this applies only to
 * schemas compiled with Go facts (SchemaNode.goType).
 *
 * The decoder's rules, followed here:
 * - a type error is remembered (the first one) and decoding goes on; its text names the innermost
 *   Go struct and the JSON field path from the root, without map keys or list indexes:
 *   `json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`;
 * - an error from a type's own UnmarshalJSON (metav1.Time, intstr.IntOrString, resource.Quantity)
 *   ends decoding at once, with that error's own text, except that a type error of the
 *   encoding/json call inside (Time's into a string, IntOrString's into an int32) is named from the
 *   field, as sigs.k8s.io/json aliases encoding/json's UnmarshalTypeError (fatalTypeError);
 * - null decodes into anything (Go's zero value); unknown fields are skipped (strict decoding is
 *   fieldvalidation's); a JSON number into an integer type must be a whole number in range
 *   (`number 1.5`, `number 3000000000`), judged on the literal's text as strconv.ParseInt judges
 *   it: `1.0` and `1e3` are refused, and the error prints the literal (json-literals.ts finds the
 *   few literals whose double is not the whole story; a body without any is not scanned).
 * One walk of the body; no allocation unless there is an error or such a literal.
 */
import { objectMetaDecode, objectMetaFieldType } from '../api/objectmeta-decode.js';
import { goTimeParseError } from '../api/time.js';
import { parseQuantity } from './cel-quantity.js';
import { integerLiteralError, numberLiteralsOf, type NumberLiterals } from './json-literals.js';
import { parseEveryOccurrence, RepeatedKeys } from './json-occurrences.js';
import type { SchemaNode } from './node.js';

/** resource.Quantity's UnmarshalJSON error (ErrFormatWrong) for text ParseQuantity cannot split. */
const QUANTITY_FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const INT64_LIMIT = 2 ** 63;

/** ParseQuantity's error for text, or undefined when it is a quantity. */
function quantityError(text: string): string | undefined {
  try {
    parseQuantity(text);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** A `cannot unmarshal <kind> into … of type <goType>` error's parts (Go's UnmarshalTypeError). */
interface TypeErrorParts {
  kind: string;
  goType: string;
}

/** The decoder's state: the first remembered error. */
interface Saved {
  first: string | undefined;
  /** The parts of `first` when it is a type error (a decoder around this one names it anew). */
  firstType: TypeErrorParts | undefined;
  /**
   * Whether objects may be RepeatedKeys (json-occurrences.ts): tested before `instanceof`, which
   * costs the common body ~7% of its decode (a prototype walk per object).
   */
  repeatedKeys: boolean;
}

/**
 * A fatal error: ends the walk. `type`: the parts of a type error from a decoder that a type's own
 * UnmarshalJSON started (sigs.k8s.io/json's own error type, which the outer decoder names anew);
 * undefined for other errors (Time, IntOrString and Quantity fail with errors of their own).
 */
class Fatal {
  constructor(
    readonly message: string,
    readonly type?: TypeErrorParts,
  ) {}
}

/** encoding/json's name for a JSON value's kind in `cannot unmarshal <kind>`. */
function jsonKind(v: unknown): string {
  return typeof v === 'number' ? 'number' : typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'bool' : Array.isArray(v) ? 'array' : 'object';
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const goTypeCache = new WeakMap<SchemaNode, string | null>();

/** The Go type of a node as Go prints it (`[]v1.ServicePort`, `map[string]string`), or undefined where unknown. */
function goTypeOf(node: SchemaNode): string | undefined {
  const cached = goTypeCache.get(node);
  if (cached !== undefined) return cached ?? undefined;
  goTypeCache.set(node, null); // recursion guard
  let type = node.goType;
  if (node.intOrString) type = node.pattern !== undefined ? 'resource.Quantity' : 'intstr.IntOrString';
  else if (type === undefined && node.types?.length === 1) {
    if (node.types[0] === 'array' && node.items) {
      const elem = goTypeOf(node.items);
      type = elem === undefined ? undefined : `[]${elem}`;
    } else if (node.types[0] === 'object' && typeof node.additional === 'object') {
      const elem = goTypeOf(node.additional);
      type = elem === undefined ? undefined : `map[string]${elem}`;
    }
  }
  goTypeCache.set(node, type ?? null);
  return type;
}

/** The struct part of a Go type name (`v1.DeploymentSpec` → `DeploymentSpec`). */
const structName = (goType: string | undefined) => (goType === undefined ? '' : goType.slice(goType.lastIndexOf('.') + 1));

function typeError(saved: Saved, kind: string, struct: string, path: string, goType: string): void {
  if (saved.first !== undefined) return;
  saved.first = typeErrorMessage(kind, struct, path, goType);
  saved.firstType = { kind, goType };
}

/**
 * A type error of the json.Unmarshal a type's own UnmarshalJSON calls (metav1.Time's into a string,
 * IntOrString's into an int32): encoding/json's UnmarshalTypeError, which sigs.k8s.io/json aliases,
 * so the decoder around it names it from the field being decoded (its addErrorContext):
 * `cannot unmarshal bool into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge
 * of type int32`. Decoded alone (the unstructured converter's re-marshalled value), `Go value of type int32`.
 */
function fatalTypeError(kind: string, struct: string, path: string, goType: string): Fatal {
  return new Fatal(typeErrorMessage(kind, struct, path, goType), { kind, goType });
}

function typeErrorMessage(kind: string, struct: string, path: string, goType: string): string {
  return struct === '' && path === ''
    ? `json: cannot unmarshal ${kind} into Go value of type ${goType}`
    : `json: cannot unmarshal ${kind} into Go struct field ${struct}.${path} of type ${goType}`;
}

/** A JSON number into a Go integer type: the literal must be a whole number in range. */
function integerError(v: number, goType: string): string | undefined {
  if (!Number.isInteger(v)) return `number ${v}`;
  const ok = goType === 'int32' ? v >= -2147483648 && v <= 2147483647 : v >= -INT64_LIMIT && v < INT64_LIMIT;
  return ok ? undefined : `number ${v}`;
}

/**
 * A number into a Go integer type: the `cannot unmarshal <kind>` kind, or undefined when it
 * decodes. `literal` is its text when json-literals.ts kept it. A literal Go decodes whose double
 * is another number (an int64 beyond 2^53) never gets here: every body's decode refuses it first
 * (serializer.ts, inexactIntegerOf), as kgen keeps JSON numbers as doubles.
 */
function integerKind(v: number, literal: string | undefined, goType: 'int32' | 'int64'): string | undefined {
  if (literal === undefined) return integerError(v, goType);
  const err = integerLiteralError(literal, goType);
  return err === 'exact' ? undefined : err;
}

/**
 * Decodes `v` into the Go type of `node`, as the field `path` of the Go struct `struct`. `at` is
 * v's place in the tree of number literals (json-literals.ts), undefined where none lies below.
 */
function decodeValue(node: SchemaNode, v: unknown, struct: string, path: string, saved: Saved, time: 'time' | 'microTime' | undefined, at?: NumberLiterals): void {
  if (v === null || v === undefined) return;
  if (node.preserveUnknown) {
    if (node.goSchemaProps !== undefined) decodeSchemaPropsStandIn(node, node.goSchemaProps, v, struct, path, saved, at);
    return;
  }
  if (time !== undefined || node.goType === 'v1.Time' || node.goType === 'v1.MicroTime') {
    // metav1.Time/MicroTime.UnmarshalJSON: json.Unmarshal into a string first.
    if (typeof v !== 'string') throw fatalTypeError(jsonKind(v), struct, path, 'string');
    // Then time.Parse(RFC3339) or, for a MicroTime, time.Parse(RFC3339Micro): six fraction digits.
    const err = goTimeParseError(v, time === 'microTime' || (time === undefined && node.goType === 'v1.MicroTime'));
    if (err !== undefined) throw new Fatal(err);
    return;
  }
  if (node.intOrString) {
    if (node.pattern !== undefined) {
      // resource.Quantity.UnmarshalJSON: ParseQuantity(TrimSpace(the bytes, quotes stripped)), so a
      // number is a quantity and a string that is none ends decoding with ParseQuantity's error.
      if (typeof v !== 'string' && typeof v !== 'number') throw new Fatal(QUANTITY_FORMAT_WRONG);
      const err = quantityError(typeof v === 'string' ? v.trim() : String(v));
      if (err !== undefined) throw new Fatal(err);
      return;
    }
    // intstr.IntOrString.UnmarshalJSON: a string, else json.Unmarshal into its int32.
    if (typeof v === 'string') return;
    const kind = typeof v === 'number' ? integerKind(v, at?.literal, 'int32') : jsonKind(v);
    if (kind !== undefined) throw fatalTypeError(kind, struct, path, 'int32');
    return;
  }
  const goType = goTypeOf(node);
  if (goType === undefined || node.types?.length !== 1) return;
  switch (node.types[0]) {
    case 'string':
      // []byte is base64 text, or (as encoding/json also takes) an array of bytes.
      if (typeof v !== 'string' && !(goType === '[]uint8' && Array.isArray(v))) typeError(saved, jsonKind(v), struct, path, goType);
      return;
    case 'boolean':
      if (typeof v !== 'boolean') typeError(saved, jsonKind(v), struct, path, goType);
      return;
    case 'integer': {
      const intType = node.int32 || goType === 'int32' ? 'int32' : 'int64';
      const kind = typeof v === 'number' ? integerKind(v, at?.literal, intType) : jsonKind(v);
      if (kind !== undefined) typeError(saved, kind, struct, path, goType);
      return;
    }
    case 'number':
      if (typeof v !== 'number') typeError(saved, jsonKind(v), struct, path, goType);
      return;
    case 'array': {
      if (!Array.isArray(v)) return typeError(saved, jsonKind(v), struct, path, goType);
      const items = node.items;
      if (items === undefined) return;
      const below = at?.children;
      if (below === undefined) for (const x of v) decodeValue(items, x, struct, path, saved, undefined);
      else for (let i = 0; i < v.length; i++) decodeValue(items, v[i], struct, path, saved, undefined, below.get(i));
      return;
    }
    case 'object': {
      if (!isObject(v)) return typeError(saved, jsonKind(v), struct, path, goType);
      if (saved.repeatedKeys && v instanceof RepeatedKeys) return decodeRepeated(node, v, goType, struct, path, saved, at);
      const values = node.additional;
      if (typeof values === 'object') {
        for (const key of Object.keys(v)) decodeValue(values, v[key], struct, path, saved, undefined, at?.children?.get(key));
      } else if (node.properties !== undefined) {
        // A Go struct: its fields are named from it.
        decodeStruct(node, v, structName(goType), `${path}.`, saved, at);
      }
      return;
    }
  }
}

function decodeStruct(node: SchemaNode, v: Record<string, unknown>, struct: string, prefix: string, saved: Saved, at: NumberLiterals | undefined): void {
  const props = node.properties!;
  const times = node.goTimes;
  const below = at?.children;
  for (const key of Object.keys(v)) {
    const child = props.get(key);
    if (child !== undefined) decodeValue(child, v[key], struct, prefix + key, saved, times?.get(key), below?.get(key));
  }
}

/**
 * An object that repeats a key (json-occurrences.ts), into a map or a struct: every occurrence is
 * decoded in turn, in the text's order, as Go decodes them into the same field.
 */
function decodeRepeated(node: SchemaNode, v: RepeatedKeys, goType: string, struct: string, path: string, saved: Saved, at: NumberLiterals | undefined): void {
  const below = at?.children;
  const values = node.additional;
  if (typeof values === 'object') {
    v.pairs.forEach(([, x], i) => decodeValue(values, x, struct, path, saved, undefined, below?.get(i)));
    return;
  }
  const props = node.properties;
  if (props === undefined) return;
  const fieldsOf = structName(goType);
  const times = node.goTimes;
  v.pairs.forEach(([key, x], i) => {
    const child = props.get(key);
    if (child !== undefined) decodeValue(child, x, fieldsOf, `${path}.${key}`, saved, times?.get(key), below?.get(i));
  });
}

/**
 * A CustomResourceDefinition's nested schema, which kgen keeps as JSON (SchemaNode.goSchemaProps)
 * and Go decodes into JSONSchemaProps (apiextensions v1 marshal.go): a NestedJSONSchemaProps
 * (properties, allOf, not, …) by the same decoder; JSONSchemaPropsOrArray (items), …OrBool
 * (additionalProperties, additionalItems) and …OrStringArray (dependencies) by their own
 * UnmarshalJSON, whose error ends decoding.
 */
function decodeSchemaPropsStandIn(node: SchemaNode, props: SchemaNode, v: unknown, struct: string, path: string, saved: Saved, at: NumberLiterals | undefined): void {
  const list = Array.isArray(v);
  switch (node.goType) {
    case 'v1.JSONSchemaPropsOrArray':
      // `{…}` into a JSONSchemaProps, `[…]` into a []JSONSchemaProps; any other value is left zero.
      if (isObject(v) || list) decodeAlone(saved, struct, path, (inner) => decodeSchemas(props, v, inner, at));
      return;
    case 'v1.JSONSchemaPropsOrBool':
      if (isObject(v)) decodeAlone(saved, struct, path, (inner) => decodeValue(props, v, '', '', inner, undefined, at));
      else if (typeof v !== 'boolean') throw new Fatal('boolean or JSON schema expected');
      return;
    case 'v1.JSONSchemaPropsOrStringArray':
      // `{…}` into a JSONSchemaProps, `[…]` into a []string; any other value is left zero.
      if (isObject(v)) decodeAlone(saved, struct, path, (inner) => decodeValue(props, v, '', '', inner, undefined, at));
      else if (list) decodeAlone(saved, struct, path, (inner) => decodeStrings(v, inner));
      return;
    default:
      // NestedJSONSchemaProps: a JSONSchemaProps field like any other.
      decodeValue(props, v, struct, path, saved, undefined, at);
  }
}

/** A []string decoded alone. */
function decodeStrings(v: unknown[], inner: Saved): void {
  for (const x of v) if (x !== null && typeof x !== 'string') typeError(inner, jsonKind(x), '', '', 'string');
}

/** A JSONSchemaProps, or a list of them, as json.Unmarshal decodes them into a JSONSchemaPropsOrArray. */
function decodeSchemas(props: SchemaNode, v: unknown, inner: Saved, at: NumberLiterals | undefined): void {
  if (!Array.isArray(v)) return decodeValue(props, v, '', '', inner, undefined, at);
  v.forEach((x, i) => {
    if (x === null || isObject(x)) decodeValue(props, x, '', '', inner, undefined, at?.children?.get(i));
    else typeError(inner, jsonKind(x), '', '', 'v1.JSONSchemaProps');
  });
}

/**
 * A value a type's own UnmarshalJSON decodes with json.Unmarshal: a decoder of its own, whose
 * first error (fatal or remembered) ends the outer decoding. A type error is named anew from the
 * outer decoder's place (its addErrorContext: the struct and path of the field being decoded), so
 * kube names `…openAPIV3Schema.items` for a `maxLength: 1.0` anywhere below `items`.
 */
function decodeAlone(saved: Saved, struct: string, path: string, decode: (inner: Saved) => void): void {
  const inner: Saved = { first: undefined, firstType: undefined, repeatedKeys: saved.repeatedKeys };
  let message: string | undefined;
  let type: TypeErrorParts | undefined;
  try {
    decode(inner);
    message = inner.first;
    type = inner.firstType;
  } catch (err) {
    if (!(err instanceof Fatal)) throw err;
    message = err.message;
    type = err.type;
  }
  if (message === undefined) return;
  throw type === undefined ? new Fatal(message) : new Fatal(typeErrorMessage(type.kind, struct, path, type.goType), type);
}

/** The first metav1.Time of ObjectMeta that does not decode: not a string, or text time.Parse(RFC3339) refuses. */
function objectMetaTimeError(meta: unknown): string | undefined {
  if (!isObject(meta)) return undefined;
  for (const key of Object.keys(meta)) {
    const v = meta[key];
    if (v === null || objectMetaFieldType(key) !== 'time') continue;
    if (typeof v !== 'string') return typeErrorMessage(jsonKind(v), 'ObjectMeta', `metadata.${key}`, 'string');
    const err = goTimeParseError(v, false);
    if (err !== undefined) return err;
  }
  return undefined;
}

/**
 * ObjectMeta's int64 fields (generation, deletionGracePeriodSeconds) judged on their literal text
 * (`generation: 1.0` is refused), where objectmeta-decode.ts, which sees values only, took them.
 */
function objectMetaLiteralError(meta: unknown, at: NumberLiterals | undefined): string | undefined {
  const below = at?.children;
  if (below === undefined || !isObject(meta)) return undefined;
  for (const key of Object.keys(meta)) {
    const literal = below.get(key)?.literal;
    if (literal === undefined || typeof meta[key] !== 'number' || objectMetaFieldType(key) !== 'int64') continue;
    const err = integerLiteralError(literal, 'int64');
    if (err !== undefined && err !== 'exact') return `json: cannot unmarshal ${err} into Go struct field ObjectMeta.metadata.${key} of type int64`;
  }
  return undefined;
}

/**
 * ObjectMeta decoded as objectmeta-decode.ts knows it: a metav1.Time's error ends decoding
 * (whichever comes first in metadata), another error is remembered when it is the first.
 */
function decodeMetadata(meta: unknown, at: NumberLiterals | undefined, saved: Saved): void {
  const timeError = objectMetaTimeError(meta);
  if (timeError !== undefined) throw new Fatal(timeError);
  const error = objectMetaDecode(meta, 'metadata.')?.error ?? objectMetaLiteralError(meta, at);
  if (error !== undefined && saved.first === undefined) saved.first = error;
}

/**
 * A value of json-occurrences.ts as JSON.parse makes it (a repeated key's last value wins), for
 * objectmeta-decode.ts, which knows plain objects only.
 */
function lastWins(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(lastWins);
  if (!isObject(v)) return v;
  const out: Record<string, unknown> = {};
  const pairs = v instanceof RepeatedKeys ? v.pairs : Object.entries(v);
  for (const [key, x] of pairs) Object.defineProperty(out, key, { value: lastWins(x), enumerable: true, writable: true, configurable: true });
  return out;
}

/**
 * Metadata read with every occurrence of its repeated keys: field by field in the text's order,
 * each as a one-field ObjectMeta, and a labels or annotations map that repeats a key entry by
 * entry. Keys repeated deeper (in ownerReferences, managedFields) count once, with their last
 * value (what JSON.parse keeps): objectmeta-decode.ts sees plain values.
 */
function decodeRepeatedMetadata(meta: unknown, at: NumberLiterals | undefined, saved: Saved): void {
  if (!isObject(meta)) return decodeMetadata(meta, at, saved);
  const repeated = meta instanceof RepeatedKeys;
  const fields = repeated ? meta.pairs : Object.entries(meta);
  fields.forEach(([key, x], i) => {
    const literal = at?.children?.get(repeated ? i : key);
    const literals = literal && { children: new Map([[key, literal]]) };
    if (x instanceof RepeatedKeys && objectMetaFieldType(key) === 'map[string]string') {
      for (const [k, v] of x.pairs) decodeMetadata({ [key]: lastWins(new RepeatedKeys([[k, v]])) }, undefined, saved);
    } else {
      decodeMetadata(lastWins(new RepeatedKeys([[key, x]])), literals, saved);
    }
  });
}

/**
 * The decoder's error for a built-in kind's body, or undefined when it decodes. `root` is the
 * kind's compiled resource root; its metadata is checked as objectmeta-decode.ts knows ObjectMeta.
 * `literals` is the JSON text obj was parsed from, when there is one (YAML reaches kube's decoder
 * as JSON re-encoded from its values, where `1.0` is `1`), or the literals found in it already
 * (a JSON patch's, at their places in its result): number literals are judged on them.
 * `repeatedKeys`: the JSON text repeats a key somewhere (findDuplicateJSONKeys found one); then
 * the text is read again keeping every occurrence (json-occurrences.ts), and each is decoded in
 * turn, as Go decodes them, where obj (JSON.parse's) holds only the last.
 */
export function goDecodeError(root: SchemaNode, obj: Record<string, unknown>, literals?: string | NumberLiterals, repeatedKeys = false): string | undefined {
  const props = root.properties;
  if (props === undefined) return undefined;
  if (repeatedKeys && typeof literals === 'string') {
    const every = parseEveryOccurrence(literals);
    if (every !== undefined && isObject(every.value)) return decodeEveryOccurrence(root, every.value, every.literals);
  }
  const saved: Saved = { first: undefined, firstType: undefined, repeatedKeys: false };
  const places = (typeof literals === 'string' ? numberLiteralsOf(literals) : literals)?.children;
  const struct = structName(root.goType);
  const times = root.goTimes;
  try {
    for (const key of Object.keys(obj)) {
      if (key === 'metadata') {
        decodeMetadata(obj.metadata, places?.get('metadata'), saved);
        continue;
      }
      const child = props.get(key);
      if (child !== undefined) decodeValue(child, obj[key], struct, key, saved, times?.get(key), places?.get(key));
    }
  } catch (err) {
    if (err instanceof Fatal) return err.message;
    throw err;
  }
  return saved.first;
}

/**
 * goDecodeError for a body read with every occurrence of its repeated keys (json-occurrences.ts):
 * the root's fields in the text's order, each occurrence of a repeated one in turn.
 */
function decodeEveryOccurrence(root: SchemaNode, body: object, literals: NumberLiterals | undefined): string | undefined {
  const saved: Saved = { first: undefined, firstType: undefined, repeatedKeys: true };
  const props = root.properties!;
  const struct = structName(root.goType);
  const times = root.goTimes;
  const repeated = body instanceof RepeatedKeys;
  // A RepeatedKeys' literals are by pair index, a plain object's by key.
  const fields = repeated ? body.pairs : Object.entries(body);
  const places = literals?.children;
  try {
    fields.forEach(([key, x], i) => {
      const at = places?.get(repeated ? i : key);
      if (key === 'metadata') return decodeRepeatedMetadata(x, at, saved);
      const child = props.get(key);
      if (child !== undefined) decodeValue(child, x, struct, key, saved, times?.get(key), at);
    });
  } catch (err) {
    if (err instanceof Fatal) return err.message;
    throw err;
  }
  return saved.first;
}

/** kgen's stand-ins for JSONSchemaProps' recursive fields, by Go type (decodeSchemaPropsStandIn). */
const SCHEMA_PROPS_STAND_INS = new Set(['v1.NestedJSONSchemaProps', 'v1.JSONSchemaPropsOrArray', 'v1.JSONSchemaPropsOrBool', 'v1.JSONSchemaPropsOrStringArray']);

/**
 * Links each stand-in for JSONSchemaProps' recursive fields among a compiled kind's nodes (a
 * CustomResourceDefinition's) to the JSONSchemaProps node, which Go decodes them into.
 */
export function linkSchemaPropsStandIns(nodes: readonly SchemaNode[]): void {
  const props = nodes.find((node) => node.goType === 'v1.JSONSchemaProps' && node.properties !== undefined);
  if (props === undefined) return;
  for (const node of nodes) if (node.goType !== undefined && SCHEMA_PROPS_STAND_INS.has(node.goType)) node.goSchemaProps = props;
}

/** reflect's Kind of a value as runtime.DefaultUnstructuredConverter sees the unstructured map. */
function unstructuredKind(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'bool' : Array.isArray(v) ? 'slice' : 'map';
}

/**
 * fromUnstructured for a scalar Go type: the same JSON kind passes, a whole number passes into any
 * number type, a number into a string type is `cannot convert int64 to string`, and anything Go
 * cannot convert is `unrecognized type: <kind>`.
 */
function convertScalar(v: unknown, jsonType: string, goKind: string, goType: string): string | undefined {
  const src = unstructuredKind(v);
  switch (jsonType) {
    case 'string':
      if (src === 'string') return undefined;
      return src === 'int64' ? `cannot convert int64 to ${goType}` : `unrecognized type: ${goKind}`;
    case 'boolean':
      return src === 'bool' ? undefined : `unrecognized type: ${goKind}`;
    case 'integer':
      if (src === 'int64') return undefined;
      return src === 'float64' ? `cannot convert float64 to ${goType}` : `unrecognized type: ${goKind}`;
    case 'number':
      return src === 'int64' || src === 'float64' ? undefined : `unrecognized type: ${goKind}`;
  }
  return undefined;
}

/** The kind reflect prints for a scalar Go type (`int32` for v1.Something of int32, `string`). */
function scalarKind(node: SchemaNode, jsonType: string, goType: string): string {
  switch (jsonType) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'integer':
      return node.int32 || goType === 'int32' ? 'int32' : 'int64';
    default:
      return goType === 'float32' ? 'float32' : 'float64';
  }
}

/** One value converted into the Go type of `node`: the first error ends the conversion. */
function convertValue(node: SchemaNode, v: unknown, time: 'time' | 'microTime' | undefined): void {
  if (v === null || v === undefined || node.preserveUnknown) return;
  // Types with their own UnmarshalJSON get the value re-marshalled: the same errors as decoding.
  if (time !== undefined || node.goType === 'v1.Time' || node.goType === 'v1.MicroTime' || node.intOrString) {
    decodeValue(node, v, '', '', { first: undefined, firstType: undefined, repeatedKeys: false }, time);
    return;
  }
  const goType = goTypeOf(node);
  if (goType === undefined || node.types?.length !== 1) return;
  const jsonType = node.types[0]!;
  switch (jsonType) {
    case 'array': {
      if (!Array.isArray(v)) throw new Fatal(`cannot restore slice from ${unstructuredKind(v)}`);
      const items = node.items;
      if (items !== undefined) for (const x of v) convertValue(items, x, undefined);
      return;
    }
    case 'object': {
      const values = node.additional;
      if (typeof values === 'object') {
        if (!isObject(v)) throw new Fatal(`cannot restore map from ${unstructuredKind(v)}`);
        for (const key of Object.keys(v)) convertValue(values, v[key], undefined);
      } else if (node.properties !== undefined) {
        if (!isObject(v)) throw new Fatal(`cannot restore struct from: ${unstructuredKind(v)}`);
        convertStruct(node, v);
      }
      return;
    }
  }
  if (goType === '[]uint8') {
    // base64 text, or a list of bytes.
    if (typeof v !== 'string' && !Array.isArray(v)) throw new Fatal(`cannot restore slice from ${unstructuredKind(v)}`);
    return;
  }
  const err = convertScalar(v, jsonType, scalarKind(node, jsonType, goType), goType);
  if (err !== undefined) throw new Fatal(err);
}

function convertStruct(node: SchemaNode, v: Record<string, unknown>): void {
  const props = node.properties!;
  const times = node.goTimes;
  for (const key of Object.keys(v)) {
    const child = props.get(key);
    if (child !== undefined) convertValue(child, v[key], times?.get(key));
  }
}

/** ObjectMeta's fields converted from unstructured (objectmeta-decode.ts knows their Go types). */
function convertObjectMeta(meta: unknown): void {
  if (meta === null || meta === undefined) return;
  if (!isObject(meta)) throw new Fatal(`cannot restore struct from: ${unstructuredKind(meta)}`);
  for (const key of Object.keys(meta)) {
    const v = meta[key];
    const type = objectMetaFieldType(key);
    if (type === undefined || v === null) continue;
    if (type === 'time') {
      if (typeof v !== 'string') throw new Fatal(`json: cannot unmarshal ${jsonKind(v)} into Go value of type string`);
      const err = goTimeParseError(v, false);
      if (err !== undefined) throw new Fatal(err);
    } else if (type === 'string' || type === 'int64') {
      const err = convertScalar(v, type === 'string' ? 'string' : 'integer', type, type);
      if (err !== undefined) throw new Fatal(err);
    } else if (type === 'map[string]string') {
      if (!isObject(v)) throw new Fatal(`cannot restore map from ${unstructuredKind(v)}`);
      for (const x of Object.values(v)) {
        const err = x === null ? undefined : convertScalar(x, 'string', 'string', 'string');
        if (err !== undefined) throw new Fatal(err);
      }
    } else {
      if (!Array.isArray(v)) throw new Fatal(`cannot restore slice from ${unstructuredKind(v)}`);
      for (const x of v) {
        if (x === null) continue;
        const err = type === '[]string' ? convertScalar(x, 'string', 'string', 'string') : isObject(x) ? undefined : `cannot restore struct from: ${unstructuredKind(x)}`;
        if (err !== undefined) throw new Fatal(err);
      }
    }
  }
}

/**
 * What runtime.DefaultUnstructuredConverter.FromUnstructured answers for a built-in kind's object
 * held as a map (kube's strategic merge patch result is converted so, not decoded from JSON), or
 * undefined when it converts. Its errors carry no field path, and the first one ends conversion:
 * `unrecognized type: int32` for `"3"` into an int32, `cannot convert int64 to string`,
 * `cannot restore slice from map`, `cannot restore struct from: string`. Fields are visited in the
 * object's order (Go visits its struct's field order; they differ only when two fields are wrong).
 */
export function goConvertError(root: SchemaNode, obj: Record<string, unknown>): string | undefined {
  const props = root.properties;
  if (props === undefined) return undefined;
  const times = root.goTimes;
  try {
    // TypeMeta and ObjectMeta are the struct's first fields.
    convertObjectMeta(obj.metadata);
    for (const key of Object.keys(obj)) {
      if (key === 'metadata') continue;
      const child = props.get(key);
      if (child !== undefined) convertValue(child, obj[key], times?.get(key));
    }
  } catch (err) {
    if (err instanceof Fatal) return err.message;
    throw err;
  }
  return undefined;
}

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
 *
 * Beside it: go-decode-errors.ts (the error texts and the decoder's state), go-type-names.ts (Go's
 * names of schema nodes), go-decode-metadata.ts (ObjectMeta), go-schema-props.ts (a CRD's nested
 * schemas) and go-convert.ts (the unstructured converter, for strategic merge patch results);
 * what a body that decodes keeps: go-repeated-keys.ts (a repeated key's occurrences merged as Go
 * merges them) and go-quantity-literals.ts (a Quantity sent as a number, read from its literal).
 */
import { goTimeParseError } from '../api/time.js';
import { base64DecodeError } from './go-base64.js';
import { parseQuantity } from './cel-quantity.js';
import { decodeMetadata, decodeRepeatedMetadata } from './go-decode-metadata.js';
import { Fatal, fatalTypeError, isObject, jsonKind, typeError, typeErrorMessage, type Saved, type TypeErrorParts } from './go-decode-errors.js';
import { goTypeOf, structName } from './go-type-names.js';
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
export function decodeValue(node: SchemaNode, v: unknown, struct: string, path: string, saved: Saved, time: 'time' | 'microTime' | undefined, at?: NumberLiterals): void {
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
      // []byte is base64 text, or (as encoding/json also takes) an array of bytes; text that is
      // not base64 is remembered with base64's own error (literalStore: d.saveError(err)).
      if (typeof v !== 'string' && !(goType === '[]uint8' && Array.isArray(v))) typeError(saved, jsonKind(v), struct, path, goType);
      else if (goType === '[]uint8' && typeof v === 'string' && saved.first === undefined) saved.first = base64DecodeError(v);
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


/**
 * The object kube keeps from a built-in kind's JSON body that repeats a key: Go's decoder
 * (sigs.k8s.io/json, a fork of encoding/json: decode.go object(), array(), literalStore())
 * decodes every occurrence in turn into the same Go value, so a later occurrence is decoded into
 * what the earlier ones filled, where JSON.parse keeps only the last:
 * - a struct (`"spec":{"replicas":1},"spec":{"paused":true}`): the later object's fields are set
 *   into the same struct, so a field only in the earlier one survives;
 * - a map (labels, nodeSelector, a ResourceList): the map is kept and the later object's keys are
 *   added to it; a map's value is decoded into a fresh zero value (mapElem.SetZero), so it is
 *   replaced whole, and a key repeated inside one map object keeps its last value;
 * - a slice: element i of the later list is decoded into element i of the earlier one (a struct
 *   element merges as a struct does), and the slice is cut to the later list's length;
 * - null: a pointer, map, slice or interface becomes nil (absent); a plain struct or scalar field
 *   is left as it was (literalStore's null case);
 * - a type with its own UnmarshalJSON (Quantity, Time, IntOrString, RawExtension) and anything
 *   decoded into interface{} (preserve-unknown fields, as objectInterface does: the last value of
 *   a repeated key) take the later value whole; a non-pointer IntOrString given null keeps its
 *   number (UnmarshalJSON sets Type Int and leaves IntVal), and is 0 after a string; a Quantity
 *   sent as a number is its literal's text (go-quantity-literals.ts);
 * - a scalar: the later value.
 * Fields the Go type does not have keep their last value (a typed decode drops them; kgen's
 * pruning and unknown-field checks see them, as Go's strict decoder sees every occurrence).
 *
 * What kgen cannot know: whether a struct-valued field below the root is a pointer (the protobuf
 * tables mark pointers to scalars only), so a later null for such a field removes it, as for a
 * pointer (Go keeps a plain struct, such as a PodSpec's `template`); the root's metadata, spec and
 * status are plain, as in every built-in kind.
 *
 * Only a body the decoder accepted (go-decode.ts judged every occurrence first) is read so.
 */
import { isObject } from './go-decode-errors.js';
import { parseEveryOccurrence, RepeatedKeys } from './json-occurrences.js';
import type { NumberLiterals } from './json-literals.js';
import type { SchemaNode } from './node.js';

/** ObjectMeta's plain (not pointer) scalar fields: a later null leaves them as they were. */
const OBJECT_META_PLAIN_SCALARS: ReadonlySet<string> = new Set(['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation']);

/** Absent: a field no earlier occurrence set. */
const ABSENT = undefined;

/**
 * The body Go keeps from `text` (a built-in kind's JSON body that repeats a key, whose root
 * compiled node is `root`), or undefined when the text cannot be read so (nested deeper than the
 * stack allows; the caller keeps JSON.parse's value).
 */
export function goRepeatedKeysValue(root: SchemaNode, text: string): Record<string, unknown> | undefined {
  const every = parseEveryOccurrence(text);
  if (every === undefined || !isObject(every.value)) return undefined;
  return decodeStructInto(root, {}, every.value, false, every.literals);
}

/**
 * The value of decoding `next` into a field of Go type `node` that holds `prev` (ABSENT when
 * unset). `plain`: the field is not a pointer (a later null leaves a plain struct or scalar as it
 * was); `objectMeta`: node is ObjectMeta, whose plain scalars kgen's tables do not list. `at`:
 * next's number literals (json-occurrences.ts), which a Quantity is parsed from (go-quantity-literals.ts).
 */
function decodeInto(node: SchemaNode | undefined, prev: unknown, next: unknown, plain: boolean, objectMeta: boolean, at: NumberLiterals | undefined): unknown {
  if (node === undefined || node.preserveUnknown || node.goType === 'v1.Time' || node.goType === 'v1.MicroTime') return lastWins(next);
  if (node.goQuantity && typeof next === 'number' && at?.literal !== undefined) return at.literal;
  if (node.intOrString) return node.pattern === undefined ? intOrStringInto(prev, next, plain) : lastWins(next);
  if (next === null) return plain && !isListOrMap(node) && prev !== ABSENT ? prev : null;
  const type = node.types?.length === 1 ? node.types[0] : undefined;
  if (type === 'array' && Array.isArray(next) && node.items !== undefined) {
    const items = node.items;
    const old = Array.isArray(prev) ? prev : [];
    // A slice's elements are plain values (kube's API has no []*T).
    return next.map((x, i) => decodeInto(items, i < old.length ? old[i] : ABSENT, x, true, false, at?.children?.get(i)));
  }
  if (type === 'object' && isObject(next)) {
    const values = node.additional;
    if (typeof values === 'object') return decodeMapInto(values, isObject(prev) ? { ...prev } : {}, next, at);
    if (node.properties !== undefined) return decodeStructInto(node, isObject(prev) ? { ...prev } : {}, next, objectMeta, at);
  }
  return lastWins(next);
}

/**
 * A later object's fields set into a struct's (a copy of the earlier one's). A resource root's
 * fields (metadata, spec, status) are plain structs in every built-in kind; deeper, a struct-valued
 * field may be a pointer, which kgen's tables do not say, so only scalars count as plain there.
 */
function decodeStructInto(node: SchemaNode, into: Record<string, unknown>, next: Record<string, unknown>, objectMeta: boolean, at: NumberLiterals | undefined): Record<string, unknown> {
  const props = node.properties;
  const root = node.keepsTypeMeta;
  const places = placesOf(next, at);
  pairsOf(next).forEach(([key, x], i) => {
    const child = props?.get(key);
    const meta = root && key === 'metadata';
    const plain = meta || (objectMeta ? OBJECT_META_PLAIN_SCALARS.has(key) : node.zeroIsUnset?.has(key) === true && (root || child?.properties === undefined));
    setOwn(into, key, decodeInto(child, Object.hasOwn(into, key) ? into[key] : ABSENT, x, plain, meta, places(key, i)));
  });
  return into;
}

/** A later object's keys added to a map, each value decoded afresh (Go's mapElem is zeroed per key). */
function decodeMapInto(values: SchemaNode, into: Record<string, unknown>, next: Record<string, unknown>, at: NumberLiterals | undefined): Record<string, unknown> {
  const places = placesOf(next, at);
  pairsOf(next).forEach(([key, x], i) => setOwn(into, key, decodeInto(values, ABSENT, x, false, false, places(key, i))));
  return into;
}

/** The literals of an object's i-th pair, key `key`: by pair index in a RepeatedKeys, by key in a plain object. */
function placesOf(v: Record<string, unknown>, at: NumberLiterals | undefined): (key: string, i: number) => NumberLiterals | undefined {
  const below = at?.children;
  if (below === undefined) return () => undefined;
  return v instanceof RepeatedKeys ? (_, i) => below.get(i) : (key) => below.get(key);
}

/**
 * intstr.IntOrString.UnmarshalJSON: a string sets the string, anything else is json.Unmarshal into
 * its int32. null: a pointer becomes nil; a plain IntOrString keeps its int32 (0 after a string).
 */
function intOrStringInto(prev: unknown, next: unknown, plain: boolean): unknown {
  if (next !== null || !plain || prev === ABSENT || prev === null) return lastWins(next);
  return typeof prev === 'number' ? prev : 0;
}

const isListOrMap = (node: SchemaNode) => node.types?.length === 1 && (node.types[0] === 'array' || (node.types[0] === 'object' && typeof node.additional === 'object'));

function pairsOf(v: Record<string, unknown>): ReadonlyArray<readonly [string, unknown]> {
  return v instanceof RepeatedKeys ? v.pairs : Object.entries(v);
}

/** A value as JSON.parse makes it: a repeated key's last value wins (interface{} decoding, unknown fields). */
function lastWins(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(lastWins);
  if (!isObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [key, x] of pairsOf(v)) setOwn(out, key, lastWins(x));
  return out;
}

/** Sets an own property, `__proto__` included (as JSON.parse does). */
function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/**
 * What runtime.DefaultUnstructuredConverter.FromUnstructured answers for a built-in kind's object
 * held as a map: kube's strategic merge patch result is converted so, not decoded from JSON. Its
 * errors carry no field path, and the first one ends conversion.
 */
import { objectMetaFieldType } from '../api/objectmeta-decode.js';
import { goTimeParseError } from '../api/time.js';
import { base64DecodeError } from './go-base64.js';
import { decodeValue } from './go-decode.js';
import { Fatal, isObject, jsonKind } from './go-decode-errors.js';
import { goTypeOf } from './go-type-names.js';
import type { SchemaNode } from './node.js';

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
    // sliceFromUnstructured: a string is json.Marshal'd and json.Unmarshal'd into []byte.
    const err = typeof v === 'string' ? base64DecodeError(v) : undefined;
    if (err !== undefined) throw new Fatal(err);
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

/**
 * Value validation against a compiled schema, as k8s.io/kube-openapi/pkg/validation/validate runs it
 * for CRDs and apiextensions-apiserver turns its results into field errors
 * (kubeOpenAPIResultToFieldErrors). Per node the checks run in kube-openapi's validator order:
 * type, string, format, number, array, enum, object; each check applies by the value's JSON kind.
 *
 * `path` is kube-openapi's path ('spec.ports[0].name', map entries joined with '.'); it appears in
 * messages as is, and as the error's field without a leading '.'.
 */
import { goFloat, goNumber, goQuote } from './gofmt.js';
import { INT32_MAX, INT32_MIN } from './formats.js';
import { invalid, notSupported, required, tooLong, tooMany, typeInvalid } from './field.js';
import { canonicalJSON, deepEqualJSON, kindOf, type JsonKind, type SchemaNode } from './node.js';
import type { FieldError } from './types.js';

const IN = 'in body';

function fieldOf(path: string): string {
  return path.charCodeAt(0) === 46 /* . */ ? path.slice(1) : path;
}

function childPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

export function validateValue(node: SchemaNode, value: unknown, path: string, errs: FieldError[]): void {
  const kind = kindOf(value);
  if (kind === 'null') {
    if (node.types !== undefined && !node.nullable) {
      errs.push(typeInvalid(fieldOf(path), 'null', `${path} ${IN} must be of type ${node.typeName}: "null"`));
    }
    if (node.enumValues !== undefined) checkEnum(node, value, path, errs);
    return;
  }
  if (node.types !== undefined) checkType(node, value, kind, path, errs);
  switch (kind) {
    case 'string':
      validateString(node, value as string, path, errs);
      break;
    case 'integer':
    case 'number':
      validateNumber(node, value as number, kind, path, errs);
      break;
    case 'array':
      validateArray(node, value as unknown[], path, errs);
      break;
  }
  if (node.enumValues !== undefined) checkEnum(node, value, path, errs);
  if (kind === 'object') validateObject(node, value as Record<string, unknown>, path, errs);
}

/**
 * kube-openapi's typeValidator. An integral number satisfies `number`, and (being int64 after Go's
 * decoding) `integer`. A non-string value under a string format is reported against the format name
 * with the value's Go format ("int64", "float64" or ""), as kube does.
 */
function checkType(node: SchemaNode, value: unknown, kind: JsonKind, path: string, errs: FieldError[]): void {
  const types = node.types!;
  const matches = types.includes(kind) || (kind === 'integer' && types.includes('number'));
  if (matches) return;
  if (node.formatCheck !== undefined && kind !== 'array') {
    const goFormat = kind === 'integer' ? 'int64' : kind === 'number' ? 'float64' : '';
    errs.push(typeInvalid(fieldOf(path), goFormat, `${path} ${IN} must be of type ${node.format}: ${goQuote(goFormat)}`));
    return;
  }
  errs.push(typeInvalid(fieldOf(path), kind, `${path} ${IN} must be of type ${node.typeName}: ${goQuote(kind)}`));
}

/** stringValidator (first failure only: maxLength, minLength, pattern), then formatValidator. */
function validateString(node: SchemaNode, value: string, path: string, errs: FieldError[]): void {
  const stringError = checkString(node, value, path);
  if (stringError) errs.push(stringError);
  if (node.formatCheck !== undefined && !node.formatCheck(value)) {
    errs.push(typeInvalid(fieldOf(path), value, `${path} ${IN} must be of type ${node.format}: ${goQuote(value)}`));
  }
}

function checkString(node: SchemaNode, value: string, path: string): FieldError | undefined {
  if (node.maxLength !== undefined && value.length > node.maxLength && runeCount(value) > node.maxLength) {
    return tooLong(fieldOf(path), node.maxLength);
  }
  if (node.minLength !== undefined && runeCount(value) < node.minLength) {
    return invalid(fieldOf(path), value, `${path} ${IN} should be at least ${node.minLength} chars long`);
  }
  if (node.pattern !== undefined) {
    if (node.patternRegExp === null) {
      const detail = `${node.pattern}, but pattern is invalid: ${node.patternError}`;
      return invalid(fieldOf(path), value, `${path} ${IN} should match '${detail}'`);
    }
    if (!node.patternRegExp!.test(value)) {
      return invalid(fieldOf(path), value, `${path} ${IN} should match '${node.pattern}'`);
    }
  }
  return undefined;
}

/** Length in Unicode code points, as utf8.RuneCount counts. */
function runeCount(value: string): number {
  let n = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < value.length) {
      const d = value.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/**
 * numberValidator: multipleOf, minimum, maximum (in that order). For an integer value kube compares
 * against the bound truncated to int64 and prints it as an integer; for a float, as a float64.
 */
function validateNumber(node: SchemaNode, value: number, kind: JsonKind, path: string, errs: FieldError[]): void {
  const isInt = kind === 'integer';
  if (node.multipleOf !== undefined && !isMultipleOf(value, node.multipleOf, isInt)) {
    const factor = isInt && node.multipleOf >= 1 ? goNumber(Math.trunc(node.multipleOf)) : goFloat(node.multipleOf);
    errs.push(invalid(fieldOf(path), value, `${path} ${IN} should be a multiple of ${factor}`));
  }
  let rangeError = false;
  if (node.minimum !== undefined) {
    const min = bound(node.minimum, isInt);
    if (node.exclusiveMinimum ? value <= min : value < min) {
      const words = node.exclusiveMinimum ? 'greater than' : 'greater than or equal to';
      errs.push(invalid(fieldOf(path), value, `${path} ${IN} should be ${words} ${show(node.minimum, isInt)}`));
      rangeError = true;
    }
  }
  if (node.maximum !== undefined) {
    const max = bound(node.maximum, isInt);
    if (node.exclusiveMaximum ? value >= max : value > max) {
      const words = node.exclusiveMaximum ? 'less than' : 'less than or equal to';
      errs.push(invalid(fieldOf(path), value, `${path} ${IN} should be ${words} ${show(node.maximum, isInt)}`));
      rangeError = true;
    }
  }
  if (node.int32 && !rangeError) checkInt32(value, path, errs);
}

/** A bound as kube compares an integer (truncated to int64) or a float with it. */
function bound(b: number, isInt: boolean): number {
  return isInt ? Math.trunc(b) : b;
}

/** A bound as kube prints it for an integer or a float value. */
function show(b: number, isInt: boolean): string {
  return isInt ? goNumber(Math.trunc(b)) : goFloat(b);
}

/** format: int32 overflow, reported in kube's minimum/maximum words (kube's JSON decoder rejects it). */
function checkInt32(value: number, path: string, errs: FieldError[]): void {
  if (value > INT32_MAX) errs.push(invalid(fieldOf(path), value, `${path} ${IN} should be less than or equal to ${INT32_MAX}`));
  else if (value < INT32_MIN) {
    errs.push(invalid(fieldOf(path), value, `${path} ${IN} should be greater than or equal to ${INT32_MIN}`));
  }
}

/** MultipleOfInt for integer values and integral factors; otherwise kube's float test (swag.IsFloat64AJSONInteger). */
function isMultipleOf(value: number, factor: number, isInt: boolean): boolean {
  if (factor <= 0) return true;
  if (isInt && Number.isInteger(factor)) return value % factor === 0;
  const mult = factor < 1 ? (1 / factor) * value : value / factor;
  if (!Number.isFinite(mult)) return false;
  if (Number.isInteger(mult)) return true;
  const nearest = Math.round(mult);
  const diff = Math.abs(mult - nearest);
  return diff / (Math.abs(mult) + Math.abs(nearest)) < 1e-9;
}

/** schemaSliceValidator: items first, then minItems, maxItems, uniqueItems. */
function validateArray(node: SchemaNode, value: unknown[], path: string, errs: FieldError[]): void {
  const items = node.items;
  if (items !== undefined) {
    for (let i = 0; i < value.length; i++) validateValue(items, value[i], `${path}[${i}]`, errs);
  }
  const size = value.length;
  if (node.minItems !== undefined && size < node.minItems) {
    errs.push(invalid(fieldOf(path), size, `${path} ${IN} should have at least ${node.minItems} items`));
  }
  if (node.maxItems !== undefined && size > node.maxItems) errs.push(tooMany(fieldOf(path), size, node.maxItems));
  if (node.uniqueItems && hasDuplicates(value)) {
    errs.push(invalid(fieldOf(path), '', `${path} ${IN} shouldn't contain duplicates`));
  }
}

function hasDuplicates(values: unknown[]): boolean {
  const seen = new Set<string>();
  for (const v of values) {
    const key = canonicalJSON(v);
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

/** basicCommonValidator; the message lists strings as is and other values as JSON. */
function checkEnum(node: SchemaNode, value: unknown, path: string, errs: FieldError[]): void {
  const values = node.enumValues!;
  if (value !== null && value !== undefined) {
    for (const allowed of values) if (deepEqualJSON(value, allowed)) return;
  }
  const supported = values.map((v) => (typeof v === 'string' ? v : canonicalJSON(v)));
  errs.push(notSupported(fieldOf(path), value, supported));
}

/**
 * objectValidator: min/maxProperties (a failure stops here), additional properties, declared
 * properties, then required ones.
 */
function validateObject(node: SchemaNode, value: Record<string, unknown>, path: string, errs: FieldError[]): void {
  if (node.minProperties !== undefined || node.maxProperties !== undefined) {
    const count = Object.keys(value).length;
    if (node.minProperties !== undefined && count < node.minProperties) {
      errs.push(invalid(fieldOf(path), count, `${path} ${IN} should have at least ${node.minProperties} properties`));
      return;
    }
    if (node.maxProperties !== undefined && count > node.maxProperties) {
      errs.push(tooMany(fieldOf(path), count, node.maxProperties));
      return;
    }
  }
  const props = node.properties;
  if (node.additional !== undefined && node.additional !== true) validateAdditional(node, value, path, errs);
  if (props !== undefined) {
    const present = presentProperties(props, value);
    for (let i = 0; i < present.length; i++) {
      const [key, child] = present[i]!;
      const v = value[key];
      if (v !== undefined) validateValue(child, v, childPath(path, key), errs);
    }
  }
  if (node.required !== undefined) {
    for (const key of node.required) if (value[key] === undefined) errs.push(required(fieldOf(`${path}.${key}`)));
  }
}

interface PropertyOrder {
  entries: [string, SchemaNode][];
  index: Map<string, number>;
  /** Properties named like Object.prototype's members: `value[key]` finds those when absent. */
  inherited: number[];
}

const propertyOrders = new WeakMap<Map<string, SchemaNode>, PropertyOrder>();

function propertyOrder(props: Map<string, SchemaNode>): PropertyOrder {
  let order = propertyOrders.get(props);
  if (!order) {
    const entries = [...props];
    const index = new Map(entries.map(([key], i) => [key, i]));
    const inherited = entries.flatMap(([key], i) => (key in Object.prototype ? [i] : []));
    order = { entries, index, inherited };
    propertyOrders.set(props, order);
  }
  return order;
}

/**
 * The declared properties validateObject looks at, in declaration order (the order of its
 * errors): every one whose `value[key]` can be defined. When the value sets few of many declared
 * properties, only those (and any named like an inherited member) are visited.
 */
function presentProperties(props: Map<string, SchemaNode>, value: Record<string, unknown>): readonly [string, SchemaNode][] {
  const keys = Object.keys(value);
  const order = propertyOrder(props);
  // All of them, as the cached array (iterating the Map allocated an entry per property).
  if (keys.length * 2 >= props.size) return order.entries;
  const at: number[] = [...order.inherited];
  for (const key of keys) {
    const i = order.index.get(key);
    if (i !== undefined && !(key in Object.prototype)) at.push(i);
  }
  at.sort((a, b) => a - b);
  return at.map((i) => order.entries[i]!);
}

function validateAdditional(node: SchemaNode, value: Record<string, unknown>, path: string, errs: FieldError[]): void {
  const props = node.properties;
  const additional = node.additional as SchemaNode | false;
  for (const key of Object.keys(value)) {
    if (props !== undefined && props.has(key)) continue;
    if (additional === false) {
      errs.push(invalid(fieldOf(path), key, `${path}.${key} ${IN} is a forbidden property`));
    } else {
      validateValue(additional, value[key], `${path}.${key}`, errs);
    }
  }
}

/**
 * Structural defaulting, as apiextensions-apiserver's pkg/apiserver/schema/defaulting does it on
 * every decode: first PruneNonNullableNullsWithoutDefaults (a null where the schema is not nullable
 * and has no default is dropped, as Go's decoder would read it as the zero value), then Default (an
 * absent field, or a null where not nullable, gets a deep copy of its default; children are
 * defaulted after their parent, so a default value is itself defaulted). The same walk writes a
 * built-in kind's metav1.Time / MicroTime fields and its resource.Quantity fields as kube's round
 * trip through Go writes them.
 */
import { setOwnValue } from '../api/ownkeys.js';
import { canonicalMicroTime, canonicalTime, hasCanonicalShape } from '../api/time.js';
import { isCanonicalQuantity, parseQuantity, quantityString, type CelQuantity } from './cel-quantity.js';
import { deepCopyJSON, isPlainObject, type SchemaNode } from './node.js';

const defaultedByProperties = new WeakMap<Map<string, SchemaNode>, [string, SchemaNode][]>();

/**
 * The properties of `props` that have a default, in declaration order. Computed once per compiled
 * schema (its nodes do not change once compiled): walking the Map's entries on every object
 * allocated an entry per property.
 */
function defaultedProperties(props: Map<string, SchemaNode>): [string, SchemaNode][] {
  let defaulted = defaultedByProperties.get(props);
  if (defaulted === undefined) {
    defaulted = [...props].filter(([, prop]) => prop.hasDefault);
    defaultedByProperties.set(props, defaulted);
  }
  return defaulted;
}

function isNonNullableNull(x: unknown, s: SchemaNode | undefined): boolean {
  return x === null && s !== undefined && !s.nullable;
}

function fieldSchema(s: SchemaNode | undefined, key: string): SchemaNode | undefined {
  if (s === undefined) return undefined;
  const prop = s.properties?.get(key);
  if (prop !== undefined) return prop;
  return typeof s.additional === 'object' ? s.additional : undefined;
}

export function pruneNonNullableNullsWithoutDefaults(x: unknown, s: SchemaNode | undefined): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    const items = s.items;
    if (items !== undefined) for (const v of x) pruneNonNullableNullsWithoutDefaults(v, items);
    return;
  }
  if (!isPlainObject(x)) return;
  for (const key of Object.keys(x)) {
    const child = fieldSchema(s, key);
    if (child === undefined) continue;
    if (isNonNullableNull(x[key], child) && !child.hasDefault) delete x[key];
    else pruneNonNullableNullsWithoutDefaults(x[key], child);
  }
}

export function applyDefaultsTo(x: unknown, s: SchemaNode | undefined): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    const items = s.items;
    if (items === undefined) return;
    for (let i = 0; i < x.length; i++) {
      if (isNonNullableNull(x[i], items) && items.hasDefault) x[i] = deepCopyJSON(items.defaultValue);
      applyDefaultsTo(x[i], items);
    }
    return;
  }
  if (!isPlainObject(x)) return;
  const props = s.properties;
  if (props !== undefined) {
    const defaulted = defaultedProperties(props);
    for (let i = 0; i < defaulted.length; i++) {
      const [key, prop] = defaulted[i]!;
      // Own keys only: "constructor" or "toString" absent is absent (api/ownkeys.ts).
      if (!Object.hasOwn(x, key) || isNonNullableNull(x[key], prop) || isGoZero(s, key, x[key])) setOwnValue(x, key, deepCopyJSON(prop.defaultValue));
    }
  }
  const additional = typeof s.additional === 'object' ? s.additional : undefined;
  for (const key of Object.keys(x)) {
    const prop = props?.get(key);
    if (prop !== undefined) applyDefaultsTo(x[key], prop);
    else if (additional !== undefined) {
      if (isNonNullableNull(x[key], additional) && additional.hasDefault) x[key] = deepCopyJSON(additional.defaultValue);
      applyDefaultsTo(x[key], additional);
    }
  }
}

/**
 * pruneNonNullableNullsWithoutDefaults(x, s) then applyDefaultsTo(x, s), in one walk with the same
 * result: a subtree's pruning and defaulting touch nothing outside it, a node's defaults fill only
 * absent fields (added after the pruned ones left, in declaration order, as applyDefaultsTo adds
 * them) or replace nulls in place, and default values are defaulted but never pruned.
 */
export function pruneNullsAndApplyDefaults(x: unknown, s: SchemaNode | undefined): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    const items = s.items;
    if (items === undefined) return;
    for (let i = 0; i < x.length; i++) {
      if (isNonNullableNull(x[i], items) && items.hasDefault) {
        x[i] = deepCopyJSON(items.defaultValue);
        applyDefaultsTo(x[i], items);
      } else {
        pruneNullsAndApplyDefaults(x[i], items);
      }
    }
    return;
  }
  if (!isPlainObject(x)) return;
  const times = s.goTimes;
  for (const key of Object.keys(x)) {
    const child = fieldSchema(s, key);
    if (child === undefined) continue;
    if (!isNonNullableNull(x[key], child)) {
      if (times !== undefined && typeof x[key] === 'string') writeGoTime(x, key, times.get(key));
      else if (child.goQuantity) writeGoQuantity(x, key);
      else pruneNullsAndApplyDefaults(x[key], child);
    } else if (!child.hasDefault) {
      delete x[key];
    } else {
      x[key] = deepCopyJSON(child.defaultValue);
      applyDefaultsTo(x[key], child);
    }
  }
  const props = s.properties;
  if (props === undefined) return;
  const defaulted = defaultedProperties(props);
  for (let i = 0; i < defaulted.length; i++) {
    const [key, prop] = defaulted[i]!;
    if (Object.hasOwn(x, key) && !isGoZero(s, key, x[key])) continue;
    setOwnValue(x, key, deepCopyJSON(prop.defaultValue));
    applyDefaultsTo(x[key], prop);
  }
}

/** A Go type's Time or MicroTime field written as kube writes it back (SchemaNode.goTimes); text it cannot read stays for validation. */
function writeGoTime(x: Record<string, unknown>, key: string, kind: 'time' | 'microTime' | undefined): void {
  if (kind === undefined) return;
  const text = x[key] as string;
  if (hasCanonicalShape(text, kind === 'microTime')) return;
  const canonical = kind === 'time' ? canonicalTime(text) : canonicalMicroTime(text);
  if (canonical !== undefined && canonical !== text) x[key] = canonical;
}

/**
 * A Quantity of one of Kubernetes' own kinds written as kube writes it back (SchemaNode.goQuantity):
 * UnmarshalJSON's ParseQuantity (of a string's trimmed text, or of a number's), then MarshalJSON,
 * always a string. A number is read from its double's text: where a JSON body's literal differs
 * from it (`1e3`), the decode has already written the literal as a string (go-quantity-literals.ts),
 * as Go reads it. What ParseQuantity refuses stays for the decoder's error.
 */
function writeGoQuantity(x: Record<string, unknown>, key: string): void {
  const v = x[key];
  if (typeof v !== 'string' && typeof v !== 'number') return;
  if (typeof v === 'string' && isCanonicalQuantity(v)) return;
  let q: CelQuantity;
  try {
    q = parseQuantity(typeof v === 'string' ? v.trim() : String(v));
  } catch {
    return;
  }
  const canonical = quantityString(q);
  if (canonical !== v) x[key] = canonical;
}

/** A plain Go field of `s` holding its Go zero value: absent, for Go's defaulters (SchemaNode.zeroIsUnset). */
function isGoZero(s: SchemaNode, key: string, value: unknown): boolean {
  return (value === '' || value === 0 || value === false) && s.zeroIsUnset?.has(key) === true;
}

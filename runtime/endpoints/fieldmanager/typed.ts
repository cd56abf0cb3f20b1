/**
 * Walking JSON values against their structure (structured-merge-diff's typed package): the
 * field set a value sets (ToFieldSet), the difference between two values (Compare), merging an
 * applied configuration into a live object (Merge) and removing paths (RemoveItems). Values are
 * never mutated; results share unchanged subtrees with their inputs. Keys are data
 * (api/ownkeys.ts): a map's "toString" or "__proto__" is a field like any other.
 */
import { ownValue, setOwnValue } from '../../api/ownkeys.js';
import { jsonEqual } from '../../registry/equality.js';
import { compareElements, fieldElement, FieldSet, keyElement, valueElement, type PathElement } from './fieldset.js';
import { fieldType, UNTYPED, type ListNode, type TypeNode } from './typeschema.js';

type JSONMap = Record<string, unknown>;

function isMap(v: unknown): v is JSONMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

type Shape = 'leaf' | 'map' | 'list';

/** How a value is walked under its type: maps and associative lists granularly, the rest as leaves. */
function shapeOf(t: TypeNode, v: unknown): Shape {
  if (isMap(v) && ((t.kind === 'map' && !t.atomic) || t.kind === 'untyped')) return 'map';
  if (Array.isArray(v) && t.kind === 'list' && t.listType !== 'atomic') return 'list';
  return 'leaf';
}

function childType(t: TypeNode, key: string): TypeNode {
  return fieldType(t, key) ?? UNTYPED;
}

function isDeclaredField(t: TypeNode, key: string): boolean {
  return t.kind === 'map' && t.fields.has(key);
}

/** The path element of a list item: `k:{…}` for map lists, `v:…` for set lists. */
export function itemElement(t: ListNode, item: unknown): PathElement {
  if (t.listType === 'map' && isMap(item)) return keyElement(t.keys, item, t.keyDefaults);
  return valueElement(item);
}

/** Items of an associative list by path element; the first of duplicates wins. */
function indexItems(t: ListNode, list: readonly unknown[]): { order: PathElement[]; items: Map<PathElement, unknown> } {
  const order: PathElement[] = [];
  const items = new Map<PathElement, unknown>();
  for (const item of list) {
    const pe = itemElement(t, item);
    if (items.has(pe)) continue;
    order.push(pe);
    items.set(pe, item);
  }
  return { order, items };
}

// ---- ToFieldSet ----

/** The fields a value sets, as SMD's TypedValue.ToFieldSet. */
export function toFieldSet(value: unknown, t: TypeNode): FieldSet {
  const set = new FieldSet();
  collect(value, t, [], set);
  return set;
}

function collect(value: unknown, t: TypeNode, path: PathElement[], set: FieldSet): void {
  switch (shapeOf(t, value)) {
    case 'map':
      for (const [key, child] of Object.entries(value as JSONMap)) {
        const childPath = [...path, fieldElement(key)];
        collect(child, childType(t, key), childPath, set);
        const emptyMap = isMap(child) && Object.keys(child).length === 0;
        if (child === null || emptyMap || !isDeclaredField(t, key)) set.insert(childPath);
      }
      return;
    case 'list': {
      const lt = t as ListNode;
      for (const item of value as unknown[]) {
        const itemPath = [...path, itemElement(lt, item)];
        collect(item, lt.elements, itemPath, set);
        set.insert(itemPath);
      }
      return;
    }
    default:
      if (path.length > 0) set.insert(path);
  }
}

// ---- Compare ----

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/** What changed from lhs to rhs (SMD's TypedValue.Compare); undefined means absent. */
export function compare(lhs: unknown, rhs: unknown, t: TypeNode): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  compareAt(lhs, rhs, t, [], c);
  return c;
}

const isOwnEnumerable = Object.prototype.propertyIsEnumerable;

function isEmptyCollection(v: unknown): boolean {
  return v === undefined || (isMap(v) && Object.keys(v).length === 0) || (Array.isArray(v) && v.length === 0);
}

/**
 * One node of compare. `path` is one array for the whole walk, pushed and popped on the way
 * (FieldSet.insert reads it, never keeps it). Children are visited in the order of a Set of
 * lhs's keys then rhs's: lhs's, then rhs's that lhs lacks.
 */
function compareAt(l: unknown, r: unknown, t: TypeNode, path: PathElement[], c: Comparison): void {
  const sl = l === undefined ? undefined : shapeOf(t, l);
  const sr = r === undefined ? undefined : shapeOf(t, r);
  const shape: Shape = sl === undefined ? sr! : sr === undefined ? sl : sl === sr ? sl : 'leaf';
  if (shape === 'leaf' || (isEmptyCollection(l) && isEmptyCollection(r))) {
    if (path.length === 0) return;
    if (l === undefined) c.added.insert(path);
    else if (r === undefined) c.removed.insert(path);
    else if (!jsonEqual(l, r)) c.modified.insert(path);
    return;
  }
  if (shape === 'map') {
    const lm = (l ?? {}) as JSONMap;
    const rm = (r ?? {}) as JSONMap;
    for (const key of Object.keys(lm)) compareChild(lm[key], ownValue(rm, key), childType(t, key), path, fieldElement(key), c);
    for (const key of Object.keys(rm)) {
      if (!isOwnEnumerable.call(lm, key)) compareChild(undefined, rm[key], childType(t, key), path, fieldElement(key), c);
    }
  } else {
    const lt = t as ListNode;
    const li = indexItems(lt, (l ?? []) as unknown[]);
    const ri = indexItems(lt, (r ?? []) as unknown[]);
    for (const pe of li.order) compareChild(li.items.get(pe), ri.items.get(pe), lt.elements, path, pe, c);
    for (const pe of ri.order) if (!li.items.has(pe)) compareChild(undefined, ri.items.get(pe), lt.elements, path, pe, c);
  }
  if (path.length === 0) return;
  if (l === undefined) c.added.insert(path);
  else if (r === undefined) c.removed.insert(path);
}

function compareChild(l: unknown, r: unknown, t: TypeNode, path: PathElement[], pe: PathElement, c: Comparison): void {
  path.push(pe);
  try {
    compareAt(l, r, t, path, c);
  } finally {
    path.pop();
  }
}

/**
 * What a create sets, as FieldsV1, in one walk of value: compare({}, value, t).added without
 * omit's member paths (FieldSet.difference) and without the root field `skipRoot` and everything
 * under it, written as FieldSet.toFieldsV1 writes it. Every field, item and map on the way is a
 * member. Undefined when the root is not a granular map (callers then take compare's way).
 */
export function createdFieldsV1(value: unknown, t: TypeNode, omit: FieldSet, skipRoot?: string): Record<string, unknown> | undefined {
  if (shapeOf(t, {}) !== 'map' || shapeOf(t, value) !== 'map') return undefined;
  return createdNode(value, t, false, omit, skipRoot) ?? {};
}

/** One node's FieldsV1; undefined when it is empty (not a member and no non-empty child). */
function createdNode(value: unknown, t: TypeNode, member: boolean, omit: FieldSet | undefined, skip?: string): Record<string, unknown> | undefined {
  if (omit?.member) member = false;
  const shape = value === undefined ? 'leaf' : shapeOf(t, value);
  let out: Record<string, unknown> | undefined;
  if (shape === 'map') {
    const map = value as JSONMap;
    // Sorting the names sorts their `f:` elements (SMD's order for fields is by text).
    const keys = Object.keys(map);
    if (keys.length > 1) sortNames(keys);
    for (const key of keys) {
      if (key === skip) continue;
      const pe = fieldElement(key);
      const node = createdNode(map[key], childType(t, key), true, omit?.children.get(pe));
      if (node) (out ??= member ? { '.': {} } : {})[pe] = node;
    }
  } else if (shape === 'list') {
    const lt = t as ListNode;
    // The first of duplicate items wins, as indexItems decides.
    const items = new Map<PathElement, unknown>();
    for (const item of value as unknown[]) {
      const pe = itemElement(lt, item);
      if (!items.has(pe)) items.set(pe, item);
    }
    const pes = [...items.keys()];
    if (pes.length > 1) pes.sort(compareElements);
    for (const pe of pes) {
      const node = createdNode(items.get(pe), lt.elements, true, omit?.children.get(pe));
      if (node) (out ??= member ? { '.': {} } : {})[pe] = node;
    }
  }
  return out ?? (member ? {} : undefined);
}

/**
 * names sorted as Array.prototype.sort() sorts strings (by UTF-16 code units). An object's few
 * names by insertion, in place: V8's sort allocates its work arrays on every call, and FieldsV1
 * of a create sorts every map's names.
 */
function sortNames(names: string[]): void {
  if (names.length > 16) {
    names.sort();
    return;
  }
  for (let i = 1; i < names.length; i++) {
    const name = names[i]!;
    let j = i - 1;
    for (; j >= 0 && names[j]! > name; j--) names[j + 1] = names[j]!;
    names[j + 1] = name;
  }
}

// ---- Merge ----

/** The applied configuration rhs merged into lhs (SMD's TypedValue.Merge): rhs wins at leaves. */
export function merge(lhs: unknown, rhs: unknown, t: TypeNode): unknown {
  if (rhs === undefined) return lhs;
  if (lhs === undefined) return rhs;
  const shape = shapeOf(t, lhs);
  // SMD: an applied null is a wildcard for a granular map or list that holds something (the
  // applier keeps ownership of the field, others keep their items); onto an empty one it is a leaf.
  if (rhs === null && shape !== 'leaf' && !isEmptyCollection(lhs)) return lhs;
  if (shape === 'leaf' || shape !== shapeOf(t, rhs)) return rhs;
  if (shape === 'map') {
    const lm = lhs as JSONMap;
    const rm = rhs as JSONMap;
    const out: JSONMap = {};
    for (const [key, value] of Object.entries(lm)) setOwnValue(out, key, Object.hasOwn(rm, key) ? merge(value, rm[key], childType(t, key)) : value);
    for (const [key, value] of Object.entries(rm)) if (!Object.hasOwn(lm, key)) setOwnValue(out, key, value);
    return out;
  }
  return mergeLists(lhs as unknown[], rhs as unknown[], t as ListNode);
}

/**
 * SMD's associative list merge: items present on both sides follow rhs's order, items only in
 * lhs keep their place relative to them, items only in rhs come where rhs puts them.
 */
function mergeLists(lhs: unknown[], rhs: unknown[], t: ListNode): unknown[] {
  const l = indexItems(t, lhs);
  const r = indexItems(t, rhs);
  const shared = r.order.filter((pe) => l.items.has(pe));
  let sharedAt = 0;
  const merged = new Set<PathElement>();
  const out: unknown[] = [];
  let li = 0;
  let ri = 0;
  const nextShared = () => (sharedAt < shared.length ? shared[sharedAt] : undefined);
  while (li < l.order.length || ri < r.order.length) {
    if (li < l.order.length && ri < r.order.length) {
      const pe = l.order[li]!;
      if (pe === r.order[ri]) {
        merged.add(pe);
        out.push(merge(l.items.get(pe), r.items.get(pe), t.elements));
        li++;
        ri++;
        sharedAt++;
        continue;
      }
      const ns = nextShared();
      if (r.items.has(pe) && ns !== undefined && ns !== pe) {
        li++;
        continue;
      }
    }
    if (li < l.order.length) {
      const pe = l.order[li]!;
      if (!r.items.has(pe)) {
        out.push(l.items.get(pe));
        li++;
        continue;
      }
      if (merged.has(pe)) {
        li++;
        continue;
      }
    }
    if (ri < r.order.length) {
      const pe = r.order[ri]!;
      merged.add(pe);
      out.push(merge(l.items.get(pe), r.items.get(pe), t.elements));
      ri++;
      if (nextShared() === pe) sharedAt++;
    }
  }
  return out;
}

// ---- EnsureNamedFieldsAreMembers ----

/**
 * SMD's Set.EnsureNamedFieldsAreMembers: set plus every node that is a declared field of a
 * struct (a map with named fields) on the way to a member. Keys of free-form maps and list items
 * are not added: only struct fields become members, so removing such a set removes a struct field
 * as a whole, while a free-form map or a list item goes only when it was itself a member.
 */
export function ensureNamedFieldsAreMembers(set: FieldSet, t: TypeNode): FieldSet {
  const out = new FieldSet();
  out.member = set.member;
  for (const [pe, child] of set.children) {
    let ct: TypeNode = UNTYPED;
    let named = false;
    if (pe.startsWith('f:')) {
      const name = pe.slice(2);
      named = isDeclaredField(t, name);
      ct = childType(t, name);
    } else if (pe.startsWith('k:') && t.kind === 'list') {
      ct = t.elements;
    }
    const node = ensureNamedFieldsAreMembers(child, ct);
    if (named) node.member = true;
    out.children.set(pe, node);
  }
  return out;
}

// ---- RemoveItems ----

/**
 * value without the member paths of set (and everything under them), as SMD's RemoveItems: a
 * map or list the removal walks into and leaves empty becomes null (SMD's removingWalker sets no
 * output for it); kube's decoders then drop that null (Go's omitempty for built-in kinds,
 * PruneNonNullableNullsWithoutDefaults for custom resources), as kgen's strategies do.
 */
export function removeItems(value: unknown, set: FieldSet, t: TypeNode): unknown {
  if (set.children.size === 0) return value;
  const out = removeFrom(value, set, t);
  return out === null && isMap(value) ? {} : out;
}

function removeFrom(value: unknown, set: FieldSet, t: TypeNode): unknown {
  switch (shapeOf(t, value)) {
    case 'map': {
      const out: JSONMap = {};
      for (const [key, child] of Object.entries(value as JSONMap)) {
        const sub = set.children.get(fieldElement(key));
        if (sub?.member) continue;
        setOwnValue(out, key, sub && sub.children.size > 0 ? removeFrom(child, sub, childType(t, key)) : child);
      }
      return Object.keys(out).length > 0 ? out : null;
    }
    case 'list': {
      const lt = t as ListNode;
      const out: unknown[] = [];
      for (const item of value as unknown[]) {
        const sub = set.children.get(itemElement(lt, item));
        if (sub?.member) continue;
        out.push(sub && sub.children.size > 0 ? removeFrom(item, sub, lt.elements) : item);
      }
      return out.length > 0 ? out : null;
    }
    default:
      return value;
  }
}

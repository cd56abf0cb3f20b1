/**
 * Reading field sets recorded before map-list items were keyed with their key fields' defaults.
 *
 * structured-merge-diff names an item of a `map` list that omits a key field with a schema
 * default by that default (`k:{"containerPort":80,"protocol":"TCP"}` for a port applied without
 * `protocol`), and keyElement now does the same. kgen used to record such an item as
 * `k:{"containerPort":80}`, which no item is named any more: an entry stored that way would own
 * nothing. kube has no such upgrade step (its field manager always keyed with defaults); kgen
 * rewrites the old form when it reads managedFields, so ownership recorded before survives: a
 * `k:` element of a list with key defaults that lacks one of them is the item with the default
 * filled in (merged with that item's own entry, if the set also has one).
 */
import { fieldElement, FieldSet, keyElement, type PathElement } from './fieldset.js';
import { fieldType, UNTYPED, type ListNode, type MapNode, type TypeNode } from './typeschema.js';

/** set with old-form key elements rewritten; set itself when it has none. */
export function withKeyDefaults(set: FieldSet, t: TypeNode): FieldSet {
  return rekey(set, t) ?? set;
}

/**
 * The rewritten set, or undefined when nothing under set changes. Only the paths that lead to a
 * list with key defaults are walked (a map's fields by name, from its plan), so the walk of a
 * Deployment's sets looks at a dozen nodes, not at every field.
 */
function rekey(set: FieldSet, t: TypeNode): FieldSet | undefined {
  if (set.children.size === 0) return undefined;
  if (t.kind === 'list') return rekeyItems(set, t);
  if (t.kind !== 'map') return undefined;
  const p = planOf(t);
  if (p === undefined) return undefined;
  if (p.elements) return rekeyAll(set, t);
  let replaced: Map<PathElement, FieldSet> | undefined;
  for (const [pe, type] of p.fields) {
    const child = set.children.get(pe);
    const sub = child === undefined ? undefined : rekey(child, type);
    if (sub !== undefined) (replaced ??= new Map()).set(pe, sub);
  }
  if (replaced === undefined) return undefined;
  const result = new FieldSet();
  result.member = set.member;
  for (const [pe, child] of set.children) result.children.set(pe, replaced.get(pe) ?? child);
  return result;
}

/** A list's items: each `k:` element completed with the defaults it lacks, each item walked. */
function rekeyItems(set: FieldSet, t: ListNode): FieldSet | undefined {
  const walk = reachesKeyDefaults(t.elements);
  if (t.keyDefaults === undefined && !walk) return undefined;
  return rebuild(set, (pe, child) => [
    t.keyDefaults !== undefined && pe.startsWith('k:') ? withDefaults(pe, t, t.keyDefaults) : pe,
    walk ? rekey(child, t.elements) : undefined,
  ]);
}

/** A map whose free-form entries may hold such lists: every child walked. */
function rekeyAll(set: FieldSet, t: TypeNode): FieldSet | undefined {
  return rebuild(set, (pe, child) => [pe, pe.startsWith('f:') ? rekey(child, fieldType(t, pe.slice(2)) ?? UNTYPED) : undefined]);
}

/** set with its children renamed and replaced by step; two children renamed alike are merged. */
function rebuild(set: FieldSet, step: (pe: PathElement, child: FieldSet) => [PathElement, FieldSet | undefined]): FieldSet | undefined {
  let out: [PathElement, FieldSet][] | undefined;
  let i = 0;
  for (const [pe, child] of set.children) {
    const [element, sub] = step(pe, child);
    if (out === undefined && (sub !== undefined || element !== pe)) out = [...set.children].slice(0, i);
    if (out !== undefined) out.push([element, sub ?? child]);
    i++;
  }
  if (out === undefined) return undefined;
  const result = new FieldSet();
  result.member = set.member;
  for (const [pe, child] of out) {
    const other = result.children.get(pe);
    result.children.set(pe, other ? other.union(child) : child);
  }
  return result;
}

interface Plan {
  /** The declared fields (as `f:` elements) whose types reach a list with key defaults. */
  fields: [PathElement, TypeNode][];
  /** Whether the map's free-form entries do. */
  elements: boolean;
}

/** Per map node: its plan, or undefined when nothing below it has key defaults. */
const plans = new WeakMap<MapNode, Plan | null>();

function planOf(t: MapNode): Plan | undefined {
  let p = plans.get(t);
  if (p === undefined) {
    const fields: [PathElement, TypeNode][] = [];
    for (const [name, field] of t.fields) if (reachesKeyDefaults(field.type)) fields.push([fieldElement(name), field.type]);
    const elements = t.elements !== undefined && reachesKeyDefaults(t.elements);
    p = fields.length > 0 || elements ? { fields, elements } : null;
    plans.set(t, p);
  }
  return p ?? undefined;
}

/** Per list with key defaults: `"protocol":`, the text each default key shows in a complete element. */
const needles = new WeakMap<ListNode, string[]>();

/** A `k:` element with the key defaults it lacks filled in (keyElement's form); pe when complete. */
function withDefaults(pe: PathElement, t: ListNode, defaults: ReadonlyMap<string, unknown>): PathElement {
  let texts = needles.get(t);
  if (texts === undefined) {
    texts = [...defaults.keys()].map((k) => `${JSON.stringify(k)}:`);
    needles.set(t, texts);
  }
  let complete = true;
  for (const text of texts) if (!pe.includes(text)) complete = false;
  if (complete) return pe;
  let key: unknown;
  try {
    key = JSON.parse(pe.slice(2));
  } catch {
    return pe;
  }
  if (typeof key !== 'object' || key === null || Array.isArray(key)) return pe;
  return keyElement(t.keys, key as Record<string, unknown>, defaults);
}

/** Whether a list with key defaults is t or below it, per node. */
const reaches = new WeakMap<TypeNode, boolean>();

function reachesKeyDefaults(t: TypeNode): boolean {
  if (t.kind === 'scalar' || t.kind === 'untyped') return false;
  let known = reaches.get(t);
  if (known === undefined) {
    known = search(t, new Set());
    reaches.set(t, known);
  }
  return known;
}

/** A depth-first search of the (possibly cyclic) structure below t. */
function search(t: TypeNode, seen: Set<TypeNode>): boolean {
  if (t.kind === 'scalar' || t.kind === 'untyped' || seen.has(t)) return false;
  seen.add(t);
  if (t.kind === 'list') return t.keyDefaults !== undefined || search(t.elements, seen);
  for (const field of t.fields.values()) if (search(field.type, seen)) return true;
  return t.elements !== undefined && search(t.elements, seen);
}

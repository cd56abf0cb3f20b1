/**
 * Strategic merge patch (k8s.io/apimachinery/pkg/util/strategicpatch StrategicMergeMapPatch),
 * for every compiled kind (built-in or not; runtime CRDs answer 415). Patch metadata comes from
 * the kind's structure (`x-kubernetes-patch-strategy` / `x-kubernetes-patch-merge-key` in its
 * OpenAPI schema, emitted for `@kgen:listType map` lists), as kubectl computes its patches from
 * the same document:
 *
 * - maps merge recursively; `null` deletes a key; `$patch: replace` replaces the map with the
 *   patch's, `$patch: delete` empties it; `$retainKeys` drops original keys not listed;
 * - lists are replaced unless their strategy is `merge`: then lists of maps merge items by the
 *   merge key (items may carry `$patch: delete|replace|merge`), lists of scalars are united;
 * - `$deleteFromPrimitiveList/<field>` removes values from a scalar list and
 *   `$setElementOrder/<field>` orders a merged list;
 * - a merged list is ordered as kube's normalizeElementOrder: the patch's items in the patch's
 *   order, server-only items interleaved where the original had them.
 *
 * Malformed directives are 400 BadRequest. Keys are data (api/ownkeys.ts): "__proto__" or
 * "toString" in a ConfigMap's data is set, merged and deleted like any other key.
 */
import { ownValue, setOwnValue } from '../../api/ownkeys.js';
import { newBadRequest } from '../../api/status.js';
import { jsonEqual } from '../../registry/equality.js';
import { fieldType, UNTYPED, type ListNode, type TypeNode } from './typeschema.js';

type JSONMap = Record<string, unknown>;

const PATCH = '$patch';
const RETAIN_KEYS = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList/';
const SET_ELEMENT_ORDER = '$setElementOrder/';

function isMap(v: unknown): v is JSONMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function listNode(t: TypeNode, key: string): ListNode | undefined {
  const ft = fieldType(t, key);
  return ft?.kind === 'list' ? ft : undefined;
}

/** Patch values taken whole (no original to merge with) lose their nulls and directives. */
function clean(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clean);
  if (!isMap(value)) return value;
  const out: JSONMap = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null || k.startsWith('$')) continue;
    setOwnValue(out, k, clean(v));
  }
  return out;
}

/** The original document with patch applied. Neither argument is mutated. */
export function strategicMergePatch(original: unknown, patch: unknown, t: TypeNode): unknown {
  if (!isMap(patch)) throw newBadRequest('a strategic merge patch must be a JSON object');
  return mergeMap(isMap(original) ? original : {}, patch, t);
}

function mergeMap(original: JSONMap, patch: JSONMap, t: TypeNode): JSONMap {
  const directive = patch[PATCH];
  if (directive !== undefined) {
    if (directive === 'replace') return clean(patch) as JSONMap;
    if (directive === 'delete') return {};
    throw newBadRequest(`unknown patch type: ${String(directive)} in map: ${JSON.stringify(patch)}`);
  }
  let out: JSONMap = { ...original };
  if (RETAIN_KEYS in patch) out = retainKeys(out, patch);
  const orders = new Map<string, unknown[]>();
  for (const [key, value] of Object.entries(patch)) {
    if (key === RETAIN_KEYS) continue;
    if (key.startsWith(SET_ELEMENT_ORDER)) {
      if (!Array.isArray(value)) throw newBadRequest(`invalid type for ${key}: must be a list`);
      orders.set(key.slice(SET_ELEMENT_ORDER.length), value);
      continue;
    }
    if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      const field = key.slice(DELETE_FROM_PRIMITIVE_LIST.length);
      if (!Array.isArray(value)) throw newBadRequest(`invalid type for ${key}: must be a list`);
      const list = ownValue(out, field);
      if (Array.isArray(list)) setOwnValue(out, field, list.filter((v) => !value.some((d) => jsonEqual(d, v))));
      continue;
    }
    if (value === null) {
      delete out[key];
      continue;
    }
    const current = ownValue(out, key);
    if (isMap(current) && isMap(value)) setOwnValue(out, key, mergeMap(current, value, fieldType(t, key) ?? UNTYPED));
    else if (Array.isArray(current) && Array.isArray(value)) setOwnValue(out, key, mergeList(current, value, listNode(t, key)));
    else setOwnValue(out, key, clean(value));
  }
  for (const [field, order] of orders) {
    const merged = ownValue(out, field);
    if (!Array.isArray(merged)) continue;
    const was = ownValue(original, field);
    const before = Array.isArray(was) ? (was as unknown[]) : [];
    setOwnValue(out, field, normalizeElementOrder(merged, order, before, listNode(t, field)?.patchMergeKey));
  }
  return out;
}

function retainKeys(original: JSONMap, patch: JSONMap): JSONMap {
  const keys = patch[RETAIN_KEYS];
  if (!Array.isArray(keys) || keys.some((k) => typeof k !== 'string')) throw newBadRequest('$retainKeys must be a list of field names');
  for (const key of Object.keys(patch)) {
    if (key.startsWith('$') || patch[key] === null) continue;
    if (!keys.includes(key)) throw newBadRequest(`not all keys in the patch are present in the $retainKeys list: ${key} is not`);
  }
  const out: JSONMap = {};
  for (const [k, v] of Object.entries(original)) if (keys.includes(k)) setOwnValue(out, k, v);
  return out;
}

function isMergeList(t: ListNode | undefined): boolean {
  return t !== undefined && t.patchStrategy.includes('merge');
}

function mergeList(original: unknown[], patch: unknown[], t: ListNode | undefined): unknown[] {
  if (!isMergeList(t)) {
    const replace = patch.findIndex((item) => isMap(item) && item[PATCH] === 'replace');
    return clean(replace >= 0 ? patch.filter((_, i) => i !== replace) : patch) as unknown[];
  }
  if (patch.every((item) => !isMap(item)) && original.every((item) => !isMap(item))) {
    const out = [...original];
    for (const item of patch) if (!out.some((o) => jsonEqual(o, item))) out.push(item);
    return normalizeElementOrder(out, patch, original);
  }
  const key = t!.patchMergeKey;
  if (!key) throw newBadRequest('cannot merge lists without merge key');
  return mergeListByKey(original, patch, key, t!.elements);
}

/**
 * kube's normalizeElementOrder after a merge: the items the patch names (or its
 * `$setElementOrder` list) in the patch's order, the server-only items in the original's order,
 * interleaved by mergeSortedSlice so that server-only items keep their place relative to the
 * patch items the original also had.
 */
function normalizeElementOrder(merged: unknown[], patchOrder: unknown[], serverOrder: unknown[], key?: string): unknown[] {
  const id = (v: unknown) => (key && isMap(v) ? v[key] : v);
  const indexIn = (list: unknown[], v: unknown) => list.findIndex((o) => jsonEqual(id(o), id(v)));
  const patchItems = sortByOrder(merged.filter((v) => indexIn(patchOrder, v) >= 0), (v) => indexIn(patchOrder, v));
  const serverOnly = sortByOrder(merged.filter((v) => indexIn(patchOrder, v) < 0), (v) => indexIn(serverOrder, v));
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < serverOnly.length || j < patchItems.length) {
    if (i >= serverOnly.length) out.push(patchItems[j++]);
    else if (j >= patchItems.length) out.push(serverOnly[i++]);
    else {
      const li = indexIn(serverOrder, serverOnly[i]);
      const ri = indexIn(serverOrder, patchItems[j]);
      out.push(li >= 0 && ri >= 0 && li < ri ? serverOnly[i++] : patchItems[j++]);
    }
  }
  return out;
}

/** Items with a position (>= 0) sorted by it, in the slots such items held; the others stay put. */
function sortByOrder(items: unknown[], position: (v: unknown) => number): unknown[] {
  const slots = items.map((v, i) => ({ v, i, p: position(v) })).filter((x) => x.p >= 0);
  const sorted = [...slots].sort((a, b) => a.p - b.p);
  const out = [...items];
  slots.forEach((slot, k) => (out[slot.i] = sorted[k]!.v));
  return out;
}

function mergeListByKey(original: unknown[], patch: unknown[], key: string, elements: TypeNode): unknown[] {
  let out = [...original];
  const rest: JSONMap[] = [];
  for (const item of patch) {
    if (!isMap(item)) throw newBadRequest(`all items of a list merged by ${key} must be objects`);
    const directive = item[PATCH];
    if (directive === 'replace') return clean(patch.filter((p) => p !== item)) as unknown[];
    if (directive === 'delete') {
      if (!(key in item)) throw newBadRequest(`delete directive without the merge key ${key}`);
      out = out.filter((o) => !(isMap(o) && jsonEqual(o[key], item[key])));
      continue;
    }
    if (directive !== undefined && directive !== 'merge') throw newBadRequest(`unknown patch type: ${String(directive)} in map: ${JSON.stringify(item)}`);
    if (!(key in item)) throw newBadRequest(`map: ${JSON.stringify(item)} does not contain declared merge key: ${key}`);
    const { [PATCH]: _d, ...plain } = item;
    rest.push(plain);
  }
  const remaining = [...out];
  for (const item of rest) {
    const at = out.findIndex((o) => isMap(o) && jsonEqual(o[key], item[key]));
    if (at >= 0) out[at] = mergeMap(out[at] as JSONMap, item, elements);
    else out.push(clean(item));
  }
  return normalizeElementOrder(out, rest, remaining, key);
}

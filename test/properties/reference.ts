/**
 * Independent reference models for the property tests: RFC 7396 merge patch and RFC 6902 JSON
 * patch written from the RFCs' text, and server-side apply over map-only documents written from
 * its contract (merge the configuration, drop what the applier applied before and no longer
 * applies unless someone else still owns it; a forced apply takes the fields it changes).
 * Nothing here imports the server's code.
 */
import { isDeepStrictEqual } from 'node:util';

export type JSONValue = null | boolean | number | string | JSONValue[] | { [k: string]: JSONValue };
type JSONObject = { [k: string]: JSONValue };

export function isObject(v: unknown): v is JSONObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

// ---- RFC 7396, section 2 pseudo-code ----

export function refMergePatch(target: JSONValue | undefined, patch: JSONValue): JSONValue {
  if (isObject(patch)) {
    let result: JSONObject = isObject(target) ? clone(target) : {};
    for (const name of Object.keys(patch)) {
      const value = patch[name]!;
      if (value === null) {
        if (name in result) delete result[name];
      } else {
        result = { ...result, [name]: refMergePatch(result[name], value) };
      }
    }
    return result;
  }
  return patch;
}

// ---- RFC 6902 ----

export class PatchError extends Error {}

export type Operation =
  | { op: 'add' | 'replace' | 'test'; path: string; value: JSONValue }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; from: string; path: string };

function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new PatchError(`bad pointer ${pointer}`);
  return pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function arrayIndex(token: string, length: number, allowEnd: boolean): number {
  if (allowEnd && token === '-') return length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchError(`bad index ${token}`);
  const i = Number(token);
  if (i > length || (!allowEnd && i === length)) throw new PatchError(`index ${token} out of range`);
  return i;
}

/** The container holding the pointer's last token, and that token. */
function parentOf(doc: JSONValue, pointer: string): { parent: JSONValue; key: string } {
  const ts = tokens(pointer);
  let node: JSONValue = doc;
  for (const t of ts.slice(0, -1)) {
    if (Array.isArray(node)) node = node[arrayIndex(t, node.length, false)]!;
    else if (isObject(node) && t in node) node = node[t]!;
    else throw new PatchError(`path ${pointer} does not exist`);
  }
  return { parent: node, key: ts[ts.length - 1]! };
}

function get(doc: JSONValue, pointer: string): JSONValue {
  if (pointer === '') return doc;
  const { parent, key } = parentOf(doc, pointer);
  if (Array.isArray(parent)) return parent[arrayIndex(key, parent.length, false)]!;
  if (isObject(parent) && key in parent) return parent[key]!;
  throw new PatchError(`path ${pointer} does not exist`);
}

function add(doc: JSONValue, pointer: string, value: JSONValue): JSONValue {
  if (pointer === '') return value;
  const { parent, key } = parentOf(doc, pointer);
  if (Array.isArray(parent)) parent.splice(arrayIndex(key, parent.length, true), 0, value);
  else if (isObject(parent)) parent[key] = value;
  else throw new PatchError(`cannot add to a scalar at ${pointer}`);
  return doc;
}

function remove(doc: JSONValue, pointer: string): JSONValue {
  if (pointer === '') throw new PatchError('cannot remove the whole document');
  const { parent, key } = parentOf(doc, pointer);
  if (Array.isArray(parent)) parent.splice(arrayIndex(key, parent.length, false), 1);
  else if (isObject(parent) && key in parent) delete parent[key];
  else throw new PatchError(`path ${pointer} does not exist`);
  return doc;
}

/** Applies ops in order to a copy of doc; throws PatchError when any fails. */
export function refJSONPatch(doc: JSONValue, ops: readonly Operation[]): JSONValue {
  let out = clone(doc);
  for (const op of ops) {
    switch (op.op) {
      case 'add':
        out = add(out, op.path, clone(op.value));
        break;
      case 'remove':
        out = remove(out, op.path);
        break;
      case 'replace':
        get(out, op.path);
        out = op.path === '' ? clone(op.value) : add(remove(out, op.path), op.path, clone(op.value));
        break;
      case 'move': {
        if (op.path !== op.from && op.path.startsWith(`${op.from}/`)) throw new PatchError('cannot move into a child');
        const value = get(out, op.from);
        if (op.path === op.from) break;
        out = add(remove(out, op.from), op.path, value);
        break;
      }
      case 'copy':
        out = add(out, op.path, clone(get(out, op.from)));
        break;
      case 'test':
        if (!isDeepStrictEqual(get(out, op.path), op.value)) throw new PatchError('test failed');
        break;
    }
  }
  return out;
}

// ---- Server-side apply over map-only documents ----

/** Leaf paths (dot-joined) of a document whose maps are never empty. */
export function leaves(doc: JSONObject, prefix = ''): Map<string, JSONValue> {
  const out = new Map<string, JSONValue>();
  for (const [k, v] of Object.entries(doc)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (isObject(v)) for (const [p, leaf] of leaves(v, path)) out.set(p, leaf);
    else out.set(path, v);
  }
  return out;
}

function deepMerge(obj: JSONObject, config: JSONObject): JSONObject {
  const out = clone(obj);
  for (const [k, v] of Object.entries(config)) out[k] = isObject(v) && isObject(out[k]) ? deepMerge(out[k] as JSONObject, v) : clone(v);
  return out;
}

function deleteLeaf(obj: JSONObject, path: string): void {
  const parts = path.split('.');
  const chain: JSONObject[] = [obj];
  for (const p of parts.slice(0, -1)) {
    const next = chain[chain.length - 1]![p];
    if (!isObject(next)) return;
    chain.push(next);
  }
  delete chain[chain.length - 1]![parts[parts.length - 1]!];
  // Maps left with no owned field under them belong to nobody and go too.
  for (let i = chain.length - 1; i > 0; i--) {
    if (Object.keys(chain[i]!).length > 0) break;
    delete chain[i - 1]![parts[i - 1]!];
  }
}

/** The state the apply reference keeps: the object and, per leaf path, its owners. */
export class ApplyModel {
  obj: JSONObject | undefined;
  readonly owners = new Map<string, Set<string>>();
  private readonly last = new Map<string, Set<string>>();

  /** Whom applying config as manager would conflict with (unforced): owners of leaves it changes. */
  conflicts(manager: string, config: JSONObject): string[] {
    const current = this.obj ? leaves(this.obj) : new Map<string, JSONValue>();
    const out = new Set<string>();
    for (const [path, value] of leaves(config)) {
      if (current.has(path) && isDeepStrictEqual(current.get(path), value)) continue;
      for (const o of this.owners.get(path) ?? []) if (o !== manager) out.add(`${o} ${path}`);
    }
    return [...out].sort();
  }

  /** A forced apply: merge, take changed fields, prune what this manager dropped and nobody else owns. */
  apply(manager: string, config: JSONObject): void {
    const current = this.obj ? leaves(this.obj) : new Map<string, JSONValue>();
    const applied = leaves(config);
    for (const [path, value] of applied) {
      const changed = !current.has(path) || !isDeepStrictEqual(current.get(path), value);
      if (changed) this.owners.set(path, new Set());
    }
    const merged = deepMerge(this.obj ?? {}, config);
    for (const path of this.last.get(manager) ?? []) {
      if (applied.has(path)) continue;
      const owners = this.owners.get(path);
      owners?.delete(manager);
      if (!owners || owners.size === 0) {
        this.owners.delete(path);
        deleteLeaf(merged, path);
      }
    }
    for (const path of applied.keys()) this.owners.get(path)!.add(manager);
    this.last.set(manager, new Set(applied.keys()));
    this.obj = merged;
  }
}

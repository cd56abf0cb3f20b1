/**
 * Shared parameters of `/openapi/v2`, as kube-openapi's builder declares them
 * (pkg/builder/parameters.go, deduplicateParameters): every operation's and path item's parameter
 * is declared once under the document's top-level `parameters` and referred to as
 * `{"$ref": "#/parameters/<key>"}`, except the ones kube keeps in place:
 * - `name` in the path or query (its description names the kind);
 * - `dryRun` and `fieldValidation` in the query (kubectl up to 1.26 and 1.27 looks for them in an
 *   operation to tell whether the server supports dry run and server-side field validation);
 * - a body whose schema is not a `#/definitions/io.k8s.apimachinery…` reference (a kind's body).
 * The key is the parameter's name, `-`, and 8 base64url characters of the FNV-1 64-bit hash of the
 * parameter's JSON as Go prints it (spec.Parameter through encoding/json: its fields in struct
 * order, zero values left out, `<`, `>` and `&` escaped): `namespace-vgWSWtn3`, `body-2Y1dVQaQ`.
 * Two different parameters whose keys collide take `<name>-1`, `<name>-2`, … in the order of their
 * JSON. Merging documents (kube-aggregator's mergeSpecs) renames a source's parameter whose key the
 * destination holds with other content to `<key>_v2`, `<key>_v3`, … (mergeParameters).
 */

type Json = Record<string, unknown>;

export const PARAMETER_REF = '#/parameters/';

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether kube shares this parameter (see the module comment). */
export function isShared(p: Json): boolean {
  if (typeof p.$ref === 'string') return false;
  if ((p.in === 'query' || p.in === 'path') && p.name === 'name') return false;
  if (p.in === 'query' && (p.name === 'fieldValidation' || p.name === 'dryRun')) return false;
  if (p.in === 'body' && p.name === 'body' && isObject(p.schema)) {
    const ref = p.schema.$ref;
    if (!(typeof ref === 'string' && ref.startsWith('#/definitions/io.k8s.apimachinery'))) return false;
  }
  return true;
}

/** A JSON string as Go's encoding/json prints it (HTML characters and U+2028/9 escaped). */
function goString(s: string): string {
  const text = JSON.stringify(s);
  return /[<>&\u2028\u2029]/.test(text) ? text.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : text;
}

/** Any JSON value as Go prints a map of it deterministically: keys sorted. */
function goValue(v: unknown): string {
  if (typeof v === 'string') return goString(v);
  if (Array.isArray(v)) return `[${v.map(goValue).join(',')}]`;
  if (isObject(v)) {
    const keys = Object.keys(v).filter((k) => v[k] !== undefined).sort();
    return `{${keys.map((k) => `${goString(k)}:${goValue(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/** A schema or items object: its `$ref` first (a reference alone prints as kube's), then the rest sorted. */
function goNested(v: unknown): string {
  if (!isObject(v) || typeof v.$ref !== 'string') return goValue(v);
  const { $ref, ...rest } = v;
  const tail = goValue(rest);
  return `{"$ref":${goString($ref)}${tail === '{}' ? '' : `,${tail.slice(1, -1)}`}}`;
}

/**
 * spec.Parameter's fields in the order kube-openapi marshals them (CommonValidations,
 * SimpleSchema, ParamProps, Refable, then the x- extensions sorted), each left out when zero.
 */
const FIELDS: [name: string, print: (v: unknown) => string][] = [
  ...['maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'enum'].map((n) => [n, goValue] as [string, (v: unknown) => string]),
  ...['type', 'nullable', 'format'].map((n) => [n, goValue] as [string, (v: unknown) => string]),
  ['items', goNested],
  ...['collectionFormat', 'default', 'example', 'description', 'name', 'in', 'required'].map((n) => [n, goValue] as [string, (v: unknown) => string]),
  ['schema', goNested],
  ['allowEmptyValue', goValue],
  ['$ref', goValue],
];

const isZero = (v: unknown) => v === undefined || v === null || v === false || v === '' || (Array.isArray(v) && v.length === 0);

/** The parameter's JSON as kube-openapi (Go) prints it: what its key hashes and what merging compares. */
export function goParameterJSON(p: Json): string {
  const members: string[] = [];
  for (const [name, print] of FIELDS) {
    const v = p[name];
    if (!isZero(v)) members.push(`${goString(name)}:${print(v)}`);
  }
  for (const k of Object.keys(p).filter((k) => /^[xX]-/.test(k)).sort()) {
    if (p[k] !== undefined) members.push(`${goString(k)}:${goValue(p[k])}`);
  }
  return `{${members.join(',')}}`;
}

/**
 * kube-openapi's base64Hash: FNV-1 (multiply, then xor) 64-bit of the UTF-8 bytes, its first 6
 * bytes (big-endian) in base64url. The 64-bit state is two 32-bit halves: multiplying by the prime
 * 2^40 + 0x1b3 is h × 0x1b3 plus the low half shifted into the high one by 8 bits.
 */
export function base64Hash(s: string): string {
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  for (const b of Buffer.from(s, 'utf8')) {
    const product = lo * 0x1b3; // < 2^41: exact
    hi = (Math.imul(hi, 0x1b3) + (lo << 8) + Math.floor(product / 0x100000000)) >>> 0;
    lo = ((product >>> 0) ^ b) >>> 0;
  }
  const bytes = Buffer.alloc(8);
  bytes.writeUInt32BE(hi, 0);
  bytes.writeUInt32BE(lo, 4);
  return bytes.subarray(0, 6).toString('base64url');
}

/** The name the parameter takes under `parameters` (before any collision numbering). */
function baseName(p: Json): string {
  return typeof p.name === 'string' && p.name !== '' ? p.name : 'param';
}

/**
 * Keys of shareable parameters by their Go JSON, remembered across documents (a key depends on the
 * parameter's content only). `collided` turns true once two different parameters met the same key:
 * a document holding both must be shared with shareParameters, which numbers them as kube does.
 */
export class ParameterKeys {
  /** By the parameter's JSON.stringify text (native, so cheaper than building its Go JSON for each of the thousands of equal parameters a document prints). */
  private readonly keyByText = new Map<string, string>();
  private readonly keyByJSON = new Map<string, string>();
  private readonly jsonByKey = new Map<string, string>();
  collided = false;

  /** The key `p` is declared under, or undefined when kube keeps it in place. */
  keyOf(p: Json): string | undefined {
    if (!isShared(p)) return undefined;
    const text = JSON.stringify(p);
    let key = this.keyByText.get(text);
    if (key !== undefined) return key;
    const json = goParameterJSON(p);
    key = this.keyByJSON.get(json);
    if (key === undefined) {
      key = `${baseName(p)}-${base64Hash(json)}`;
      const other = this.jsonByKey.get(key);
      if (other !== undefined && other !== json) this.collided = true;
      else this.jsonByKey.set(key, json);
      this.keyByJSON.set(json, key);
    }
    this.keyByText.set(text, key);
    return key;
  }
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

/** Every parameter list of the paths: each operation's, then the path item's (kube's order). */
function* parameterLists(paths: Json): Generator<unknown[]> {
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue;
    for (const m of METHODS) {
      const op = item[m];
      if (isObject(op) && Array.isArray(op.parameters)) yield op.parameters;
    }
    if (Array.isArray(item.parameters)) yield item.parameters;
  }
}

/** Go's sort.Strings: by UTF-8 bytes. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/**
 * kube-openapi's deduplicateParameters over Swagger `paths` holding their parameters in place: the
 * shared ones declared once, sorted by key, and the paths with references to them (new path items
 * and operations where a parameter was replaced; `paths` is not changed).
 */
export function shareParameters(paths: Record<string, unknown>): { paths: Record<string, unknown>; parameters: Record<string, unknown> } {
  const byJSON = new Map<string, Json>();
  for (const list of parameterLists(paths)) {
    for (const p of list) {
      if (!isObject(p) || !isShared(p)) continue;
      // The first of equal parameters is declared, as kube keeps the first.
      const json = goParameterJSON(p);
      if (!byJSON.has(json)) byJSON.set(json, p);
    }
  }
  const keyByJSON = new Map<string, string>();
  const declared = new Map<string, Json>();
  for (const json of [...byJSON.keys()].sort(byBytes)) {
    const p = byJSON.get(json)!;
    let key = `${baseName(p)}-${base64Hash(json)}`;
    for (let i = 1; declared.has(key); i++) key = `${baseName(p)}-${i}`;
    declared.set(key, p);
    keyByJSON.set(json, key);
  }
  const replace = (list: unknown[]) =>
    list.map((p) => {
      const key = isObject(p) && isShared(p) ? keyByJSON.get(goParameterJSON(p)) : undefined;
      return key === undefined ? p : { $ref: PARAMETER_REF + key };
    });
  const out: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) {
      out[path] = item;
      continue;
    }
    const copy: Json = { ...item };
    for (const m of METHODS) {
      const op = item[m];
      if (isObject(op) && Array.isArray(op.parameters)) copy[m] = { ...op, parameters: replace(op.parameters) };
    }
    if (Array.isArray(item.parameters)) copy.parameters = replace(item.parameters);
    out[path] = copy;
  }
  const parameters = Object.fromEntries([...declared.keys()].sort().map((k) => [k, declared.get(k)]));
  return { paths: out, parameters };
}

/** `value` with every `{"$ref": "#/parameters/<old>"}` renamed to its new key (a copy where one changed). */
function renameRefs(value: unknown, renames: Map<string, string>): unknown {
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const r = renameRefs(v, renames);
      if (r !== v) changed = true;
      return r;
    });
    return changed ? out : value;
  }
  if (!isObject(value)) return value;
  const ref = value.$ref;
  if (typeof ref === 'string' && ref.startsWith(PARAMETER_REF)) {
    const renamed = renames.get(ref.slice(PARAMETER_REF.length));
    return renamed === undefined ? value : { ...value, $ref: PARAMETER_REF + renamed };
  }
  let out: Json | undefined;
  for (const [k, v] of Object.entries(value)) {
    const r = renameRefs(v, renames);
    if (r !== v) (out ??= { ...value })[k] = r;
  }
  return out ?? value;
}

const sameParameter = (a: unknown, b: unknown) => isObject(a) && isObject(b) && goParameterJSON(a) === goParameterJSON(b);

/**
 * kube-aggregator's merge of a source document's shared parameters into a destination's
 * (kube-openapi pkg/aggregator mergeSpecs, renaming conflicts): a key the destination does not
 * hold, or holds with the same content, is taken as it is; a key the destination holds with other
 * content becomes `<key>_v2` (or `_v3`, …: the first that the destination holds with the same
 * content, else the first free in both), and the source's references follow. Adds the source's
 * parameters to `dest` and returns the source's paths with its references renamed.
 */
export function mergeParameters(dest: Record<string, unknown>, source: { paths: Record<string, unknown>; parameters?: Record<string, unknown> }): Record<string, unknown> {
  const params = source.parameters ?? {};
  const renames = new Map<string, string>();
  const used = new Set(Object.keys(dest));
  for (const [key, p] of Object.entries(params)) {
    if (!Object.hasOwn(dest, key) || sameParameter(dest[key], p)) continue;
    let name = key;
    let found = true;
    let i = 1;
    let reused = false;
    while (found) {
      i++;
      name = `${key}_v${i}`;
      found = Object.hasOwn(dest, name);
      if (found && sameParameter(dest[name], p)) {
        reused = true;
        break;
      }
    }
    if (!reused) {
      while (used.has(name) || Object.hasOwn(params, name)) name = `${key}_v${++i}`;
      used.add(name);
    }
    renames.set(key, name);
  }
  for (const [key, p] of Object.entries(params)) {
    const name = renames.get(key) ?? key;
    if (!Object.hasOwn(dest, name)) dest[name] = p;
  }
  return renames.size === 0 ? source.paths : (renameRefs(source.paths, renames) as Record<string, unknown>);
}

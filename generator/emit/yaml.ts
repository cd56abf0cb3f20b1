/**
 * A fast YAML printer for JSON data that prints exactly what the `yaml` package's
 * `stringify(value, { lineWidth: 0, version: '1.1' })` prints (test/generator/yaml.test.ts holds it
 * to that), at a small fraction of its cost: the package builds a node tree and runs every string
 * through its folding and quoting machinery, which was most of `kgen generate`'s time once CRD
 * manifests were emitted.
 *
 * Maps, sequences, numbers, booleans and null are printed here, and so are strings that YAML 1.1
 * reads back as the same string when written plain (the package's own tests decide that). Any
 * other string (quoted, block literal) is printed by the package itself, one scalar at a time,
 * cached; anything unusual (a key the package would write in explicit `? ` form, a document
 * marker inside a string, a value that is not JSON) makes the whole document go to the package.
 */
import { Document, stringify as yamlStringify } from 'yaml';

const OPTIONS = { lineWidth: 0, version: '1.1' } as const;

/** Thrown to hand the whole document to the `yaml` package. */
class Unusual extends Error {}

/** The 1.1 schema's tests for plain scalars that would not read back as strings. */
const NOT_STRING: RegExp[] = (() => {
  const schema = new Document(null, OPTIONS).schema as unknown as {
    tags: { tag: string; default?: boolean; test?: RegExp }[];
    compat?: { tag: string; default?: boolean; test?: RegExp }[] | null;
  };
  return [...schema.tags, ...(schema.compat ?? [])]
    .filter((t) => t.default && t.tag !== 'tag:yaml.org,2002:str' && t.test)
    .map((t) => t.test!);
})();

// The conditions of the package's plainString() (stringify/stringifyString.js) for a block value.
const NOT_PLAIN = /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/;
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u{D800}-\u{DFFF}]/u;
const DOCUMENT_MARKER = /^(%|---|\.\.\.)/m;
/**
 * YAML 1.1's line breaks beyond CR and LF (NEL, LS, PS). kubectl's reader (go-yaml, YAML 1.1)
 * breaks a line at each, where the `yaml` package (YAML 1.2) prints them raw, even plain: a string
 * of apis/ holding `\u2028metadata:` made a manifest kubectl could not read, or read as other
 * keys. Such a string is printed here double-quoted with them escaped.
 */
const YAML11_BREAK = /[\u0085\u2028\u2029]/;
const ESCAPED_IN_QUOTES = /[\x7f-\x9f\u2028\u2029\ufeff]/g;

/** A double-quoted scalar on one line: JSON's escapes (YAML's are a superset), and the YAML 1.1 breaks, DEL, C1 and BOM as \uXXXX. */
function doubleQuoted(value: string): string {
  return JSON.stringify(value).replace(ESCAPED_IN_QUOTES, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const plainCache = new Map<string, boolean>();

function isPlain(value: string): boolean {
  let plain = plainCache.get(value);
  if (plain === undefined) {
    plain = !(value === '' || value.includes('\n') || NOT_PLAIN.test(value) || CONTROL.test(value) || DOCUMENT_MARKER.test(value));
    if (plain) for (const test of NOT_STRING) if (test.test(value)) plain = false;
    plainCache.set(value, plain);
  }
  return plain;
}

const valueCache = new Map<string, string[]>();
const keyCache = new Map<string, string>();

/** The package's rendering of a string map value: its first line, then continuation lines relative to the key. */
function quotedValue(value: string): string[] {
  let lines = valueCache.get(value);
  if (!lines) {
    if (DOCUMENT_MARKER.test(value)) throw new Unusual();
    const out = yamlStringify({ k: value }, OPTIONS);
    if (!out.startsWith('k: ') || !out.endsWith('\n')) throw new Unusual();
    lines = out.slice(3, -1).split('\n');
    valueCache.set(value, lines);
  }
  return lines;
}

function keyText(key: string): string {
  // go-yaml reads an implicit key of up to 1024 characters.
  if (YAML11_BREAK.test(key)) {
    if (key.length > 1000) throw new Unusual();
    return doubleQuoted(key);
  }
  // The package writes long keys in the explicit `? key` form; let it decide.
  if (key.length <= 64 && isPlain(key)) return key;
  let text = keyCache.get(key);
  if (text === undefined) {
    // How the package writes these depends on the depth: leave the document to it.
    if (DOCUMENT_MARKER.test(key)) throw new Unusual();
    const out = yamlStringify({ [key]: 0 }, OPTIONS);
    if (!out.endsWith(': 0\n') || out.startsWith('? ') || out.indexOf('\n') !== out.length - 1) throw new Unusual();
    text = out.slice(0, -4);
    keyCache.set(key, text);
  }
  return text;
}

function scalarText(value: unknown): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new Unusual();
      return Object.is(value, -0) ? '-0' : JSON.stringify(value);
    default:
      return undefined;
  }
}

/**
 * Appends `value` as the value after `lead` (`key:` or `-`, already indented); `indent` is the
 * indentation of that key or dash.
 */
function writeValue(out: string[], lead: string, value: unknown, indent: string): void {
  const scalar = scalarText(value);
  if (scalar !== undefined) {
    out.push(`${lead} ${scalar}`);
    return;
  }
  if (typeof value === 'string') {
    if (YAML11_BREAK.test(value)) {
      out.push(`${lead} ${doubleQuoted(value)}`);
      return;
    }
    if (isPlain(value)) {
      out.push(`${lead} ${value}`);
      return;
    }
    const [first, ...rest] = quotedValue(value);
    out.push(`${lead} ${first}`);
    for (const line of rest) out.push(line === '' ? '' : indent + line);
    return;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.push(`${lead} []`);
      return;
    }
    out.push(lead);
    writeSeq(out, value, indent + '  ');
    return;
  }
  if (typeof value === 'object') {
    const entries = definedEntries(value as Record<string, unknown>);
    if (entries.length === 0) {
      out.push(`${lead} {}`);
      return;
    }
    out.push(lead);
    writeMap(out, entries, indent + '  ', '');
    return;
  }
  throw new Unusual();
}

function definedEntries(value: Record<string, unknown>): [string, unknown][] {
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) throw new Unusual();
  return Object.entries(value).filter(([, v]) => v !== undefined);
}

function hasEntries(value: Record<string, unknown>): boolean {
  for (const key in value) if (value[key] !== undefined) return true;
  return false;
}

/** A map at `indent`; its first line starts with `first` instead of the indent (`- ` in a sequence). */
function writeMap(out: string[], entries: [string, unknown][], indent: string, first: string): void {
  entries.forEach(([key, value], i) => {
    const lead = `${i === 0 && first ? first : indent}${keyText(key)}:`;
    writeValue(out, lead, value, indent);
  });
}

function writeSeq(out: string[], items: unknown[], indent: string): void {
  for (const item of items) {
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') throw new Unusual();
    if (Array.isArray(item) && item.length > 0) {
      // `- - a` then the rest of the inner sequence under it.
      const inner: string[] = [];
      writeSeq(inner, item, indent + '  ');
      out.push(`${indent}- ${inner[0]!.slice(indent.length + 2)}`, ...inner.slice(1));
    } else if (item && typeof item === 'object' && !Array.isArray(item) && hasEntries(item as Record<string, unknown>)) {
      writeMap(out, definedEntries(item as Record<string, unknown>), indent + '  ', `${indent}- `);
    } else {
      writeValue(out, `${indent}-`, item, indent);
    }
  }
}

/** `yaml`'s `stringify(value, { lineWidth: 0, version: '1.1' })`, for a map or sequence of JSON data. */
export function stringifyYaml(value: unknown): string {
  try {
    const out: string[] = [];
    if (Array.isArray(value) && value.length > 0) writeSeq(out, value, '');
    else if (value && typeof value === 'object' && !Array.isArray(value) && definedEntries(value as Record<string, unknown>).length > 0) {
      writeMap(out, definedEntries(value as Record<string, unknown>), '', '');
    } else throw new Unusual();
    return out.join('\n') + '\n';
  } catch (err) {
    if (!(err instanceof Unusual)) throw err;
    return packageStringify(value);
  }
}

/**
 * The package's rendering, with every string holding a YAML 1.1 break (see YAML11_BREAK) put in
 * as a plain placeholder and replaced by its double-quoted form afterwards.
 */
function packageStringify(value: unknown): string {
  const quoted = new Map<string, string>();
  const nonce = Math.random().toString(36).slice(2);
  const hide = (s: string): string => {
    if (!YAML11_BREAK.test(s)) return s;
    const token = `kgen-yaml-break-${nonce}-${quoted.size}`;
    quoted.set(token, doubleQuoted(s));
    return token;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return hide(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, e]) => [hide(k), walk(e)]));
    return v;
  };
  const text = yamlStringify(walk(value), OPTIONS);
  return quoted.size === 0 ? text : text.replace(new RegExp(`kgen-yaml-break-${nonce}-\\d+`, 'g'), (t) => quoted.get(t) ?? t);
}

/**
 * Duplicate keys in request bodies, which JSON.parse and YAML-to-JS conversion silently collapse
 * (the last one wins, as in Go). kube's strict decoding reports them: `duplicate field "x"` for
 * JSON, named by its path from the root as sigs.k8s.io/json's strict field stack names it
 * (`spec.replicas`, `spec.ports[0].port`), and `line N: key "x" already set in map` for YAML. Used only on request bodies, and only when
 * the fieldValidation directive asks for it.
 */
import type { Document, LineCounter, ScalarTag, Tags } from 'yaml';
import { yaml } from '../api/yaml.js';

export interface DuplicateField {
  key: string;
  /** JSON: the key's path from the root (`spec.ports[0].port`); YAML: the key. */
  path: string;
  /** 1-based line of the repeated key. */
  line: number;
  /** Nesting depth of the object holding it: 1 for the top-level object (or array). */
  depth: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;

interface Frame {
  object: boolean;
  /**
   * Where an object's keys start in the scan's key list (KeyList): every open object's keys, in
   * nesting order, so an object's keys end where its innermost open child's begin. A Set once
   * the object has more than a few.
   */
  start: number;
  keySet: Set<string> | undefined;
  expectKey: boolean;
  /** An object's current key. */
  current?: string;
  /** A list's current index. */
  index: number;
}

/**
 * The path of `key` in the innermost frame: sigs.k8s.io/json's strict field stack, keys joined by
 * `.` and list indexes as `[i]` (newFieldError). Built only for a repeated key.
 */
function pathOf(stack: readonly Frame[], key: string): string {
  let path = '';
  for (let j = 0; j < stack.length - 1; j++) {
    const frame = stack[j]!;
    path = frame.object ? (path === '' ? frame.current! : `${path}.${frame.current!}`) : `${path}[${frame.index}]`;
  }
  return path === '' ? key : `${path}.${key}`;
}

/** The keys of the open objects of one scan (Frame.start): one list per scan, not a Set per object. */
interface KeyList {
  keys: string[];
  top: number;
}

/** Whether frame's object (the innermost open one) already had key; records it if not. */
function repeats(list: KeyList, frame: Frame, key: string): boolean {
  const set = frame.keySet;
  if (set !== undefined) {
    if (set.has(key)) return true;
    set.add(key);
    return false;
  }
  const { keys, top } = list;
  for (let j = frame.start; j < top; j++) if (keys[j] === key) return true;
  keys[list.top++] = key;
  if (list.top - frame.start > 8) frame.keySet = new Set(keys.slice(frame.start, list.top));
  return false;
}

/** The end index (of the closing quote) of the string starting at i. */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = text.indexOf('"', j);
    if (q < 0) return text.length;
    let backslashes = 0;
    for (let k = q - 1; k > i && text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return q;
    j = q + 1;
  }
}

function decodeKey(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end);
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(text.slice(start, end + 1)) as string;
  } catch {
    return raw;
  }
}

/**
 * Every repeated key of every object in a JSON text, in document order. The text is not
 * validated here (JSON.parse does that); a malformed text yields whatever was seen.
 */
export function findDuplicateJSONKeys(text: string): DuplicateField[] {
  const out: DuplicateField[] = [];
  const stack: Frame[] = [];
  const list: KeyList = { keys: [], top: 0 };
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    switch (c) {
      case NEWLINE:
        line++;
        break;
      case QUOTE: {
        const end = stringEnd(text, i);
        const top = stack[stack.length - 1];
        if (top?.object && top.expectKey) {
          const key = decodeKey(text, i, end);
          if (repeats(list, top, key)) out.push({ key, path: pathOf(stack, key), line, depth: stack.length });
          top.current = key;
          top.expectKey = false;
        }
        i = end;
        break;
      }
      case 0x7b: // {
        stack.push({ object: true, start: list.top, keySet: undefined, expectKey: true, current: undefined, index: 0 });
        break;
      case 0x5b: // [
        stack.push({ object: false, start: list.top, keySet: undefined, expectKey: false, current: undefined, index: 0 });
        break;
      case 0x7d: // }
      case 0x5d: {
        // ] (or }): a closed object's keys are done with: the next object's overwrite them.
        const closed = stack.pop();
        if (closed !== undefined) list.top = closed.start;
        break;
      }
      case 0x2c: {
        // ,
        const top = stack[stack.length - 1];
        if (top?.object) top.expectKey = true;
        else if (top !== undefined) top.index++;
        break;
      }
      default:
        break;
    }
  }
  return out;
}

/** Repeated keys in the maps of parsed YAML documents (parsed with uniqueKeys: false). */
export function findDuplicateYAMLKeys(docs: readonly Document[], lines: LineCounter): DuplicateField[] {
  const out: DuplicateField[] = [];
  for (const doc of docs) {
    yaml().visit(doc, {
      Map(_key, map, path) {
        const seen = new Set<string>();
        for (const pair of map.items) {
          const k = pair.key;
          const key = yaml().isScalar(k) ? String(k.value) : String(k);
          if (seen.has(key)) {
            const offset = yaml().isScalar(k) && k.range ? k.range[0] : 0;
            out.push({ key, path: key, line: lines.linePos(offset).line, depth: path.filter((p) => yaml().isMap(p)).length + 1 });
          } else {
            seen.add(key);
          }
        }
      },
    });
  }
  return out;
}

/**
 * Parses YAML documents keeping line information, without rejecting duplicate keys. YAML 1.1's
 * explicit tags !!set, !!omap, !!pairs and !!timestamp stay plain scalars, maps and sequences
 * (resolveKnownTags: false): resolved, they became a Set, Map or Date, which are no JSON (a Set
 * or Map was stored as {}). !!binary is decoded to its text as goyaml.v2 does (GO_BINARY).
 *
 * Plain scalars resolve as kube's YAML reader resolves them (sigs.k8s.io/yaml's goyaml.v2,
 * resolve.go: YAML 1.1): `017` is 15, `1_000` 1000, `0b101` 5, `<<` merges (yamlV2Tags), but
 * `yes`, `on` and `y` stay strings (CORE_BOOL).
 */
export function parseYAMLDocuments(text: string): { docs: Document[]; lines: LineCounter } {
  const lines = new (yaml().LineCounter)();
  const docs = yaml().parseAllDocuments(text, { version: '1.1', customTags: yamlV2Tags, uniqueKeys: false, lineCounter: lines, resolveKnownTags: false });
  return { docs: Array.isArray(docs) ? docs : [], lines };
}

/**
 * The yaml package's YAML 1.1 tags made goyaml.v2's: base 60 (`1:30`) and timestamps stay
 * strings (v2 does not read base 60, and keeps a timestamp's text in an interface{}), and an
 * integer may be written as Go's strconv.ParseInt(s, 0, 64) reads it once `_` is removed, which
 * also takes `0o17`, `0O17`, `0X1F` and `0B101` (the package's 1.1 tags take lower-case `0x`
 * and `0b` only, and no `0o`).
 */
function yamlV2Tags(tags: Tags): Tags {
  const kept = tags.filter((tag) => typeof tag === 'string' || (tag.format !== 'TIME' && !DROPPED_1_1_TAGS.has(tag.tag)));
  return [PLAIN_STRING, CORE_BOOL, GO_BINARY, ...kept, goPrefixedInt('OCT', /^[-+]?0[oO][0-7_]+$/, 8), goPrefixedInt('HEX', /^[-+]?0X[0-9a-fA-F_]+$/, 16), goPrefixedInt('BIN', /^[-+]?0B[01_]+$/, 2)];
}

/**
 * A plain scalar whose first character starts no null, boolean, number or merge key (`nginx`,
 * `RollingUpdate`): a string, found with one test where the package would try every tag's
 * (YAML 1.1 has twice as many as 1.2's core schema: ~13 µs more per 600 B Deployment).
 */
const PLAIN_STRING: ScalarTag = {
  identify: () => false,
  default: true,
  tag: 'tag:yaml.org,2002:str',
  test: /^[^-+.0-9~nNtTfF<]/,
  resolve: (source: string) => source,
};

/**
 * The 1.1 tags left out: booleans (CORE_BOOL instead), timestamps, binary (GO_BINARY instead),
 * and the explicit-only !!set, !!omap and !!pairs, which stay the plain maps and lists they are
 * written as (see parseYAMLDocuments).
 */
const DROPPED_1_1_TAGS = new Set(['bool', 'timestamp', 'binary', 'set', 'omap', 'pairs'].map((name) => `tag:yaml.org,2002:${name}`));

/**
 * YAML 1.2's booleans, kept where goyaml.v2 also reads `y`, `yes`, `on` (and `n`, `no`, `off`)
 * as booleans: kgen reads those as strings, as it always has (a label value `on` stays a string;
 * in kube it is a bool, which a string field refuses).
 */
const CORE_BOOL: ScalarTag = {
  identify: (value) => typeof value === 'boolean',
  default: true,
  tag: 'tag:yaml.org,2002:bool',
  test: /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/,
  resolve: (source: string) => source[0] === 't' || source[0] === 'T',
};

/**
 * An explicit `!!binary` scalar as goyaml.v2 decodes it (decode.go, scalar): its text read by Go's
 * base64.StdEncoding.DecodeString (padding required, line breaks ignored), the bytes kept as a Go
 * string, which the JSON that kube then decodes carries as text (invalid UTF-8 as U+FFFD). So
 * `!!binary aGVsbG8=` is the string `hello` wherever it stands: a ConfigMap stores `hello`, and a
 * Secret's `data` (a []byte, itself base64 in JSON) refuses it as Go's decoder refuses `hello`.
 * Text that is no base64 fails the document with v2's message.
 */
const GO_BINARY: ScalarTag = {
  identify: () => false,
  default: false,
  tag: 'tag:yaml.org,2002:binary',
  resolve(source: string, onError: (message: string) => void): string {
    const text = source.replace(/[\r\n]/g, '');
    if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) {
      onError('!!binary value contains invalid base64 data');
      return source;
    }
    return Buffer.from(text, 'base64').toString('utf8');
  },
};

/** An integer `<sign>0<letter><digits>` (with `_`) in one of the Go forms the 1.1 tags lack. */
function goPrefixedInt(format: string, test: RegExp, radix: number): ScalarTag {
  return {
    identify: () => false,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format,
    test,
    resolve(source: string): number {
      const text = source.replace(/_/g, '');
      const negative = text[0] === '-';
      const digits = text.replace(/^[-+]?0./, '');
      const n = parseInt(digits, radix);
      return negative ? -n : n;
    },
  };
}

export function jsonDuplicateMessage(d: DuplicateField): string {
  return `duplicate field ${JSON.stringify(d.path)}`;
}

export function yamlDuplicateMessage(d: DuplicateField): string {
  return `line ${d.line}: key ${JSON.stringify(d.key)} already set in map`;
}

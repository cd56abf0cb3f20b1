/**
 * cel-go ext.Strings' `<string>.format(<list>)` (strings version 2, in kube's CEL environment from
 * 1.29; kube 1.33 builds cel-go v0.23.2, ext/formatting.go), ported clause for clause: `%s` `%d`
 * `%f` `%e` `%b` `%x` `%X` `%o`, a precision (`%.3f`) and `%%`, with the same output and the same
 * error texts. The locale is cel-go's default, en_US, which kube does not change (go-float-format.ts
 * prints what golang.org/x/text does for it). The format-string parser is shared with the
 * compile-time check of literal format calls (cel-literals.ts), as cel-go shares it.
 *
 * One deliberate difference: a precision above 1000 is refused (the text newer cel-go gives);
 * cel-go v0.23 allocates whatever it is asked for ("%.100000000e" pads 100 MB of spaces).
 */
import { KubeLibraryError } from './cel-errors.js';
import { CelFormat } from './cel-format.js';
import { CelCIDR, CelIP } from './cel-ip.js';
import { CelQuantity } from './cel-quantity.js';
import { CelSemver } from './cel-semver.js';
import { CelURL } from './cel-url.js';
import { goFixed, goShortestFixed, textFixed, textScientific } from './go-float-format.js';
import { goFloat, goQuote } from './gofmt.js';

/** cel-go's formatError: a message, and the argument (an AST node, for the checker) it is about. */
export class FormatError extends KubeLibraryError {
  constructor(
    message: string,
    readonly at?: unknown,
  ) {
    super(message);
  }
}

/** cel-go's formatStringInterpolator: one function per clause, over values V (runtime values or AST nodes). */
export interface FormatClauses<V> {
  string(v: V): string;
  decimal(v: V): string;
  fixed(precision: number | undefined): (v: V) => string;
  scientific(precision: number | undefined): (v: V) => string;
  binary(v: V): string;
  hex(upper: boolean): (v: V) => string;
  octal(v: V): string;
}

/** cel-go's formatListArgs. */
export interface FormatArgs<V> {
  arg(index: number): V;
  size(): number;
}

const MAX_PRECISION = 1000;
const MAX_INT64 = (1n << 63n) - 1n;

/** parseFormatString: the formatted string, or a FormatError with cel-go's message. */
export function parseFormatString<V>(format: string, clauses: FormatClauses<V>, args: FormatArgs<V>): string {
  let out = '';
  let i = 0;
  let argIndex = 0;
  while (i < format.length) {
    const next = format.indexOf('%', i);
    if (next < 0) return out + format.slice(i);
    out += format.slice(i, next);
    i = next;
    if (format[i + 1] === '%') {
      out += '%';
      i += 2;
      continue;
    }
    // cel-go's order: the argument first (its range error wins), then the end of the string.
    const value = args.arg(argIndex);
    if (i + 1 >= format.length) throw new FormatError('unexpected end of string');
    if (argIndex >= args.size()) throw new FormatError(`index ${argIndex} out of range`);
    const [read, text] = formatClause(format.slice(i + 1), value, clauses);
    out += text;
    i += 1 + read;
    argIndex++;
  }
  return out;
}

/** parseAndFormatClause: characters read after the '%', and the value as the clause prints it. */
function formatClause<V>(s: string, value: V, clauses: FormatClauses<V>): [number, string] {
  let read: number;
  let clause: (v: V) => string;
  try {
    [read, clause] = parseClause(s, clauses);
  } catch (err) {
    throw wrap('could not parse formatting clause', err);
  }
  try {
    return [read, clause(value)];
  } catch (err) {
    throw wrap('error during formatting', err);
  }
}

function wrap(context: string, err: unknown): FormatError {
  if (err instanceof FormatError) return new FormatError(`${context}: ${err.message}`, err.at);
  throw err;
}

function parseClause<V>(s: string, clauses: FormatClauses<V>): [number, (v: V) => string] {
  let read: number;
  let precision: number | undefined;
  try {
    [read, precision] = parsePrecision(s);
  } catch (err) {
    throw wrap('error while parsing precision', err);
  }
  switch (s[read]) {
    case 's':
      return [read + 1, (v) => clauses.string(v)];
    case 'd':
      return [read + 1, (v) => clauses.decimal(v)];
    case 'f':
      return [read + 1, clauses.fixed(precision)];
    case 'e':
      return [read + 1, clauses.scientific(precision)];
    case 'b':
      return [read + 1, (v) => clauses.binary(v)];
    case 'x':
    case 'X':
      return [read + 1, clauses.hex(s[read] === 'X')];
    case 'o':
      return [read + 1, (v) => clauses.octal(v)];
    default:
      throw new FormatError(`unrecognized formatting clause "${goByteRune(s, read)}"`);
  }
}

/** Go's rune(formatStr[i]): the first UTF-8 byte of the character, read as a code point. */
function goByteRune(s: string, i: number): string {
  const cp = s.codePointAt(i) ?? 0xfffd;
  if (cp < 0x80) return String.fromCodePoint(cp);
  return String.fromCharCode(Buffer.from(String.fromCodePoint(cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp))[0]!);
}

function parsePrecision(s: string): [number, number | undefined] {
  if (s[0] !== '.') return [0, undefined];
  let i = 1;
  for (;;) {
    if (i >= s.length) throw new FormatError('could not find end of precision specifier');
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) break;
    i++;
  }
  const digits = s.slice(1, i);
  const atoi = (why: string) => new FormatError(`error while converting precision to integer: strconv.Atoi: parsing "${digits}": ${why}`);
  if (digits === '') throw atoi('invalid syntax');
  const value = BigInt(digits);
  if (value > MAX_INT64) throw atoi('value out of range');
  if (value > BigInt(MAX_PRECISION)) throw new FormatError(`precision ${value} exceeds maximum allowed precision ${MAX_PRECISION}`);
  return [i, Number(value)];
}

// --- The clauses over runtime values (cel-go's stringFormatter) ---

/** cel-go's type names (ref.Type.TypeName()) of cel-js values, for error messages and dispatch. */
export function celValueTypeName(v: unknown): string {
  switch (typeof v) {
    case 'bigint':
      return 'int';
    case 'number':
      return 'double';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'undefined':
      return 'null_type';
  }
  if (v === null) return 'null_type';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Uint8Array) return 'bytes';
  if (v instanceof Date) return 'google.protobuf.Timestamp';
  if (v instanceof Map) return 'map';
  if (v instanceof CelQuantity) return 'kubernetes.Quantity';
  if (v instanceof CelIP) return 'net.IP';
  if (v instanceof CelCIDR) return 'net.CIDR';
  if (v instanceof CelURL) return 'kubernetes.URL';
  if (v instanceof CelSemver) return 'kubernetes.Semver';
  if (v instanceof CelFormat) return 'kubernetes.NamedFormat';
  const ctor = (v as object).constructor;
  if (ctor === Object || ctor === undefined) return 'map';
  switch (ctor.name) {
    case 'UnsignedInt':
      return 'uint';
    case 'Duration':
      return 'google.protobuf.Duration';
    case 'Type':
      return 'type';
    case 'Optional':
      return 'optional_type';
    default:
      return ctor.name;
  }
}

const uintValue = (v: unknown): bigint => (v as { value: bigint }).value;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Timestamp's string form: RFC 3339 with the fraction's trailing zeros dropped (time.RFC3339Nano), in UTC. */
function timestampString(d: Date): string {
  return d.toISOString().replace(/\.?0+Z$/, 'Z').replace(/\.Z$/, 'Z');
}

/** Duration's string form: its seconds as the shortest decimal, then "s" (7200s, 0.000000002s). */
function durationString(d: { seconds: bigint; nanos: number }): string {
  const total = d.seconds * 1_000_000_000n + BigInt(d.nanos);
  const seconds = Number(total / 1_000_000_000n) + Number(total % 1_000_000_000n) / 1e9;
  return `${goShortestFixed(seconds)}s`;
}

function typeValueName(t: { name: string }): string {
  return t.name === 'null' ? 'null_type' : t.name;
}

const stringClauseError = (type: string, at?: unknown) =>
  new FormatError(`string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given ${type}`, at);
const decimalClauseError = (type: string, at?: unknown) => new FormatError(`decimal clause can only be used on integers, was given ${type}`, at);
const fixedClauseError = (type: string, at?: unknown) => new FormatError(`fixed-point clause can only be used on doubles, was given ${type}`, at);
const scientificClauseError = (type: string, at?: unknown) => new FormatError(`scientific clause can only be used on doubles, was given ${type}`, at);
const binaryClauseError = (type: string, at?: unknown) => new FormatError(`only integers and bools can be formatted as binary, was given ${type}`, at);
const hexClauseError = (type: string, at?: unknown) => new FormatError(`only integers, byte buffers, and strings can be formatted as hex, was given ${type}`, at);
const octalClauseError = (type: string, at?: unknown) => new FormatError(`octal clause can only be used on integers, was given ${type}`, at);

export const CLAUSE_ERRORS = { stringClauseError, decimalClauseError, fixedClauseError, scientificClauseError, binaryClauseError, hexClauseError, octalClauseError };

/** FormatString: `%s`. */
function formatString(v: unknown): string {
  const type = celValueTypeName(v);
  switch (type) {
    case 'list':
      return formatList(v as unknown[]);
    case 'map':
      return formatMap(v as Map<unknown, unknown> | Record<string, unknown>);
    case 'int':
    case 'string':
    case 'bool':
      return String(v);
    case 'uint':
      return String(uintValue(v));
    case 'double':
      return goFloat(v as number);
    case 'google.protobuf.Timestamp':
      return timestampString(v as Date);
    case 'google.protobuf.Duration':
      return durationString(v as { seconds: bigint; nanos: number });
    case 'bytes':
      try {
        return utf8.decode(v as Uint8Array);
      } catch {
        throw new FormatError('could not convert argument "invalid UTF-8 in bytes, cannot convert to string" to string');
      }
    case 'type':
      return typeValueName(v as { name: string });
    case 'null_type':
      return 'null';
    default:
      throw stringClauseError(type);
  }
}

/** A list or map member: clauseForType's printing, then quoteForCEL. */
function formatMember(v: unknown): string {
  const type = celValueTypeName(v);
  switch (type) {
    case 'int':
    case 'uint':
      return formatDecimal(v);
    case 'string':
      return goQuote(v as string);
    case 'bytes':
      return `b${goQuote(formatString(v))}`;
    case 'bool':
    case 'null_type':
    case 'type':
      return formatString(v);
    case 'google.protobuf.Timestamp':
      return `timestamp(${goQuote(timestampString(v as Date))})`;
    case 'google.protobuf.Duration':
      return `duration(${goQuote(durationString(v as { seconds: bigint; nanos: number }))})`;
    case 'list':
      return formatList(v as unknown[]);
    case 'map':
      return formatMap(v as Map<unknown, unknown> | Record<string, unknown>);
    case 'double': {
      const text = goFixed(v as number, 6);
      return Number.isFinite(v as number) ? text : goQuote(text);
    }
    default:
      throw new FormatError(`no formatting function for ${type}`);
  }
}

function formatList(list: readonly unknown[]): string {
  return `[${list.map(formatMember).join(', ')}]`;
}

/** Byte order of the UTF-8 forms, as Go compares strings. */
const byUtf8 = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * A schema object's field named with a CEL keyword is visible as `__namespace__` and as `namespace`
 * (cel-value.ts); kube iterates it once, under the escaped name.
 */
function isUnescapedTwin(map: Record<string, unknown>, key: string, value: unknown): boolean {
  const escaped = `__${key}__`;
  return Object.prototype.hasOwnProperty.call(map, escaped) && map[escaped] === value;
}

function formatMap(map: Map<unknown, unknown> | Record<string, unknown>): string {
  const entries = map instanceof Map ? [...map.entries()] : Object.entries(map).filter(([k, v]) => !isUnescapedTwin(map, k, v));
  const pairs = entries.map(([key, value]): [string, string] => {
    const keyType = celValueTypeName(key);
    let keyText: string;
    if (keyType === 'string') keyText = goQuote(key as string);
    else if (keyType === 'bool') keyText = String(key);
    else if (keyType === 'int' || keyType === 'uint') keyText = formatDecimal(key);
    else throw new FormatError(`no formatting function for map key of type ${keyType}`);
    return [keyText, formatMember(value)];
  });
  pairs.sort((a, b) => byUtf8(a[0], b[0]));
  return `{${pairs.map(([k, v]) => `${k}:${v}`).join(', ')}}`;
}

function formatDecimal(v: unknown): string {
  const type = celValueTypeName(v);
  if (type === 'int') return String(v);
  if (type === 'uint') return String(uintValue(v));
  throw decimalClauseError(type);
}

/** A double, or the strings "NaN", "Infinity" and "-Infinity", which %f and %e accept as doubles. */
function floatArgument(v: unknown, error: (type: string) => FormatError): number {
  if (typeof v === 'number') return v;
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  throw error(celValueTypeName(v));
}

function integerInBase(v: unknown, base: number, upper = false): string | undefined {
  const type = celValueTypeName(v);
  if (type !== 'int' && type !== 'uint') return undefined;
  const n = type === 'int' ? (v as bigint) : uintValue(v);
  const text = (n < 0n ? '-' : '') + (n < 0n ? -n : n).toString(base);
  return upper ? text.toUpperCase() : text;
}

/** cel-go's stringFormatter, the en_US locale. */
const RUNTIME_CLAUSES: FormatClauses<unknown> = {
  string: formatString,
  decimal: formatDecimal,
  fixed: (precision) => (v) => textFixed(floatArgument(v, fixedClauseError), precision ?? 6),
  // cel-go writes "%<precision>e": the precision becomes the width ("%0e" has none).
  scientific: (precision) => (v) => textScientific(floatArgument(v, scientificClauseError), precision ?? 6),
  binary: (v) => {
    if (typeof v === 'boolean') return v ? '1' : '0';
    const text = integerInBase(v, 2);
    if (text === undefined) throw binaryClauseError(celValueTypeName(v));
    return text;
  },
  hex: (upper) => (v) => {
    const type = celValueTypeName(v);
    let text: string | undefined;
    if (type === 'string') text = Buffer.from(v as string).toString('hex');
    else if (type === 'bytes') text = Buffer.from(v as Uint8Array).toString('hex');
    else text = integerInBase(v, 16);
    if (text === undefined) throw hexClauseError(type);
    return upper ? text.toUpperCase() : text;
  },
  octal: (v) => {
    const text = integerInBase(v, 8);
    if (text === undefined) throw octalClauseError(celValueTypeName(v));
    return text;
  },
};

/** `format.format(args)` as cel-go evaluates it; errors are FormatErrors with cel-go's text. */
export function stringFormat(format: string, args: readonly unknown[]): string {
  return parseFormatString(format, RUNTIME_CLAUSES, {
    arg: (index) => {
      if (index >= args.length) throw new FormatError(`index ${index} out of range`);
      return args[index];
    },
    size: () => args.length,
  });
}

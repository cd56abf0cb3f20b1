/**
 * kube's CEL Quantity library (k8s.io/apiserver/pkg/cel/library/quantity.go, in CRD rules since
 * 1.28): quantity(), isQuantity() and the Quantity methods, over an exact port of apimachinery's
 * resource.ParseQuantity and of the Quantity arithmetic the library calls (Add, Sub, Cmp, Sign,
 * AsInt64, AsApproximateFloat64).
 *
 * Exactness matters: quantity("200M") == quantity("0.2G"), and isInteger()/asInteger() answer as
 * apimachinery does, which depends on how the value is held. apimachinery keeps a quantity either
 * as an int64 amount (value × 10^scale, the fast path of ParseQuantity and of Add) or as an
 * arbitrary-precision decimal (inf.Dec); AsInt64 succeeds only for the int64 form with a scale
 * ≥ 0 that fits. So `quantity("1000m").isInteger()` is false in kube, and so it is here.
 *
 * Also Quantity's canonical text (quantityString: String/MarshalJSON over CanonicalizeBytes),
 * which kube writes for every Quantity of a built-in kind: `0.5` is `500m`, `1.5Gi` is `1536Mi`.
 */

import { KubeLibraryError } from './cel-errors.js';

/** apimachinery's Quantity.Format: how the canonical text is written. */
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/**
 * value = n × 10^e; `dec` is apimachinery's inf.Dec form (AsInt64 fails on it). `format` and `s`
 * are ParseQuantity's (arithmetic results keep the defaults): `s` is the text parsed when
 * ParseQuantity found it canonical already (Quantity.s, which String and MarshalJSON then return).
 */
export class CelQuantity {
  constructor(
    readonly n: bigint,
    readonly e: number,
    readonly dec: boolean,
    readonly format: QuantityFormat = 'DecimalSI',
    readonly s?: string,
  ) {}
}

/** apimachinery's error texts (resource/quantity.go). */
const SPLIT_RE_STRING = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
export const ERR_FORMAT_WRONG = `quantities must match the regular expression '${SPLIT_RE_STRING}'`;
export const ERR_NUMERIC = 'unable to parse numeric part of quantity';
export const ERR_SUFFIX = "unable to parse quantity's suffix";

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);
const fitsInt64 = (v: bigint): boolean => v >= INT64_MIN && v <= INT64_MAX;

/**
 * Digits a parsed value may hold or grow to (its significant digits, its exponent and the nano
 * rounding). apimachinery has no bound (an exponent such as 1e2000000000 makes inf.Dec allocate
 * ~1 GB, and a 3 MB string of digits is read); here such a quantity is refused with ERR_NUMERIC
 * instead of stopping the server. Leading zeros, and a fraction's trailing zeros, do not count.
 */
const MAX_DIGITS = 10_000;

const DECIMAL_SUFFIXES: Record<string, number> = { '': 0, n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

interface Split {
  positive: boolean;
  value: string;
  num: string;
  denom: string;
  suffix: string;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** parseQuantityString, statement for statement. */
function splitQuantity(str: string): Split {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (str[0] === '-') {
    positive = false;
    pos++;
  } else if (str[0] === '+') pos++;
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
  let i = pos;
  while (i < end && isDigit(str[i])) i++;
  if (i >= end) return { positive, value: str, num: str.slice(pos), denom: '', suffix: '' };
  const num = str.slice(pos, i) || '0';
  pos = i;
  let denom = '';
  if (str[pos] === '.') {
    pos++;
    let j = pos;
    while (j < end && isDigit(str[j])) j++;
    if (j >= end) return { positive, value: str, num, denom: str.slice(pos), suffix: '' };
    denom = str.slice(pos, j);
    pos = j;
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  let k = pos;
  while (k < end && 'eEinumkKMGTP'.includes(str[k]!)) k++;
  if (k >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart) };
  pos = k;
  if (str[pos] === '-' || str[pos] === '+') pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart) };
  throw new KubeLibraryError(ERR_FORMAT_WRONG);
}

/** suffixHandler.interpret: base, exponent, and the format (BinarySI for a binary suffix). */
function interpretSuffix(suffix: string): { base: 2 | 10; exponent: number; binary: boolean; format: QuantityFormat } {
  if (suffix in DECIMAL_SUFFIXES) return { base: 10, exponent: DECIMAL_SUFFIXES[suffix]!, binary: false, format: 'DecimalSI' };
  if (suffix in BINARY_SUFFIXES) return { base: 2, exponent: BINARY_SUFFIXES[suffix]!, binary: true, format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E')) {
    const digits = suffix.slice(1);
    // strconv.ParseInt(s, 10, 64): an optional sign, then decimal digits, within int64.
    if (/^[+-]?[0-9]+$/.test(digits)) {
      const parsed = BigInt(digits);
      if (fitsInt64(parsed)) return { base: 10, exponent: Number(BigInt.asIntN(32, parsed)), binary: false, format: 'DecimalExponent' };
    }
  }
  throw new KubeLibraryError(ERR_SUFFIX);
}

const pow10 = (k: number): bigint => 10n ** BigInt(k);

/** text without its leading zeros (a loop: a regular expression such as /^0+/ is fine, /0+$/ is quadratic). */
function stripLeadingZeros(text: string): string {
  let i = 0;
  while (i < text.length && text.charCodeAt(i) === 48) i++;
  return i === 0 ? text : text.slice(i);
}

/** The length of text without its trailing zeros. */
function significantLength(text: string): number {
  let i = text.length;
  while (i > 0 && text.charCodeAt(i - 1) === 48) i--;
  return i;
}

/** resource.ParseQuantity; throws apimachinery's error text. */
export function parseQuantity(str: string): CelQuantity {
  if (str.length === 0) throw new KubeLibraryError(ERR_FORMAT_WRONG);
  if (str === '0') return new CelQuantity(0n, 0, false, 'DecimalSI', str);
  const { positive, value, num, denom, suffix } = splitQuantity(str);
  const interpreted = interpretSuffix(suffix);
  const { base, exponent, binary } = interpreted;
  let format = interpreted.format;

  // The int64 fast path.
  let precision: number;
  let scale = 0;
  let mantissa = 1n;
  if (!binary) {
    scale = exponent;
    precision = 18 - (num.length + denom.length);
  } else if (exponent >= 0 && denom.length === 0) {
    mantissa = 1n << BigInt(exponent);
    precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
  } else {
    precision = -1;
  }
  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= -9) {
      const digits = num + denom;
      const shifted = BigInt(digits);
      if (!fitsInt64(shifted)) throw new KubeLibraryError(ERR_NUMERIC);
      const result = shifted * mantissa;
      if (fitsInt64(result)) {
        // The text is kept as the canonical one when it is already.
        const canonical = binary ? exponent % 10 === 0 && (shifted & 7n) !== 0n : scale % 3 === 0 && !digits.endsWith('000') && digits[0] !== '0';
        return new CelQuantity(positive ? result : -result, scale, false, format, canonical ? str : undefined);
      }
    }
  }

  // inf.Dec: SetString(value), the suffix applied, rounded up to nano, BinarySI capped at MaxInt64.
  const m = /^[+-]?([0-9]*)(?:\.([0-9]*))?$/.exec(value);
  if (!m || (m[1] ?? '') + (m[2] ?? '') === '') throw new KubeLibraryError(ERR_NUMERIC);
  // The same value with the integer part's leading zeros and the fraction's trailing zeros left
  // out, so that BigInt (whose parse is not linear in V8) reads at most MAX_DIGITS digits: a 3 MB
  // quantity string cost seconds of CPU. More significant digits than that are refused, as the
  // result's bound below refuses them.
  const int = stripLeadingZeros(m[1] ?? '');
  const fraction = m[2] ?? '';
  const frac = fraction.slice(0, significantLength(fraction));
  if (stripLeadingZeros(int + frac).length > MAX_DIGITS) throw new KubeLibraryError(ERR_NUMERIC);
  let n = BigInt(int + frac || '0');
  // A zero keeps the scale all its fraction digits give it, as inf.Dec does (it is not rounded to
  // nano below): AsApproximateFloat64 (0 × 10^scale, NaN past 10^308) and Add/Sub's result scale read it.
  let e = n === 0n ? -fraction.length : -frac.length;
  if (base === 10) e += exponent;
  else n *= 1n << BigInt(exponent);
  if (n !== 0n) {
    if (e > -9) {
      if (e + 9 + n.toString().length > MAX_DIGITS) throw new KubeLibraryError(ERR_NUMERIC);
      n *= pow10(e + 9);
    } else if (e < -9) {
      const drop = -9 - e;
      if (drop > n.toString().length) n = 1n;
      else {
        const d = pow10(drop);
        n = n / d + (n % d === 0n ? 0n : 1n);
      }
    }
    e = -9;
  }
  if (binary && n !== 0n && n > INT64_MAX * 10n ** 9n) {
    n = INT64_MAX;
    e = 0;
  }
  // Between 0 and 1 a binary quantity is written as a decimal one.
  if (format === 'BinarySI' && n !== 0n && e < 0 && n < pow10(-e)) format = 'DecimalSI';
  return new CelQuantity(positive ? n : -n, e, true, format);
}

/** positiveScaleInt64: base × 10^scale, or undefined when it overflows int64. */
function positiveScaleInt64(base: bigint, scale: number): bigint | undefined {
  if (base === 0n) return 0n;
  if (scale > 18) return undefined;
  const v = base * pow10(scale);
  return fitsInt64(v) ? v : undefined;
}

/** int64Amount.Add; undefined when it overflows (the caller falls back to the decimal form). */
function addInt64(a: CelQuantity, b: CelQuantity): CelQuantity | undefined {
  if (b.n === 0n) return a;
  if (a.n === 0n) return new CelQuantity(b.n, b.e, false);
  let sum: bigint;
  let e: number;
  if (a.e === b.e) {
    sum = a.n + b.n;
    e = a.e;
  } else if (a.e > b.e) {
    const c = positiveScaleInt64(a.n, a.e - b.e);
    if (c === undefined) return undefined;
    sum = c + b.n;
    e = b.e;
  } else {
    const c = positiveScaleInt64(b.n, b.e - a.e);
    if (c === undefined) return undefined;
    sum = a.n + c;
    e = a.e;
  }
  return fitsInt64(sum) ? new CelQuantity(sum, e, false) : undefined;
}

/**
 * Both values over the smaller exponent, for add and sub. apimachinery (inf.Dec) would expand a
 * value such as 1e2000000000 into two billion digits; here that is an evaluation error.
 */
function aligned(a: CelQuantity, b: CelQuantity): [bigint, bigint, number] {
  const e = Math.min(a.e, b.e);
  if ((a.n !== 0n && a.e - e > MAX_DIGITS) || (b.n !== 0n && b.e - e > MAX_DIGITS)) throw new KubeLibraryError('quantity too large to compute');
  return [a.n * pow10(a.e - e), b.n * pow10(b.e - e), e];
}

/** Quantity.Add (on a copy: the receiver is not changed). */
export function quantityAdd(a: CelQuantity, b: CelQuantity): CelQuantity {
  if (!a.dec && !b.dec) {
    const sum = addInt64(a, b);
    if (sum) return sum;
  }
  const [x, y, e] = aligned(a, b);
  return new CelQuantity(x + y, e, true);
}

/** Quantity.Sub: int64Amount.Sub adds the negated value (Go's negation wraps at MinInt64). */
export function quantitySub(a: CelQuantity, b: CelQuantity): CelQuantity {
  if (!a.dec && !b.dec) {
    const diff = addInt64(a, new CelQuantity(BigInt.asIntN(64, -b.n), b.e, false));
    if (diff) return diff;
  }
  const [x, y, e] = aligned(a, b);
  return new CelQuantity(x - y, e, true);
}

/** resource.NewQuantity(i, DecimalExponent). */
export const quantityOfInt = (i: bigint): CelQuantity => new CelQuantity(BigInt.asIntN(64, i), 0, false);

/** Digits of |n| plus the exponent: |value| lies in [10^(m-1), 10^m). */
const magnitude = (q: CelQuantity): number => (q.n < 0n ? -q.n : q.n).toString().length + q.e;

/** Quantity.Cmp, by sign and magnitude first, so that values of far apart exponents are not expanded. */
export function quantityCompare(a: CelQuantity, b: CelQuantity): -1 | 0 | 1 {
  const sa = quantitySign(a);
  const sb = quantitySign(b);
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0n) return 0;
  const ma = magnitude(a);
  const mb = magnitude(b);
  if (ma !== mb) return (ma < mb) === (sa > 0n) ? -1 : 1;
  const e = Math.min(a.e, b.e);
  const x = a.n * pow10(a.e - e);
  const y = b.n * pow10(b.e - e);
  return x < y ? -1 : x > y ? 1 : 0;
}

export const quantitySign = (q: CelQuantity): bigint => (q.n > 0n ? 1n : q.n < 0n ? -1n : 0n);

/** Quantity.AsInt64: only the int64 form with a non-negative scale that fits. */
export function quantityAsInt64(q: CelQuantity): bigint | undefined {
  if (q.dec) return undefined;
  if (q.e === 0) return q.n;
  if (q.e < 0) return undefined;
  return positiveScaleInt64(q.n, q.e);
}

// Go's math.Pow10 tables, so asApproximateFloat rounds as kube's does.
const POW10TAB = Array.from({ length: 32 }, (_, i) => Number(`1e${i}`));
const POW10POSTAB32 = Array.from({ length: 10 }, (_, i) => Number(`1e${i * 32}`));
const POW10NEGTAB32 = Array.from({ length: 11 }, (_, i) => Number(`1e-${i * 32}`));

function goPow10(n: number): number {
  if (n >= 0 && n <= 308) return POW10POSTAB32[Math.floor(n / 32)]! * POW10TAB[n % 32]!;
  if (n >= -323 && n <= 0) return POW10NEGTAB32[Math.floor(-n / 32)]! / POW10TAB[-n % 32]!;
  return n > 0 ? Infinity : 0;
}

/** Quantity.AsApproximateFloat64. */
export function quantityAsApproximateFloat(q: CelQuantity): number {
  const base = Number(q.n);
  return q.e === 0 ? base : base * goPow10(q.e);
}

const DECIMAL_SUFFIX_OF = new Map(Object.entries(DECIMAL_SUFFIXES).map(([suffix, exponent]) => [exponent, suffix]));
const BINARY_SUFFIX_OF = new Map(Object.entries(BINARY_SUFFIXES).map(([suffix, exponent]) => [exponent, suffix]));

/**
 * Quantity.String (and MarshalJSON): the text ParseQuantity kept, else CanonicalizeBytes. A
 * BinarySI value below 1024 in magnitude, or not whole, is written as DecimalSI; a decimal one as
 * the fewest digits whose exponent is a multiple of 3, with its SI suffix (none past E, as in
 * apimachinery, whose suffix table stops there) or `e<exponent>`; a binary one in the largest
 * power of 1024 that divides it.
 */
export function quantityString(q: CelQuantity): string {
  if (q.s !== undefined) return q.s;
  if (q.n === 0n) return '0';
  let format = q.format;
  let { n, e } = q;
  const magnitude = n < 0n ? -n : n;
  if (format === 'BinarySI') {
    if (e >= 0 ? magnitude * pow10(e) < 1024n : magnitude < 1024n * pow10(-e)) format = 'DecimalSI';
    else if (e < 0) {
      // AsScale(0): a fraction is not written in base 1024.
      if (n % pow10(-e) !== 0n) format = 'DecimalSI';
      else {
        n /= pow10(-e);
        e = 0;
      }
    }
  }
  if (format === 'BinarySI') {
    let value = n * pow10(e);
    let exponent = 0;
    while (value % 1024n === 0n) {
      value /= 1024n;
      exponent += 10;
    }
    return `${value}${BINARY_SUFFIX_OF.get(exponent) ?? ''}`;
  }
  // AsCanonicalBytes: the factors of 10 into the exponent, then down to a multiple of 3.
  let exponent = e;
  while (n % 10n === 0n) {
    n /= 10n;
    exponent++;
  }
  while (exponent % 3 !== 0) {
    n *= 10n;
    exponent--;
  }
  if (format === 'DecimalExponent') return exponent === 0 ? `${n}` : `${n}e${exponent}`;
  return `${n}${DECIMAL_SUFFIX_OF.get(exponent) ?? ''}`;
}

/**
 * Whether text is its own canonical form, decided without parsing for the common texts (`500m`,
 * `2`, `128Mi`): whole digits without a leading zero and an SI suffix (ParseQuantity keeps such
 * text unless its digits end in `000`, or there are more than 18), or up to 6 digits with Ki…Ti
 * that 1024 does not divide. False says nothing: quantityString(parseQuantity(text)) decides.
 */
export function isCanonicalQuantity(text: string): boolean {
  const first = text.charCodeAt(0);
  if (!(first >= 0x31 && first <= 0x39)) return false;
  let digits = 1;
  while (digits < text.length && isDigitCode(text.charCodeAt(digits))) digits++;
  const rest = text.length - digits;
  if (rest === 0 || (rest === 1 && DECIMAL_SUFFIX_CHARS.includes(text[digits]!))) return digits <= 18 && !(digits >= 3 && text.endsWith('000', digits));
  if (rest === 2 && text[digits + 1] === 'i' && 'KMGT'.includes(text[digits]!) && digits <= 6) return Number(text.slice(0, digits)) % 1024 !== 0;
  return false;
}

const DECIMAL_SUFFIX_CHARS = 'numkMGTPE';
const isDigitCode = (c: number): boolean => c >= 0x30 && c <= 0x39;

/**
 * Go durations, the one implementation: time.ParseDuration (kube's duration flags,
 * `--request-timeout 1m30s`, and the `?timeout=` query parameter) and time.Duration.String (how
 * kube prints them). Go's algorithm and messages exactly: a signed sequence of decimal numbers,
 * each with an optional fraction and a unit (ns, us, µs, μs, ms, s, m, h), `0` alone without a unit;
 * values are int64 nanoseconds, so anything past ±2^63 ns (about 292 years) is an invalid
 * duration. Callers get milliseconds (fractions kept); parseGoDurationNanos gives the exact value.
 */

export class DurationError extends Error {}

const UNIT_NANOS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  'µs': 1_000n, // U+00B5 micro sign
  'μs': 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const TWO_63 = 1n << 63n;
const MAX_INT64 = TWO_63 - 1n;

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/**
 * Go's time.quote: printable ASCII as is (`"` and `\` escaped), everything else as `\xNN` per
 * UTF-8 byte, so `12µs` reads `"12\xc2\xb5s"` in an error, as in Go.
 */
function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (code < 0x20 || code >= 0x80) {
      for (const byte of new TextEncoder().encode(ch)) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    } else {
      out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
    }
  }
  return `${out}"`;
}

/** time.ParseDuration, as int64 nanoseconds; throws DurationError with Go's message. */
export function parseGoDurationNanos(orig: string): bigint {
  const invalid = () => new DurationError(`time: invalid duration ${quote(orig)}`);
  let s = orig;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  // Special case: "0" alone (after the sign) needs no unit.
  if (s === '0') return 0n;
  if (s === '') throw invalid();
  let d = 0n;
  while (s !== '') {
    // The next character must be [0-9.].
    if (!(s[0] === '.' || isDigit(s[0]))) throw invalid();
    // leadingInt: [0-9]*, at most 2^63.
    let i = 0;
    let v = 0n;
    for (; isDigit(s[i]); i++) {
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > TWO_63) throw invalid();
    }
    const pre = i > 0;
    s = s.slice(i);
    // leadingFraction: (\.[0-9]*)?; digits past int64 precision are read and dropped.
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s[0] === '.') {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      for (; isDigit(s[j]); j++) {
        if (overflow) continue;
        if (f > MAX_INT64 / 10n) {
          overflow = true;
          continue;
        }
        const y = f * 10n + BigInt(s.charCodeAt(j) - 48);
        if (y > TWO_63) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = j > 0;
      s = s.slice(j);
    }
    // No digits at all (".s", "-.").
    if (!pre && !post) throw invalid();
    // The unit: everything up to the next '.' or digit.
    let k = 0;
    while (k < s.length && s[k] !== '.' && !isDigit(s[k])) k++;
    if (k === 0) throw new DurationError(`time: missing unit in duration ${quote(orig)}`);
    const u = s.slice(0, k);
    s = s.slice(k);
    const unit = UNIT_NANOS[u];
    if (unit === undefined) throw new DurationError(`time: unknown unit ${quote(u)} in duration ${quote(orig)}`);
    if (v > TWO_63 / unit) throw invalid();
    v *= unit;
    if (f > 0n) {
      // As Go: the fraction in float64 (nanosecond-accurate up to hours), truncated.
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > TWO_63) throw invalid();
    }
    d += v;
    if (d > TWO_63) throw invalid();
  }
  if (neg) return -d;
  if (d > MAX_INT64) throw invalid();
  return d;
}

/** time.ParseDuration in milliseconds (fractions of a millisecond kept). */
export function parseGoDuration(value: string): number {
  const ns = parseGoDurationNanos(value);
  // Split so that whole milliseconds stay exact beyond 2^53 ns.
  return Number(ns / 1_000_000n) + Number(ns % 1_000_000n) / 1e6;
}

/** Go's fmtFrac: the fraction digits of v / 10^prec without trailing zeros, and the integer part. */
function fmtFrac(v: bigint, prec: number): [string, bigint] {
  const scale = 10n ** BigInt(prec);
  const digits = (v % scale).toString().padStart(prec, '0').replace(/0+$/, '');
  return [digits === '' ? '' : `.${digits}`, v / scale];
}

/** time.Duration.String of int64 nanoseconds: `1h2m3.5s`, `1.5s`, `500ms`, `1.5µs`, `0s`. */
export function formatGoDurationNanos(d: bigint): string {
  if (d === 0n) return '0s';
  const neg = d < 0n;
  const u = neg ? -d : d;
  let out: string;
  if (u < 1_000_000_000n) {
    // Sub-second: one unit, with a fraction.
    const [prec, unit] = u < 1_000n ? [0, 'ns'] : u < 1_000_000n ? [3, 'µs'] : [6, 'ms'];
    const [frac, whole] = fmtFrac(u, prec);
    out = `${whole}${frac}${unit}`;
  } else {
    const [frac, secondsTotal] = fmtFrac(u, 9);
    const seconds = secondsTotal % 60n;
    const minutesTotal = secondsTotal / 60n;
    out = `${seconds}${frac}s`;
    if (minutesTotal > 0n) {
      out = `${minutesTotal % 60n}m${out}`;
      const hours = minutesTotal / 60n;
      if (hours > 0n) out = `${hours}h${out}`;
    }
  }
  return neg ? `-${out}` : out;
}

/** time.Duration.String of milliseconds (rounded to the nanosecond). */
export function formatGoDuration(ms: number): string {
  const whole = Math.trunc(ms);
  return formatGoDurationNanos(BigInt(whole) * 1_000_000n + BigInt(Math.round((ms - whole) * 1e6)));
}

/**
 * How Go prints a float64, for ext.Strings' format() (cel-strings-format.ts): strconv's `%.Nf` and
 * shortest `'f'` (gofmt.ts has `%g`), and golang.org/x/text/message's locale-aware `%.Nf` and `%e` in en-US,
 * the locale kube's CEL environment leaves format() with. Rounding is Go's: the exact binary value,
 * half to even (JavaScript's toFixed rounds exact halves up: 0.125 → "0.13" where Go prints
 * "0.12").
 */

/** A positive finite value as 0.d₁d₂… × 10^exp, digits without leading or trailing zeros ('' is 0). */
interface Decimal {
  digits: string;
  exp: number;
}

const view = new DataView(new ArrayBuffer(8));

/** The exact decimal expansion of |x| (x finite): a double is m × 2^e, that is m × 5^-e / 10^-e. */
function exactDecimal(x: number): Decimal {
  view.setFloat64(0, Math.abs(x));
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (biased !== 0) m |= 1n << 52n;
  const e = (biased === 0 ? 1 : biased) - 1075;
  if (m === 0n) return { digits: '', exp: 0 };
  let s: string;
  let exp: number;
  if (e >= 0) {
    s = (m << BigInt(e)).toString();
    exp = s.length;
  } else {
    s = (m * 5n ** BigInt(-e)).toString();
    exp = s.length + e;
  }
  return trim({ digits: s, exp });
}

function trim(d: Decimal): Decimal {
  let digits = d.digits.replace(/0+$/, '');
  let exp = d.exp;
  const lead = digits.length - digits.replace(/^0+/, '').length;
  digits = digits.slice(lead);
  exp -= lead;
  return digits === '' ? { digits: '', exp: 0 } : { digits, exp };
}

/** d rounded to its first `keep` digits, half to even (strconv's decimal.Round). */
function roundDigits(d: Decimal, keep: number): Decimal {
  if (keep >= d.digits.length) return d;
  if (keep < 0) return { digits: '', exp: 0 };
  const next = d.digits.charCodeAt(keep) - 48;
  const exactHalf = next === 5 && d.digits.length === keep + 1;
  const up = next > 5 || (next === 5 && !exactHalf) || (exactHalf && keep > 0 && (d.digits.charCodeAt(keep - 1) - 48) % 2 === 1);
  if (!up) return trim({ digits: d.digits.slice(0, keep), exp: d.exp });
  const kept = d.digits.slice(0, keep);
  if (kept === '' || /^9*$/.test(kept)) return { digits: '1', exp: d.exp + 1 };
  const bumped = (BigInt(kept) + 1n).toString().padStart(keep, '0');
  return trim({ digits: bumped, exp: d.exp });
}

/** The shortest digits that read back as x (JavaScript's and Go's shortest agree). */
function shortestDecimal(x: number): Decimal {
  const [mantissa, e] = Math.abs(x).toExponential().split('e') as [string, string];
  return trim({ digits: mantissa.replace('.', ''), exp: Number(e) + 1 });
}

/** strconv's %f body of d with `prec` fraction digits (no sign). */
function fixedBody(d: Decimal, prec: number): string {
  const int = d.exp > 0 ? d.digits.slice(0, d.exp).padEnd(d.exp, '0') : '0';
  if (prec <= 0) return int;
  let frac = '';
  for (let i = 0; i < prec; i++) {
    const j = d.exp + i;
    frac += j >= 0 && j < d.digits.length ? d.digits[j] : '0';
  }
  return `${int}.${frac}`;
}

const sign = (x: number) => (x < 0 || Object.is(x, -0) ? '-' : '');

/** fmt.Sprintf("%.<prec>f", x): "+Inf", "-Inf", "NaN", and -0 keeps its sign. */
export function goFixed(x: number, prec: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  const d = roundDigits(exactDecimal(x), exactDecimal(x).exp + prec);
  return sign(x) + fixedBody(d, prec);
}

/** strconv.FormatFloat(x, 'f', -1, 64): the shortest digits, never an exponent (durations' seconds). */
export function goShortestFixed(x: number): string {
  if (x === 0) return sign(x) + '0';
  const d = shortestDecimal(x);
  return sign(x) + fixedBody(d, Math.max(d.digits.length - d.exp, 0));
}

/** en-US digit grouping of an integer part (x/text's pattern "#,##0.###"). */
const group = (int: string) => int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * message.NewPrinter(en-US).Sprintf("%.<prec>f", x): grouped ("1,234.568"), "NaN", "∞", "-∞";
 * -0 prints without its sign. x/text keeps the minimum fraction digits in a uint8 (prec 300 pads
 * only to 44 digits; trailing zeros beyond are dropped) and the maximum in an int16.
 */
export function textFixed(x: number, prec: number): string {
  if (Number.isNaN(x)) return 'NaN';
  const neg = x < 0 ? '-' : '';
  if (!Number.isFinite(x)) return `${neg}∞`;
  const minFrac = prec & 0xff;
  const maxFrac = ((prec + 0x8000) & 0xffff) - 0x8000;
  const exact = exactDecimal(x);
  const d = maxFrac >= 0 ? roundDigits(exact, exact.exp + maxFrac) : shortestDecimal(x);
  const end = Math.max(d.digits.length, d.exp + minFrac);
  const int = d.exp > 0 ? group(d.digits.slice(0, d.exp).padEnd(d.exp, '0')) : '0';
  const numFrac = end - d.exp;
  if (numFrac <= 0) return neg + int;
  const frac = d.exp >= 0 ? d.digits.slice(d.exp) : '0'.repeat(-d.exp) + d.digits;
  return `${neg}${int}.${frac.padEnd(numFrac, '0')}`;
}

const SUPERSCRIPT_DIGITS = ['\u2070', '\u00b9', '\u00b2', '\u00b3', '\u2074', '\u2075', '\u2076', '\u2077', '\u2078', '\u2079'];

/**
 * message.NewPrinter(en-US).Sprintf("%<width>e", x), as cel-go calls it for `%e` (it writes the
 * clause's precision as the WIDTH: the precision is always 6): "2.718280 × 10⁰⁰" with narrow
 * no-break spaces and superscript exponent digits, "NaN" and "∞" padded on the left to `width`
 * characters.
 */
export function textScientific(x: number, width: number): string {
  let out: string;
  if (Number.isNaN(x)) out = 'NaN';
  else if (!Number.isFinite(x)) out = `${x < 0 ? '-' : ''}∞`;
  else {
    let d = roundDigits(exactDecimal(x), 7);
    if (d.digits === '') d = { digits: '0', exp: 1 };
    const exp = d.exp - 1;
    const frac = d.digits.slice(1).padEnd(6, '0');
    const expDigits = [...String(Math.abs(exp)).padStart(2, '0')].map((c) => SUPERSCRIPT_DIGITS[Number(c)]).join('');
    out = `${x < 0 ? '-' : ''}${d.digits[0]}.${frac}\u202f\u00d7\u202f10${exp < 0 ? '\u207b' : ''}${expDigits}`;
  }
  const count = [...out].length;
  return count < width ? ' '.repeat(width - count) + out : out;
}

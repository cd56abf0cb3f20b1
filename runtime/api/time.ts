/**
 * metav1.Time and metav1.MicroTime as kube writes them (k8s.io/apimachinery/pkg/apis/meta/v1
 * time.go, micro_time.go): a value is read with Go's time.Parse(time.RFC3339) (a fraction of any
 * length, `.` or `,`, is accepted and kept; `Z` or a `±hh:mm` offset) and written back in UTC,
 * truncated to seconds (`2006-01-02T15:04:05Z`) for Time and to microseconds
 * (`2006-01-02T15:04:05.000000Z`) for MicroTime. The instant Go reads as its zero time
 * (`0001-01-01T00:00:00Z`) is written `null` by kube; here it stays a string.
 */

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:[.,](\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A parsed instant: whole UTC seconds since the epoch and the fraction's digits (as sent). */
interface Instant {
  seconds: number;
  fraction: string;
}

/** Go's time.Parse(time.RFC3339, value), or undefined where Go answers an error. */
function parseRFC3339(value: string): Instant | undefined {
  const m = RFC3339.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number, number];
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  if (month < 1 || month > 12 || day < 1 || day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  let seconds = date.getTime() / 1000;
  if (m[8]) {
    const offsetHours = Number(m[9]);
    const offsetMinutes = Number(m[10]);
    if (offsetHours > 24 || offsetMinutes > 60) return undefined;
    seconds -= (m[8] === '-' ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60);
  }
  return { seconds, fraction: m[7] ?? '' };
}

function formatUTC(seconds: number, fraction: string | undefined): string {
  const date = new Date(seconds * 1000);
  const year = date.getUTCFullYear();
  if (year < 0 || year > 9999) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  const main = `${String(year).padStart(4, '0')}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
  return fraction === undefined ? `${main}Z` : `${main}.${fraction}Z`;
}

/**
 * Whether the text has the shape kube writes (`2006-01-02T15:04:05Z`, with `.000000` before the
 * `Z` for MicroTime): then canonicalTime/canonicalMicroTime would give it back unchanged (or, for
 * text that is no time, undefined), so a caller that keeps unreadable text can skip them. Checks
 * only the separators: what every write of a timestamp kgen or a Go client made costs.
 */
export function hasCanonicalShape(value: string, micro: boolean): boolean {
  const z = micro ? 26 : 19;
  return (
    value.length === z + 1 &&
    value.charCodeAt(z) === 0x5a /* Z */ &&
    value.charCodeAt(10) === 0x54 /* T */ &&
    value.charCodeAt(4) === 0x2d &&
    value.charCodeAt(7) === 0x2d &&
    value.charCodeAt(13) === 0x3a &&
    value.charCodeAt(16) === 0x3a &&
    (!micro || value.charCodeAt(19) === 0x2e)
  );
}

/**
 * A metav1.Time value as kube writes it back: `2024-01-01T02:00:00.5+02:00` → `2024-01-01T00:00:00Z`.
 * undefined when Go's parser refuses the text or the instant falls outside years 0-9999.
 */
export function canonicalTime(value: string): string | undefined {
  const instant = parseRFC3339(value);
  if (!instant) return undefined;
  return formatUTC(instant.seconds, undefined) || undefined;
}

/**
 * A metav1.MicroTime value as kube writes it back: six fraction digits (truncated, or padded with
 * zeros), in UTC. undefined when the text is no RFC 3339 time. kube's reader
 * (time.Parse(RFC3339Micro)) also refuses a fraction of other than six digits, with a 400: the
 * endpoints refuse it so before (goTimeParseError, go-decode.ts); this accepts it and writes six.
 */
export function canonicalMicroTime(value: string): string | undefined {
  const instant = parseRFC3339(value);
  if (!instant) return undefined;
  return formatUTC(instant.seconds, instant.fraction.slice(0, 6).padEnd(6, '0')) || undefined;
}

const TIME_LAYOUT = '2006-01-02T15:04:05Z07:00';
const MICRO_LAYOUT = '2006-01-02T15:04:05.000000Z07:00';
/** The layouts as Go's time.parse walks them: a literal prefix, then a std element. */
const TIME_CHUNKS: readonly (readonly [string, string])[] = [['', '2006'], ['-', '01'], ['-', '02'], ['T', '15'], [':', '04'], [':', '05'], ['', 'Z07:00']];
const MICRO_CHUNKS: readonly (readonly [string, string])[] = [...TIME_CHUNKS.slice(0, 6), ['', '.000000'], ['', 'Z07:00']];

const isDigitAt = (s: string, i: number) => i < s.length && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39;

/** Go's time.getnum: one or (fixed) exactly two leading digits. */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigitAt(s, 0)) return undefined;
  if (!isDigitAt(s, 1)) return fixed ? undefined : [s.charCodeAt(0) - 0x30, s.slice(1)];
  return [(s.charCodeAt(0) - 0x30) * 10 + (s.charCodeAt(1) - 0x30), s.slice(2)];
}

/** Go's time.atoi: an optional sign, then digits only. */
function goAtoi(s: string): number | undefined {
  const m = /^([+-]?)(\d+)$/.exec(s);
  return m ? (m[1] === '-' ? -1 : 1) * Number(m[2]) : undefined;
}

/** The time package's quote: ASCII kept (with `"` and `\` escaped), other bytes as \xNN. */
function timeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c < 0x20 || c >= 0x80) for (const b of Buffer.from(ch, 'utf8')) out += `\\x${b.toString(16).padStart(2, '0')}`;
    else out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
  }
  return out + '"';
}

/**
 * The error Go's time.Parse answers for metav1.Time (layout RFC3339) or metav1.MicroTime
 * (RFC3339Micro, which wants exactly six fraction digits) text, or undefined when Go reads it:
 * `parsing time "2024-01-01T00:00:00.123Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse
 * ".123Z" as ".000000"`, `parsing time "2024-13-01T00:00:00Z": month out of range`. It follows
 * time.parse's walk of the layout element by element (time/format.go).
 */
export function goTimeParseError(value: string, micro: boolean): string | undefined {
  const layout = micro ? MICRO_LAYOUT : TIME_LAYOUT;
  const cannot = (valueElem: string, layoutElem: string) =>
    `parsing time ${timeQuote(value)} as ${timeQuote(layout)}: cannot parse ${timeQuote(valueElem)} as ${timeQuote(layoutElem)}`;
  const outOfRange = (what: string) => `parsing time ${timeQuote(value)}: ${what} out of range`;
  const chunks = micro ? MICRO_CHUNKS : TIME_CHUNKS;
  let v = value;
  let year = 0;
  let month = 0;
  let day = 0;
  for (let i = 0; i < chunks.length; i++) {
    const [prefix, std] = chunks[i]!;
    for (const ch of prefix) {
      if (v.length === 0 || v[0] !== ch) return cannot(v, prefix);
      v = v.slice(1);
    }
    const hold = v;
    let range = '';
    let bad = false;
    const num = (fixed: boolean): number => {
      const got = getnum(v, fixed);
      if (got === undefined) {
        bad = true;
        return 0;
      }
      v = got[1];
      return got[0];
    };
    switch (std) {
      case '2006': {
        const y = v.length < 4 || !isDigitAt(v, 0) ? undefined : goAtoi(v.slice(0, 4));
        if (y === undefined) bad = true;
        else {
          year = y;
          v = v.slice(4);
        }
        break;
      }
      case '01':
        month = num(true);
        if (!bad && (month <= 0 || month > 12)) range = 'month';
        break;
      case '02':
        day = num(true);
        break;
      case '15': {
        const hour = num(false);
        if (hour >= 24) range = 'hour';
        break;
      }
      case '04': {
        const minute = num(true);
        if (!bad && minute >= 60) range = 'minute';
        break;
      }
      case '05': {
        const second = num(true);
        if (bad) break;
        if (second >= 60) {
          range = 'second';
          break;
        }
        // A fraction the layout does not name is read (digits only) and dropped.
        if (!micro && v.length >= 2 && (v[0] === '.' || v[0] === ',') && isDigitAt(v, 1)) {
          let n = 2;
          while (isDigitAt(v, n)) n++;
          v = v.slice(n);
        }
        break;
      }
      case '.000000': {
        if (v.length < 7 || (v[0] !== '.' && v[0] !== ',')) {
          bad = true;
          break;
        }
        const ns = goAtoi(v.slice(1, 7));
        if (ns === undefined) bad = true;
        else if (ns < 0) range = 'fractional second';
        v = v.slice(7);
        break;
      }
      case 'Z07:00': {
        if (v[0] === 'Z') {
          v = v.slice(1);
          break;
        }
        if (v.length < 6 || v[3] !== ':') {
          bad = true;
          break;
        }
        const sign = v[0];
        const hh = getnum(v.slice(1, 3), true);
        const mm = hh === undefined ? undefined : getnum(v.slice(4, 6), true);
        v = v.slice(6);
        if (hh !== undefined && hh[0] > 24) range = 'time zone offset hour';
        if (mm !== undefined && mm[0] > 60) range = 'time zone offset minute';
        if (mm === undefined || (sign !== '+' && sign !== '-')) bad = true;
        break;
      }
    }
    if (range !== '') return outOfRange(range);
    if (bad) return cannot(hold, std);
  }
  if (v.length > 0) return `parsing time ${timeQuote(value)}: extra text: ${timeQuote(v)}`;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  if (day < 1 || day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!)) return outOfRange('day');
  return undefined;
}

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
 * (time.Parse(RFC3339Micro)) also refuses a fraction of other than six digits, with a 400; this
 * accepts it and writes six.
 */
export function canonicalMicroTime(value: string): string | undefined {
  const instant = parseRFC3339(value);
  if (!instant) return undefined;
  return formatUTC(instant.seconds, instant.fraction.slice(0, 6).padEnd(6, '0')) || undefined;
}

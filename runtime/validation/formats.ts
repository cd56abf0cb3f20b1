/**
 * String formats, as kube-openapi's strfmt registry checks them (pkg/validation/strfmt/default.go).
 * Names are normalized like strfmt does ('date-time' == 'datetime'). Formats this engine does not
 * know are dropped at compile time, as apiextensions strips unsupported formats
 * (StripUnsupportedFormatsPostProcess); int32/int64/float/double are kept for range checks only.
 */

export function normalizeFormat(format: string): string {
  return format.replace(/-/g, '').toLowerCase();
}

const RFC3339_FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME_PART = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** strfmt.IsDate: Go's time.Parse("2006-01-02"), which rejects days past the end of the month. */
export function isDate(value: string): boolean {
  const m = RFC3339_FULL_DATE.exec(value);
  if (!m) return false;
  return isValidDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isValidDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!);
}

/** strfmt.IsDateTime: a full date, 't' (any case), then hh:mm:ss[.frac](z|±hh:mm). */
export function isDateTime(value: string): boolean {
  const canonical = canonicalDateTime(value);
  if (canonical !== undefined) return canonical;
  if (value.length < 4) return false;
  const parts = value.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0]!)) return false;
  const m = DATE_TIME_PART.exec(parts[1]!);
  if (!m) return false;
  return m[1]! <= '23' && m[2]! <= '59' && m[3]! <= '59';
}

/** The number written by the n ASCII digits at i, or -1. */
function digitsAt(value: string, i: number, n: number): number {
  let out = 0;
  for (let j = i; j < i + n; j++) {
    const c = value.charCodeAt(j) - 0x30;
    if (c < 0 || c > 9) return -1;
    out = out * 10 + c;
  }
  return out;
}

/**
 * isDateTime of the form every timestamp kgen writes has, `2006-01-02T15:04:05Z` (either case
 * of T and Z), answered without splitting or regular expressions; undefined for any other form.
 */
function canonicalDateTime(value: string): boolean | undefined {
  if (value.length !== 20) return undefined;
  if (value[4] !== '-' || value[7] !== '-' || value[13] !== ':' || value[16] !== ':') return undefined;
  const t = value.charCodeAt(10);
  const z = value.charCodeAt(19);
  if ((t !== 0x54 && t !== 0x74) || (z !== 0x5a && z !== 0x7a)) return undefined;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  const hour = digitsAt(value, 11, 2);
  const minute = digitsAt(value, 14, 2);
  const second = digitsAt(value, 17, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return undefined;
  return isValidDay(year, month, day) && hour <= 23 && minute <= 59 && second <= 59;
}

/** base64.StdEncoding (padded), which Go's decoder requires for format: byte. */
export function isBase64(value: string): boolean {
  return BASE64.test(value.replace(/[\r\n]/g, ''));
}

export function isUUID(value: string): boolean {
  return UUID.test(value);
}

/** Checks of string formats by normalized name. */
export const STRING_FORMATS: ReadonlyMap<string, (value: string) => boolean> = new Map([
  ['datetime', isDateTime],
  ['date', isDate],
  ['byte', isBase64],
  ['uuid', isUUID],
]);

/** Numeric formats: kept so int32 values can be range-checked. */
export const NUMBER_FORMATS: ReadonlySet<string> = new Set(['int32', 'int64', 'float', 'double']);

export const SUPPORTED_FORMATS: ReadonlySet<string> = new Set([...STRING_FORMATS.keys(), ...NUMBER_FORMATS]);

export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;

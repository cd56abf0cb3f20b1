/**
 * Go's time.ParseDuration, for `?timeout=` and the duration flags (`--request-timeout 1m30s`),
 * with Go's error messages. Returns milliseconds (fractions of a millisecond are kept).
 */
const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export class DurationError extends Error {}

export function parseGoDuration(input: string): number {
  const quoted = JSON.stringify(input);
  let s = input;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw new DurationError(`time: invalid duration ${quoted}`);
  let total = 0;
  while (s !== '') {
    const number = /^(\d*)(\.\d*)?/.exec(s)!;
    if (number[0] === '' || number[0] === '.') throw new DurationError(`time: invalid duration ${quoted}`);
    s = s.slice(number[0].length);
    const unit = /^[^\d.]*/.exec(s)![0];
    if (unit === '') throw new DurationError(`time: missing unit in duration ${quoted}`);
    const scale = UNITS[unit];
    if (scale === undefined) throw new DurationError(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`);
    s = s.slice(unit.length);
    total += Number(number[0]) * scale;
  }
  if (!Number.isFinite(total)) throw new DurationError(`time: invalid duration ${quoted}`);
  return sign * total;
}

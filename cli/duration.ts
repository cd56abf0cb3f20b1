/**
 * Go duration strings (time.ParseDuration), as kube's flags take them: `5m`, `30s`, `1h30m`,
 * `1.5s`, `300ms`, `0`. Units: ns, us (µs), ms, s, m, h. A bare number other than 0 is an error,
 * as in Go.
 */
import { InvalidArgumentError } from 'commander';

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/** Milliseconds in a Go duration string; throws on anything else (negative durations included). */
export function parseGoDuration(value: string): number {
  const text = value.trim();
  if (text === '0' || text === '+0') return 0;
  const body = text.startsWith('+') ? text.slice(1) : text;
  if (body === '') throw new Error(`invalid duration ${JSON.stringify(value)}`);
  let ms = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < body.length) {
    const start = PART.lastIndex;
    const m = PART.exec(body);
    if (!m || m.index !== start) throw new Error(`invalid duration ${JSON.stringify(value)}: expected e.g. 5m, 30s, 1h30m or 0`);
    ms += Number(m[1]) * UNIT_MS[m[2]!]!;
  }
  return ms;
}

/** parseGoDuration for commander options: a bad value is a usage error. */
export function durationOption(value: string): number {
  try {
    return parseGoDuration(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

/** A duration in Go's time.Duration.String form (`1m0s`, `30s`, `500ms`, `0s`), as kube prints flags. */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${Number(ms.toFixed(6))}ms`;
  let rest = ms / 1000;
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  rest -= minutes * 60;
  const seconds = `${Number(rest.toFixed(9))}s`;
  if (hours > 0) return `${hours}h${minutes}m${seconds}`;
  if (minutes > 0) return `${minutes}m${seconds}`;
  return seconds;
}

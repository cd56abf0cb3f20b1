/**
 * /healthz, /livez and /readyz with named checks (k8s.io/apiserver/pkg/server/healthz):
 * `ok` when all pass; `?verbose` lists `[+]name ok` lines; a failure is 500 with `[-]name failed:
 * reason withheld`; `?exclude=name` skips a check; `/<endpoint>/<name>` runs one check.
 */
import type { ObjectResponse } from '../endpoints/handler.js';

export interface HealthCheck {
  name: string;
  check(): Promise<void> | void;
}

export const HEALTH_ENDPOINTS = ['healthz', 'livez', 'readyz'] as const;
export type HealthEndpoint = (typeof HEALTH_ENDPOINTS)[number];

function text(code: number, payload: string): ObjectResponse {
  return {
    kind: 'object',
    code,
    contentType: 'text/plain; charset=utf-8',
    headers: { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache, private' },
    payload,
  };
}

async function passes(check: HealthCheck): Promise<boolean> {
  try {
    await check.check();
    return true;
  } catch {
    return false;
  }
}

export async function serveHealth(
  endpoint: HealthEndpoint,
  checks: readonly HealthCheck[],
  subpath: string[],
  query: URLSearchParams,
): Promise<ObjectResponse | undefined> {
  if (subpath.length > 1) return undefined;
  if (subpath.length === 1) {
    const check = checks.find((c) => c.name === subpath[0]);
    if (!check) return undefined;
    return (await passes(check)) ? text(200, 'ok') : text(500, `internal server error: ${check.name} check failed\n`);
  }
  const excluded = new Set(query.getAll('exclude'));
  const lines: string[] = [];
  let failed = false;
  for (const check of checks) {
    if (excluded.has(check.name)) {
      lines.push(`[+]${check.name} excluded: ok`);
      continue;
    }
    if (await passes(check)) {
      lines.push(`[+]${check.name} ok`);
    } else {
      failed = true;
      lines.push(`[-]${check.name} failed: reason withheld`);
    }
  }
  if (failed) return text(500, `${lines.join('\n')}\n${endpoint} check failed\n`);
  if (!query.has('verbose')) return text(200, 'ok');
  return text(200, `${lines.join('\n')}\n${endpoint} check passed\n`);
}

/** Runs the autocannon load worker as a separate process and returns its numbers. */
import { join } from 'node:path';
import { BENCH } from './paths.js';
import { start } from './procs.js';

export interface LoadConfig {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationSec: number;
  warmupSec?: number;
  /** Requests per second over all connections (autocannon's overallRate); unset: as fast as answered. */
  rate?: number;
  template?: { path?: string; body?: string; prefix: string; modulo?: number };
}

export interface LoadResult {
  durationSec: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** 2xx responses per second. */
  rps: number;
  latencyMs: { p50: number; p99: number; mean: number };
  bytesPerSec: number;
  /** Requests answered during the warm-up (not counted in ok). */
  warmupRequests?: number;
}

export async function runLoad(config: LoadConfig): Promise<LoadResult> {
  const proc = start(process.execPath, [join(BENCH, 'lib', 'load-worker.js'), JSON.stringify(config)]);
  const code = await proc.exited;
  const line = proc.output().trim().split('\n').filter((l) => l.startsWith('{')).pop();
  if (code !== 0 || !line) throw new Error(`load worker failed (exit ${code}):\n${proc.output().slice(-2000)}`);
  const result = JSON.parse(line) as LoadResult;
  if (result.ok === 0) throw new Error(`no successful responses from ${config.method ?? 'GET'} ${config.url}: ${line}`);
  return result;
}

/** Starts bench/lib/bare-server.js (or `script`) serving the bytes of `file`; returns its URL and a stop function. */
export async function startBareServer(file: string, contentType = 'application/json', script = 'bare-server.js', extraEnv: NodeJS.ProcessEnv = {}): Promise<{ url: string; stop(): Promise<void> }> {
  const proc = start(process.execPath, [join(BENCH, 'lib', script), file, contentType], { env: { ...process.env, ...extraEnv } });
  const m = await proc.waitFor(/bare server: (\S+)/, 10_000);
  return { url: m[1]!, stop: () => proc.stop() };
}

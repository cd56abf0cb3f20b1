/**
 * `GET /metrics` (Prometheus text format, exposition by prom-client) and, with
 * `kgen serve --profiling`, `/debug/pprof/profile` (CPU) and `/debug/pprof/heap` (heap) taken
 * with Node's inspector. Both are non-resource URLs the chain authorises as kube does: /metrics
 * for the system:monitoring group, /debug/pprof only for whoever is granted it (cluster-admin).
 */
import { Session } from 'node:inspector/promises';
import type { Registry } from 'prom-client';
import { statusError } from '../api/status.js';
import type { APIResponse } from '../endpoints/handler.js';
import { APISERVER_METRICS } from '../metrics/apiserver.js';

let registry: Promise<Registry> | undefined;

/**
 * The process-wide registry: kube's families plus prom-client's process and Node.js metrics.
 * prom-client (~30 files with @opentelemetry/api) is loaded on the first call, not at start-up:
 * kube's families record into plain objects from the start (runtime/metrics/series.ts) and are
 * only read through the registry at scrape time; the server calls this once it listens, so the
 * default collectors (GC, event-loop lag) run from then on, off the path to ready.
 */
export function metricsRegistry(): Promise<Registry> {
  registry ??= import('prom-client').then(({ collectDefaultMetrics, Registry }) => {
    const r = new Registry();
    for (const metric of APISERVER_METRICS) r.registerMetric(metric as never);
    collectDefaultMetrics({ register: r });
    return r;
  });
  return registry;
}

let source: (() => Promise<{ text: string; contentType: string }>) | undefined;

/**
 * Where /metrics comes from when it is not this process's registry alone: a worker of
 * `kgen serve --workers N` answers with every worker's metrics (../metrics/cluster.ts).
 */
export function setMetricsSource(next: typeof source): void {
  source = next;
}

export async function serveMetrics(): Promise<APIResponse> {
  if (source) {
    const { text, contentType } = await source().catch((err: Error) => {
      throw statusError('ServiceUnavailable', err.message);
    });
    return { kind: 'object', code: 200, contentType, headers: {}, payload: text };
  }
  const r = await metricsRegistry();
  const text = await r.metrics();
  return { kind: 'object', code: 200, contentType: r.contentType, headers: {}, payload: text };
}

const MAX_PROFILE_SECONDS = 300;

/**
 * `kgen serve --profiling`: a CPU profile on demand (`/debug/pprof/profile?seconds=N`, default
 * 30 as Go's pprof) and the sampling heap profile collected since start-up (`/debug/pprof/heap`,
 * as Go's heap profile covers the process's life). Profiles are Chrome DevTools' formats
 * (.cpuprofile, .heapprofile).
 */
export class Profiling {
  private readonly session = new Session();
  private readonly started: Promise<unknown>;

  constructor() {
    this.session.connect();
    this.started = this.session.post('HeapProfiler.enable').then(() => this.session.post('HeapProfiler.startSampling'));
  }

  async serve(segments: string[], query: URLSearchParams): Promise<APIResponse | undefined> {
    if (segments[0] !== 'debug' || segments[1] !== 'pprof') return undefined;
    const which = segments[2] ?? '';
    if (which === 'profile') {
      const raw = query.get('seconds') ?? '30';
      const seconds = Number(raw);
      if (!Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_PROFILE_SECONDS) {
        throw statusError('BadRequest', `invalid seconds ${JSON.stringify(raw)}: between 0 and ${MAX_PROFILE_SECONDS}`);
      }
      const session = new Session();
      session.connect();
      try {
        await session.post('Profiler.enable');
        await session.post('Profiler.start');
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
        const { profile } = await session.post('Profiler.stop');
        return download('kgen.cpuprofile', JSON.stringify(profile));
      } finally {
        session.disconnect();
      }
    }
    if (which === 'heap') {
      await this.started;
      const { profile } = await this.session.post('HeapProfiler.getSamplingProfile');
      return download('kgen.heapprofile', JSON.stringify(profile));
    }
    if (which === '') {
      return { kind: 'object', code: 200, contentType: 'text/plain; charset=utf-8', headers: {}, payload: 'profile?seconds=N  CPU profile (.cpuprofile)\nheap  sampling heap profile since start-up (.heapprofile)\n' };
    }
    return undefined;
  }

  stop(): void {
    this.session.disconnect();
  }
}

function download(name: string, payload: string): APIResponse {
  return { kind: 'object', code: 200, contentType: 'application/json', headers: { 'Content-Disposition': `attachment; filename=${name}` }, payload };
}

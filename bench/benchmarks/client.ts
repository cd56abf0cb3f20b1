/**
 * The client: the typed client's per-request overhead against a bare fetch of the same URL (both
 * against a bare server answering a real object's bytes, so only the client differs), and an
 * informer's initial sync of N objects from `kgen serve` against a bare paged LIST of the same
 * collection. Both run in bench/lib/client-worker.ts, a process of their own.
 */
import { join } from 'node:path';
import type { Benchmark, BenchContext, Outcome } from '../lib/harness.js';
import { serveKgen, serverFixture } from '../lib/fixture.js';
import { captureBytes } from '../lib/kube.js';
import { startBareServer } from '../lib/load.js';
import { collectionPath, NAMESPACE } from '../lib/objects.js';
import { BENCH, workDir } from '../lib/paths.js';
import { prefillSqlite } from '../lib/prefill.js';
import { start } from '../lib/procs.js';
import type { Profile } from '../lib/profile.js';
import { median } from '../lib/stats.js';
import type { KindSpec } from '../synth/spec.js';

async function worker<T>(config: Record<string, unknown>): Promise<T> {
  const proc = start(process.execPath, ['--import', 'tsx', join(BENCH, 'lib', 'client-worker.ts'), JSON.stringify(config)]);
  const code = await proc.exited;
  const line = proc.output().trim().split('\n').filter((l) => l.startsWith('{')).pop();
  if (code !== 0 || !line) throw new Error(`client worker failed (exit ${code}):\n${proc.output().slice(-2000)}`);
  return JSON.parse(line) as T;
}

function resourceOf(k: KindSpec) {
  return { resource: { group: k.group, version: k.version, plural: k.plural, kind: k.kind, namespaced: k.namespaced }, namespace: k.namespaced ? NAMESPACE : undefined };
}

export function clientBench(profile: Profile): Benchmark {
  const n = profile.informer.objects;
  return {
    name: 'client',
    figures: [
      { id: 'client.overhead', title: 'typed client GET, per request', unit: 'µs', baselineLabel: 'bare fetch, same URL', target: { kind: 'ratio-max', limit: 1.1 } },
      { id: 'client.informer', title: `informer initial sync, ${n.toLocaleString('en-US')} objects`, unit: 'ms', baselineLabel: 'bare paged LIST with fetch', target: { kind: 'value-max', limit: 1000 } },
    ],
    async run(ctx: BenchContext): Promise<Record<string, Outcome>> {
      const fx = await serverFixture(ctx);
      const prefilled = await prefillSqlite(ctx, fx, n);
      const server = await serveKgen(fx, prefilled.storage);
      const dir = workDir('client');
      try {
        const objectFile = join(dir, 'object.json');
        await captureBytes(`${server.url}${collectionPath(fx.kind)}/pre-0`, objectFile);
        const bare = await startBareServer(objectFile);
        let overhead: { typedUs: number[]; bareUs: number[] };
        try {
          overhead = await worker({ mode: 'overhead', server: bare.url, ...resourceOf(fx.kind), name: 'pre-0', requests: profile.client.requests, blocks: profile.client.blocks });
        } finally {
          await bare.stop();
        }
        const informer = await worker<{ informerMs: number[]; bareMs: number[] }>({ mode: 'informer', server: server.url, ...resourceOf(fx.kind), expect: n, reps: profile.informer.reps, pageSize: 500 });
        ctx.writeRaw('client', { requests: profile.client.requests, blocks: profile.client.blocks, overhead, informerObjects: n, informer });
        return {
          'client.overhead': { value: median(overhead.typedUs), baseline: median(overhead.bareUs) },
          'client.informer': { value: median(informer.informerMs), baseline: median(informer.bareMs) },
        };
      } finally {
        await server.stop();
      }
    },
  };
}

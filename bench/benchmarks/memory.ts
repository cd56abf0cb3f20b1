/**
 * Memory: RSS of `kgen serve` holding N objects of about 1 KB in its watch cache, against the JSON
 * bytes of those objects. The objects are prefilled into SQLite; the server loads them into the
 * cache at start, and a `?resourceVersion=0` LIST (served from the cache) confirms it holds them
 * all. RSS is read from /proc after the server has settled. The RSS of the same server with no
 * objects is recorded too (raw JSON), to tell the fixed cost from the per-object cost.
 */
import type { Benchmark, BenchContext, Outcome } from '../lib/harness.js';
import { serveKgen, serverFixture, type KgenServer } from '../lib/fixture.js';
import { mustSend } from '../lib/kube.js';
import { collectionPath } from '../lib/objects.js';
import { prefillSqlite, rssBytes } from '../lib/prefill.js';
import type { Profile } from '../lib/profile.js';

const MB = 1024 * 1024;

/**
 * RSS once the cache is ready (a `?resourceVersion=0&limit=1` read answers only then) and the
 * process has settled: the lowest of the last two thirds of the reads. The cache's count is checked afterwards, so
 * the large LIST that checks it does not inflate what was measured.
 */
async function settledRss(ctx: BenchContext, server: KgenServer, url: string, expect: number): Promise<number> {
  await mustSend(`${url}?resourceVersion=0&limit=1`, 'GET');
  const { reads: count, readIntervalMs } = ctx.profile.memory;
  const reads: number[] = [];
  for (let i = 0; i < count; i++) {
    await new Promise((r) => setTimeout(r, readIntervalMs));
    reads.push(rssBytes(server.proc.child.pid!));
  }
  ctx.log(`memory: RSS reads ${reads.map((r) => (r / MB).toFixed(0)).join(', ')} MB`);
  const full = JSON.parse(await mustSend(`${url}?resourceVersion=0`, 'GET')) as { items: unknown[] };
  if (full.items.length !== expect) throw new Error(`the watch cache holds ${full.items.length} objects, expected ${expect}`);
  return Math.min(...reads.slice(Math.floor(count / 3)));
}

export function memoryBench(profile: Profile): Benchmark {
  const n = profile.memory.objects;
  return {
    name: 'memory',
    figures: [{ id: 'memory.rss', title: `RSS with ${n.toLocaleString('en-US')} objects in the watch cache`, unit: 'MB', baselineLabel: 'JSON bytes held', target: { kind: 'ratio-max', limit: 2.0 } }],
    async run(ctx: BenchContext): Promise<Record<string, Outcome>> {
      const fx = await serverFixture(ctx);
      const t0 = performance.now();
      const filled = await prefillSqlite(ctx, fx, n);
      ctx.log(`memory: prefilled ${n} objects (${(filled.jsonBytes / MB).toFixed(1)} MB JSON) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      const url = (s: KgenServer) => s.url + collectionPath(fx.kind);
      let rssEmpty: number | undefined;
      if (ctx.profile.memory.measureEmpty) {
        const empty = await prefillSqlite(ctx, fx, 1, 'empty');
        const emptyServer = await serveKgen(fx, empty.storage);
        try {
          rssEmpty = await settledRss(ctx, emptyServer, url(emptyServer), 1);
        } finally {
          await emptyServer.stop();
        }
      }
      const server = await serveKgen(fx, filled.storage);
      let rss: number;
      try {
        rss = await settledRss(ctx, server, url(server), n);
      } finally {
        await server.stop();
      }
      ctx.writeRaw('memory', {
        objects: n,
        jsonBytes: filled.jsonBytes,
        bytesPerObject: filled.jsonBytes / n,
        rssBytes: rss,
        rssEmptyBytes: rssEmpty,
        ratio: rss / filled.jsonBytes,
        perObjectRatio: rssEmpty === undefined ? undefined : (rss - rssEmpty) / filled.jsonBytes,
      });
      return { 'memory.rss': { value: rss / MB, baseline: filled.jsonBytes / MB } };
    },
  };
}

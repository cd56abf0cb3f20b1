/**
 * Full paged LIST: a client walks all N objects of one resource (100,000 of ~1.1 KB in the full
 * profile, prefilled into SQLite and loaded into the watch cache at start) with `limit` and
 * `continue`, one page after the other, as an informer's initial list or a `kubectl get --chunk-size`
 * does. The baseline is a bare node:http server holding the very bytes kgen answered for each
 * page, walked by the same client: so the ratio is what kgen adds to sending those bytes. Rounds
 * alternate kgen and bare; the figures are the median walk and the p99 of every page's time.
 */
import { join } from 'node:path';
import type { Benchmark, BenchContext, Outcome } from '../lib/harness.js';
import { serveKgen, serverFixture } from '../lib/fixture.js';
import { mustSend } from '../lib/kube.js';
import { collectionPath } from '../lib/objects.js';
import { BENCH, workDir } from '../lib/paths.js';
import { prefillSqlite } from '../lib/prefill.js';
import { start } from '../lib/procs.js';
import type { Profile } from '../lib/profile.js';
import { startBareServer } from '../lib/load.js';
import { median, percentile } from '../lib/stats.js';

interface Walk {
  pages: number;
  items: number;
  bytes: number;
  totalMs: number;
  pageMs: number[];
}

async function walk(url: string, limit: number, saveDir?: string): Promise<Walk> {
  const proc = start(process.execPath, [join(BENCH, 'lib', 'paged-worker.js'), JSON.stringify({ url, limit, saveDir })]);
  const code = await proc.exited;
  const line = proc.output().trim().split('\n').filter((l) => l.startsWith('{')).pop();
  if (code !== 0 || !line) throw new Error(`paged LIST client failed (exit ${code}):\n${proc.output().slice(-2000)}`);
  return JSON.parse(line) as Walk;
}

export function pagedBench(profile: Profile): Benchmark {
  const p = profile.paged;
  const n = p.objects.toLocaleString('en-US');
  return {
    name: 'paged',
    figures: [
      { id: 'list.paged', title: `full paged LIST of ${n} objects (limit ${p.limit})`, unit: 'ms', baselineLabel: 'bare paged node:http server, same bytes', target: { kind: 'ratio-max', limit: 2 } },
      { id: 'list.paged.p99', title: `full paged LIST of ${n} objects, p99 per page`, unit: 'ms', baselineLabel: 'bare paged server, p99 per page', target: { kind: 'none' } },
    ],
    async run(ctx: BenchContext): Promise<Record<string, Outcome>> {
      const fx = await serverFixture(ctx);
      const filled = await prefillSqlite(ctx, fx, p.objects, 'paged');
      const server = await serveKgen(fx, filled.storage);
      let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;
      try {
        const url = server.url + collectionPath(fx.kind);
        // Ready once the watch cache answers; then one walk kgen's pages are saved from.
        await mustSend(`${url}?resourceVersion=0&limit=1`, 'GET');
        const pagesDir = workDir('paged-pages');
        const first = await walk(url, p.limit, pagesDir);
        if (first.items !== p.objects) throw new Error(`the paged LIST returned ${first.items} objects, expected ${p.objects}`);
        bare = await startBareServer(pagesDir, 'application/json', 'bare-paged.js');
        const kgen: Walk[] = [];
        const base: Walk[] = [];
        for (let r = 0; r < p.rounds; r++) {
          base.push(await walk(bare.url, p.limit));
          kgen.push(await walk(url, p.limit));
          ctx.log(`paged: round ${r + 1}: kgen ${kgen[r]!.totalMs.toFixed(0)} ms, bare ${base[r]!.totalMs.toFixed(0)} ms (${kgen[r]!.pages} pages, ${(kgen[r]!.bytes / 1e6).toFixed(1)} MB)`);
        }
        const pagesOf = (ws: Walk[]) => ws.flatMap((w) => w.pageMs);
        ctx.writeRaw('paged', {
          objects: p.objects,
          limit: p.limit,
          pages: first.pages,
          bytes: first.bytes,
          kgenTotalMs: kgen.map((w) => w.totalMs),
          bareTotalMs: base.map((w) => w.totalMs),
          kgenPageMs: { p50: percentile(pagesOf(kgen), 50), p99: percentile(pagesOf(kgen), 99), max: Math.max(...pagesOf(kgen)) },
          barePageMs: { p50: percentile(pagesOf(base), 50), p99: percentile(pagesOf(base), 99), max: Math.max(...pagesOf(base)) },
        });
        return {
          'list.paged': { value: median(kgen.map((w) => w.totalMs)), baseline: median(base.map((w) => w.totalMs)) },
          'list.paged.p99': { value: percentile(pagesOf(kgen), 99), baseline: percentile(pagesOf(base), 99) },
        };
      } finally {
        await bare?.stop();
        await server.stop();
      }
    },
  };
}

/**
 * Watch fan-out: W watchers (in their own process) on one resource, and a stream of updates to
 * one object (merge patches from this process, one every intervalMs). Latency is from the
 * write's acknowledgement (its response read by the writer) to the event's delivery at a
 * watcher; the figure is the p99 over every (update, watcher) pair, a missing delivery counting as
 * infinite. The baseline is a bare node:http server fanning the same event bytes out to the same
 * number of streams, measured the same way. It runs twice: with `watchers` streams, and at ten
 * times the scale (`largeWatchers`, 10,000 in the full profile, with fewer, sparser updates so the
 * one watcher process keeps up with every delivery).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Benchmark, BenchContext, Outcome } from '../lib/harness.js';
import { serveKgen, serverFixture } from '../lib/fixture.js';
import { mustSend } from '../lib/kube.js';
import { startBareServer } from '../lib/load.js';
import { collectionPath, sampleObject } from '../lib/objects.js';
import { BENCH, workDir } from '../lib/paths.js';
import { start } from '../lib/procs.js';
import type { Profile } from '../lib/profile.js';
import { percentile } from '../lib/stats.js';

const now = () => performance.timeOrigin + performance.now();

interface FanoutRun {
  p50: number;
  p99: number;
  max: number;
  expected: number;
  delivered: number;
  /** p99 measured from the write's send instead of its acknowledgement. */
  p99FromSend: number;
  errors: string[];
}

/** Opens the watchers on `watchUrl`, sends the updates to `objectUrl`, returns latencies. */
interface FanoutShape {
  watchers: number;
  updates: number;
  intervalMs: number;
}

async function fanout(ctx: BenchContext, f: FanoutShape, watchUrl: string, objectUrl: string, dir: string, label: string): Promise<FanoutRun> {
  const outFile = join(dir, `${label}-deliveries.json`);
  const timeoutMs = f.updates * f.intervalMs + 30_000;
  const worker = start(process.execPath, [join(BENCH, 'lib', 'watch-worker.js'), JSON.stringify({ url: watchUrl, watchers: f.watchers, last: f.updates, timeoutMs, outFile })]);
  try {
    await worker.waitFor(/^ready$/m, 180_000);
  } catch {
    await worker.exited;
    const partial = JSON.parse(readFileSync(outFile, 'utf8')) as { streams: number; errors: string[] };
    throw new Error(`only ${partial.streams} of ${f.watchers} watch streams opened within 120 s (${partial.errors[0] ?? 'no error'})`);
  }
  await new Promise((r) => setTimeout(r, 200));
  const sent: number[] = [];
  const acked: number[] = [];
  for (let seq = 1; seq <= f.updates; seq++) {
    const t0 = now();
    sent[seq] = t0;
    await mustSend(objectUrl, 'PATCH', { spec: { title: `seq-${seq}` } }, 'application/merge-patch+json');
    acked[seq] = now();
    const wait = f.intervalMs - (now() - t0);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  await worker.exited;
  const result = JSON.parse(readFileSync(outFile, 'utf8')) as { deliveries: Record<string, number[]>; streams: number; errors: string[] };
  const lat: number[] = [];
  const fromSend: number[] = [];
  for (let seq = 1; seq <= f.updates; seq++) {
    const times = result.deliveries[seq] ?? [];
    for (const t of times) {
      lat.push(Math.max(0, t - acked[seq]!));
      fromSend.push(t - sent[seq]!);
    }
    for (let i = times.length; i < f.watchers; i++) {
      lat.push(Infinity);
      fromSend.push(Infinity);
    }
  }
  const expected = f.watchers * f.updates;
  const delivered = lat.filter(Number.isFinite).length;
  ctx.log(`fanout ${label} (${f.watchers} watchers): ${delivered}/${expected} delivered, p99 ${percentile(lat, 99).toFixed(1)} ms`);
  return { p50: percentile(lat, 50), p99: percentile(lat, 99), max: lat.reduce((m, x) => (x > m ? x : m), 0), expected, delivered, p99FromSend: percentile(fromSend, 99), errors: result.errors };
}

export function fanoutBench(profile: Profile): Benchmark {
  const f = profile.fanout;
  const small: FanoutShape = { watchers: f.watchers, updates: f.updates, intervalMs: f.intervalMs };
  const large: FanoutShape = { watchers: f.largeWatchers, updates: f.largeUpdates, intervalMs: f.largeIntervalMs };
  return {
    name: 'fanout',
    figures: [
      { id: 'watch.fanout', title: `watch fan-out, ${f.watchers} watchers, p99 write→delivery`, unit: 'ms', baselineLabel: 'bare node:http fan-out', target: { kind: 'value-max', limit: 50 } },
      { id: 'watch.fanout.large', title: `watch fan-out, ${f.largeWatchers.toLocaleString('en-US')} watchers, p99 write→delivery`, unit: 'ms', baselineLabel: 'bare node:http fan-out', target: { kind: 'value-max', limit: 100 } },
      { id: 'watch.fanout.large.ratio', title: `watch fan-out, ${f.largeWatchers.toLocaleString('en-US')} watchers, vs bare`, unit: 'ms', baselineLabel: 'bare node:http fan-out', target: { kind: 'ratio-max', limit: 1.2 } },
    ],
    async run(ctx: BenchContext): Promise<Record<string, Outcome>> {
      const fx = await serverFixture(ctx);
      const dir = workDir('fanout');
      const out: Record<string, Outcome> = {};
      const raw: Record<string, unknown> = {};
      for (const [id, shape] of [['watch.fanout', small], ['watch.fanout.large', large]] as const) {
        // A fresh server and bare server for each size: the smaller run's streams are gone.
        const server = await serveKgen(fx, 'memory:');
        let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;
        try {
          const collection = server.url + collectionPath(fx.kind);
          const created = JSON.parse(await mustSend(collection, 'POST', sampleObject(fx.kind, 'fan-0', 0))) as { metadata: { resourceVersion: string } };
          const objectUrl = `${collection}/fan-0`;
          const objectFile = join(dir, 'object.json');
          writeFileSync(objectFile, (await mustSend(objectUrl, 'GET')).replace('"seq-0"', '"seq-__SEQ__"'));
          bare = await startBareServer(objectFile, 'application/json', 'bare-fanout.js');
          const bareRun = await fanout(ctx, shape, `${bare.url}/watch`, `${bare.url}/object`, dir, `bare-${shape.watchers}`);
          const kgenRun = await fanout(ctx, shape, `${collection}?watch=1&resourceVersion=${created.metadata.resourceVersion}`, objectUrl, dir, `kgen-${shape.watchers}`);
          raw[String(shape.watchers)] = { ...shape, kgen: kgenRun, bare: bareRun };
          if (!Number.isFinite(kgenRun.p99)) out[id] = { na: `${kgenRun.expected - kgenRun.delivered} of ${kgenRun.expected} deliveries missing (${kgenRun.errors[0] ?? 'no error'})` };
          else if (!Number.isFinite(bareRun.p99)) out[id] = { na: `bare fan-out: ${bareRun.expected - bareRun.delivered} of ${bareRun.expected} deliveries missing (${bareRun.errors[0] ?? 'no error'})` };
          else out[id] = { value: kgenRun.p99, baseline: bareRun.p99 };
        } catch (err) {
          // One size failing leaves the other's figure standing.
          out[id] = { na: (err as Error).message.split('\n')[0]! };
        } finally {
          await bare?.stop();
          await server.stop();
        }
      }
      out['watch.fanout.large.ratio'] = out['watch.fanout.large']!;
      ctx.writeRaw('fanout', raw);
      return out;
    },
  };
}

/**
 * Writes: CREATE on SQLite (validation, defaulting and admission on, as served) against raw
 * better-sqlite3 inserts of the same rows, one transaction each; CREATE and UPDATE on etcd against
 * the etcd3 client's own put rate at the same concurrency. Load and raw baselines run in their own
 * processes, in alternating rounds with kgen.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Benchmark, BenchContext, Outcome } from '../lib/harness.js';
import { serveKgen, serverFixture, type KgenServer, type ServerFixture } from '../lib/fixture.js';
import { createObjects, mustSend, nameTemplate } from '../lib/kube.js';
import { runLoad, type LoadResult } from '../lib/load.js';
import { collectionPath, NAMESPACE, sampleObject } from '../lib/objects.js';
import { BENCH, workDir } from '../lib/paths.js';
import { start } from '../lib/procs.js';
import type { Profile } from '../lib/profile.js';
import { mean, median } from '../lib/stats.js';
import { processCpuMicros } from '../lib/procs.js';
import { startEtcd, type EtcdCluster } from '../../test/support/etcd.js';

/** The stored form of a created object (what the server writes), as a template with __NAME__. */
async function storedTemplate(server: KgenServer, fx: ServerFixture, name: string): Promise<string> {
  const json = await mustSend(`${server.url}${collectionPath(fx.kind)}/${name}`, 'GET');
  return nameTemplate(JSON.stringify(JSON.parse(json)), name);
}

function storageKeyPrefix(fx: ServerFixture): string {
  return `/registry/${fx.kind.group}/${fx.kind.plural}/${fx.kind.namespaced ? `${NAMESPACE}/` : ''}`;
}

async function runRaw(script: string, args: string[]): Promise<{ count: number; seconds: number; cpuMicros?: number }> {
  const proc = start(process.execPath, [join(BENCH, 'lib', script), ...args]);
  const code = await proc.exited;
  const line = proc.output().trim().split('\n').pop() ?? '';
  if (code !== 0 || !line.startsWith('{')) throw new Error(`${script} failed (exit ${code}):\n${proc.output().slice(-2000)}`);
  const r = JSON.parse(line) as { rows?: number; puts?: number; seconds: number; cpuMicros?: number };
  return { count: r.rows ?? r.puts ?? 0, seconds: r.seconds, cpuMicros: r.cpuMicros };
}

function createLoad(ctx: BenchContext, server: KgenServer, fx: ServerFixture, prefix: string, connections: number) {
  const l = ctx.profile.load;
  return runLoad({
    url: server.url + collectionPath(fx.kind),
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    connections,
    durationSec: l.durationSec,
    warmupSec: l.warmupSec,
    template: { prefix, body: JSON.stringify(sampleObject(fx.kind, '__NAME__', 1)) },
  });
}

function checked(r: LoadResult, what: string): LoadResult {
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${what}: ${r.non2xx} non-2xx, ${r.errors} errors out of ${r.ok + r.non2xx}`);
  return r;
}

async function sqliteCreate(ctx: BenchContext): Promise<Record<string, Outcome>> {
  const fx = await serverFixture(ctx);
  const l = ctx.profile.load;
  const server = await serveKgen(fx, 'sqlite:');
  const rawDir = workDir('raw-sqlite');
  try {
    await createObjects(server.url, fx.kind, 'seed', 1);
    const rowFile = join(rawDir, 'row.json');
    writeFileSync(rowFile, await storedTemplate(server, fx, 'seed-0'));
    const kgen: LoadResult[] = [];
    const raw: { count: number; seconds: number; cpuMicros?: number }[] = [];
    // The server's CPU per create (user + system, from /proc), over each round's requests.
    const cpuPerCreate: number[] = [];
    for (let r = 0; r < l.rounds; r++) {
      raw.push(await runRaw('raw-sqlite.js', [join(rawDir, `raw-${r}.db`), rowFile, String(l.durationSec), storageKeyPrefix(fx)]));
      const cpu0 = processCpuMicros(server.proc.child.pid!);
      kgen.push(checked(await createLoad(ctx, server, fx, `c${r}`, l.connections), 'sqlite create'));
      cpuPerCreate.push((processCpuMicros(server.proc.child.pid!) - cpu0) / (kgen[r]!.ok + kgen[r]!.non2xx + (kgen[r]!.warmupRequests ?? 0)));
      ctx.log(`sqlite: round ${r + 1}: raw ${Math.round(raw[r]!.count / raw[r]!.seconds)}/s, kgen ${Math.round(kgen[r]!.rps)}/s`);
    }
    ctx.writeRaw('sqlite-create', { connections: l.connections, durationSec: l.durationSec, kgen, raw, cpuPerCreate });
    return {
      'sqlite.create': { value: mean(kgen.map((r) => r.rps)), baseline: mean(raw.map((r) => r.count / r.seconds)) },
      'sqlite.create.cpu': { value: median(cpuPerCreate), baseline: median(raw.map((r) => (r.cpuMicros ?? NaN) / r.count)) },
    };
  } finally {
    await server.stop();
  }
}

async function etcdWrites(ctx: BenchContext, profile: Profile): Promise<Record<string, Outcome>> {
  const fx = await serverFixture(ctx);
  const l = ctx.profile.load;
  const e = profile.etcd;
  let cluster: EtcdCluster;
  try {
    cluster = await startEtcd();
  } catch (err) {
    const na = { na: `etcd not available: ${(err as Error).message.split('\n')[0]}` };
    return { 'etcd.create': na, 'etcd.update': na };
  }
  let server: KgenServer | undefined;
  const rawDir = workDir('raw-etcd');
  try {
    try {
      server = await serveKgen(fx, cluster.storageUrl);
    } catch (err) {
      const na = { na: `etcd backend missing: ${(err as Error).message.split('\n')[0]}` };
      return { 'etcd.create': na, 'etcd.update': na };
    }
    await createObjects(server.url, fx.kind, 'u', e.objects);
    const valueFile = join(rawDir, 'value.json');
    writeFileSync(valueFile, await storedTemplate(server, fx, 'u-0'));
    const endpoint = cluster.endpoints[0]!;
    const prefix = `/bench-raw/${fx.kind.plural}/`;
    const updateBody = JSON.stringify(sampleObject(fx.kind, '__NAME__', 2));
    const out = { create: { kgen: [] as LoadResult[], raw: [] as { count: number; seconds: number }[] }, update: { kgen: [] as LoadResult[], raw: [] as { count: number; seconds: number }[] } };
    for (let r = 0; r < l.rounds; r++) {
      out.create.raw.push(await runRaw('raw-etcd.js', [endpoint, valueFile, String(l.durationSec), String(e.connections), `${prefix}c${r}/`, '0']));
      out.create.kgen.push(checked(await createLoad(ctx, server, fx, `c${r}`, e.connections), 'etcd create'));
      out.update.raw.push(await runRaw('raw-etcd.js', [endpoint, valueFile, String(l.durationSec), String(e.connections), `${prefix}u/`, String(e.objects)]));
      const update = await runLoad({
        url: server.url + collectionPath(fx.kind),
        method: 'PUT',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        connections: e.connections,
        durationSec: l.durationSec,
        warmupSec: l.warmupSec,
        template: { prefix: 'u', modulo: e.objects, path: `${collectionPath(fx.kind)}/__NAME__`, body: updateBody.replace('"seq-2"', '"seq-__SEQ__"') },
      });
      out.update.kgen.push(checked(update, 'etcd update'));
      ctx.log(`etcd: round ${r + 1}: create raw ${Math.round(out.create.raw[r]!.count / out.create.raw[r]!.seconds)}/s kgen ${Math.round(out.create.kgen[r]!.rps)}/s; update raw ${Math.round(out.update.raw[r]!.count / out.update.raw[r]!.seconds)}/s kgen ${Math.round(update.rps)}/s`);
    }
    ctx.writeRaw('etcd-writes', { connections: e.connections, objects: e.objects, durationSec: l.durationSec, ...out });
    const rate = (xs: { count: number; seconds: number }[]) => mean(xs.map((x) => x.count / x.seconds));
    return {
      'etcd.create': { value: mean(out.create.kgen.map((r) => r.rps)), baseline: rate(out.create.raw) },
      'etcd.update': { value: mean(out.update.kgen.map((r) => r.rps)), baseline: rate(out.update.raw) },
    };
  } finally {
    await server?.stop();
    await cluster.stop();
  }
}

export function writesBench(profile: Profile): Benchmark[] {
  return [
    {
      name: 'sqlite',
      figures: [
        { id: 'sqlite.create', title: 'CREATE on SQLite', unit: 'req/s', baselineLabel: 'raw better-sqlite3 inserts', target: { kind: 'ratio-min', limit: 0.5 } },
        { id: 'sqlite.create.cpu', title: 'CREATE on SQLite, server CPU per create', unit: 'µs', baselineLabel: 'raw inserter CPU per insert', target: { kind: 'value-max', limit: 100 } },
      ],
      run: (ctx) => sqliteCreate(ctx),
    },
    {
      name: 'etcd',
      figures: [
        { id: 'etcd.create', title: `CREATE on etcd (${profile.etcd.connections} conns)`, unit: 'req/s', baselineLabel: 'etcd3 client puts', target: { kind: 'ratio-min', limit: 0.5 } },
        { id: 'etcd.update', title: `UPDATE on etcd (${profile.etcd.connections} conns)`, unit: 'req/s', baselineLabel: 'etcd3 client puts', target: { kind: 'ratio-min', limit: 0.5 } },
      ],
      run: (ctx) => etcdWrites(ctx, profile),
    },
  ];
}

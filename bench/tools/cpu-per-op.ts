/**
 * Server CPU time per request: `kgen serve` under one benchmark's load, its user + system CPU read
 * from /proc/<pid>/stat before and after each round, divided by the requests answered. Unlike a
 * request rate this hardly moves when other work shares the cores, so two commits can be compared
 * on a busy machine (run this file in both worktrees, alternately, in the same minutes).
 *
 *   node --import tsx bench/tools/cpu-per-op.ts <create-sqlite|create-etcd|update-etcd|get|get-many|list|paged> [--rounds n] [--seconds n] [--connections n] [--rate n]
 *
 * get-many: GETs that cycle over --objects (200) different objects, one after the other (what
 * clients do, unlike `get`, which repeats one object's GET: a cost that only a repeated request
 * avoids shows in `get` and not here).
 *
 * paged: 20,000 objects (--objects) prefilled into SQLite and loaded into the watch cache; each
 * round is --walks walks of the whole collection with limit=500 and continue (the paged
 * benchmark's client, one page after the other); the figure is CPU per page.
 *
 * --cpu-prof-dir writes the server's CPU profile there (bench/tools/cpuprofile-top.js reads it).
 *
 * --rate fixes the request rate: the CPU a request costs depends on how many share a turn of the
 * event loop, so two commits compare at the same rate.
 *
 * Prints one JSON line: µs of server CPU per request for each round, their median, and the load.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { serveKgen, serverFixture } from '../lib/fixture.js';
import { makeContext } from '../lib/harness.js';
import { createObjects } from '../lib/kube.js';
import { runLoad, type LoadConfig } from '../lib/load.js';
import { collectionPath, sampleObject } from '../lib/objects.js';
import { removeWorkDirs, workDir } from '../lib/paths.js';
import { BENCH } from '../lib/paths.js';
import { processCpuMicros, start, stopAll } from '../lib/procs.js';
import { prefillSqlite } from '../lib/prefill.js';
import { join } from 'node:path';
import { FULL } from '../lib/profile.js';
import { startEtcd, type EtcdCluster } from '../../test/support/etcd.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '3' }, seconds: { type: 'string', default: '3' }, connections: { type: 'string', default: '16' }, objects: { type: 'string' }, warmup: { type: 'string', default: '2' }, rate: { type: 'string' }, walks: { type: 'string', default: '2' }, 'cpu-prof-dir': { type: 'string' } },
});
const scenario = positionals[0] ?? 'get';
const ctx = makeContext(FULL, workDir('cpu-raw'), (m) => console.error(`[cpu] ${m}`));
const fx = await serverFixture(ctx);
const etcd: EtcdCluster | undefined = scenario.endsWith('-etcd') ? await startEtcd() : undefined;
const prefilled = scenario === 'paged' ? await prefillSqlite(ctx, fx, Number(values.objects ?? 20_000), 'paged') : undefined;
const storage = prefilled ? prefilled.storage : scenario === 'create-sqlite' ? 'sqlite:' : etcd ? etcd.storageUrl : 'memory:';
const profDir = values['cpu-prof-dir'];
const server = await serveKgen(fx, storage, {}, profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []);
const collection = server.url + collectionPath(fx.kind);
const headers = { accept: 'application/json', 'content-type': 'application/json' };
const connections = Number(values.connections);
const objects = Number(values.objects ?? 200);
const perOp: number[] = [];
const rates: number[] = [];
const load0 = loadavg()[0];
try {
  if (scenario === 'get' || scenario === 'list') await createObjects(server.url, fx.kind, 'obj', scenario === 'get' ? 1 : FULL.list.objects);
  if (scenario === 'get-many') await createObjects(server.url, fx.kind, 'obj', objects);
  if (scenario === 'update-etcd') await createObjects(server.url, fx.kind, 'u', objects);
  if (scenario === 'paged') await pagedRounds();
  // Round -1 is the warm-up (JIT, validators and field managers compiled on first use): not counted.
  for (let r = -1; scenario !== 'paged' && r < Number(values.rounds); r++) {
    const base = { connections, durationSec: Number(r < 0 ? values.warmup : values.seconds), headers, rate: values.rate ? Number(values.rate) : undefined };
    let config: LoadConfig;
    if (scenario === 'get') config = { ...base, url: `${collection}/obj-0` };
    else if (scenario === 'get-many') config = { ...base, url: collection, template: { prefix: 'obj', modulo: objects, path: `${collectionPath(fx.kind)}/__NAME__` } };
    else if (scenario === 'list') config = { ...base, url: `${collection}?resourceVersion=0` };
    else if (scenario.startsWith('create')) config = { ...base, url: collection, method: 'POST', template: { prefix: `c${r + 1}`, body: JSON.stringify(sampleObject(fx.kind, '__NAME__', 1)) } };
    else if (scenario === 'update-etcd') {
      const body = JSON.stringify(sampleObject(fx.kind, '__NAME__', 2)).replace('"seq-2"', '"seq-__SEQ__"');
      config = { ...base, url: collection, method: 'PUT', template: { prefix: 'u', modulo: objects, path: `${collectionPath(fx.kind)}/__NAME__`, body } };
    } else throw new Error(`unknown scenario ${scenario}: create-sqlite, create-etcd, update-etcd, get, get-many or list`);
    const pid = server.proc.child.pid!;
    const before = processCpuMicros(pid);
    const result = await runLoad(config);
    const cpu = processCpuMicros(pid) - before;
    const requests = result.ok + result.non2xx;
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors`);
    if (r < 0) continue;
    perOp.push(cpu / requests);
    rates.push(result.rps);
  }
} finally {
  await server.stop();
  await etcd?.stop();
  await stopAll();
  removeWorkDirs();
}
/** paged: rounds of whole walks (limit 500), CPU per page; round -1 warms up. */
async function pagedRounds(): Promise<void> {
  const pid = server.proc.child.pid!;
  for (let r = -1; r < Number(values.rounds); r++) {
    const before = processCpuMicros(pid);
    const started = performance.now();
    let pages = 0;
    for (let w = 0; w < Number(values.walks); w++) {
      const walk = start(process.execPath, [join(BENCH, 'lib', 'paged-worker.js'), JSON.stringify({ url: collection, limit: 500 })]);
      await walk.exited;
      const result = JSON.parse(walk.output().trim().split('\n').pop()!) as { pages: number; items: number };
      if (result.items !== prefilled!.count) throw new Error(`walked ${result.items} items of ${prefilled!.count}`);
      pages += result.pages;
    }
    const cpu = processCpuMicros(pid) - before;
    if (r < 0) continue;
    perOp.push(cpu / pages);
    rates.push((pages * 1000) / (performance.now() - started));
  }
}

const sorted = [...perOp].sort((a, b) => a - b);
console.log(
  JSON.stringify({
    scenario,
    cpuMicrosPerRequest: perOp.map((x) => Math.round(x * 10) / 10),
    median: Math.round(sorted[Math.floor(sorted.length / 2)]! * 10) / 10,
    rps: rates.map(Math.round),
    load: [load0, loadavg()[0]].map((x) => Math.round(x * 100) / 100),
  }),
);

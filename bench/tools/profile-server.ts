/**
 * CPU profile of `kgen serve` under one benchmark's load (`node --cpu-prof`), summarised by
 * bench/tools/cpuprofile-top.js. The profile and its summary stay in --out.
 *
 *   node --import tsx bench/tools/profile-server.ts <get|list|create|create-etcd|paged|startup> [--out dir] [--seconds n] [--walks n]
 *
 * paged: 20,000 objects prefilled into SQLite, walked --walks times (3) with limit=500 and
 * continue (the paged benchmark's client).
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serveKgen, serverFixture } from '../lib/fixture.js';
import { makeContext } from '../lib/harness.js';
import { createObjects } from '../lib/kube.js';
import { runLoad } from '../lib/load.js';
import { collectionPath, sampleObject } from '../lib/objects.js';
import { BENCH, removeWorkDirs } from '../lib/paths.js';
import { start, stopAll } from '../lib/procs.js';
import { FULL } from '../lib/profile.js';
import { prefillSqlite } from '../lib/prefill.js';
import { startEtcd, type EtcdCluster } from '../../test/support/etcd.js';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { out: { type: 'string' }, seconds: { type: 'string', default: '5' }, walks: { type: 'string', default: '3' } } });
const scenario = positionals[0] ?? 'get';
const out = resolve(values.out ?? join(BENCH, 'results', 'profiles', scenario));
mkdirSync(out, { recursive: true });
for (const f of readdirSync(out)) if (f.endsWith('.cpuprofile')) rmSync(join(out, f));
const ctx = makeContext(FULL, join(out, 'raw'), (m) => console.error(`[profile] ${m}`));
const fx = await serverFixture(ctx);
const etcd: EtcdCluster | undefined = scenario === 'create-etcd' ? await startEtcd() : undefined;
const storage = scenario === 'create' ? 'sqlite:' : etcd ? etcd.storageUrl : 'memory:';
const prefilled = scenario === 'paged' ? await prefillSqlite(ctx, fx, 20_000, 'paged') : undefined;
const server = await serveKgen(fx, prefilled?.storage ?? storage, {}, ['--cpu-prof', `--cpu-prof-dir=${out}`]);
const collection = server.url + collectionPath(fx.kind);
try {
  const durationSec = Number(values.seconds);
  const headers = { accept: 'application/json', 'content-type': 'application/json' };
  if (scenario === 'get' || scenario === 'list') {
    await createObjects(server.url, fx.kind, 'obj', FULL.list.objects);
    const url = scenario === 'get' ? `${collection}/obj-0` : `${collection}?resourceVersion=0`;
    console.log(JSON.stringify(await runLoad({ url, connections: 16, durationSec, headers })));
  } else if (scenario === 'create' || scenario === 'create-etcd') {
    const body = JSON.stringify(sampleObject(fx.kind, '__NAME__', 1));
    console.log(JSON.stringify(await runLoad({ url: collection, method: 'POST', connections: 16, durationSec, headers, template: { prefix: 'p', body } })));
  } else if (scenario === 'paged') {
    await createObjects(server.url, fx.kind, 'extra', 1);
    for (let i = 0; i < Number(values.walks); i++) {
      const walk = start(process.execPath, [join(BENCH, 'lib', 'paged-worker.js'), JSON.stringify({ url: collection, limit: 500 })]);
      await walk.exited;
      console.log(walk.output().trim().split('\n').pop()!.slice(0, 120));
    }
  } else if (scenario !== 'startup') {
    throw new Error(`unknown scenario ${scenario}: get, list, create, create-etcd or startup`);
  }
} finally {
  await server.stop();
  await etcd?.stop();
  await stopAll();
  removeWorkDirs();
}
const profiles = readdirSync(out).filter((f) => f.endsWith('.cpuprofile')).sort();
const main = profiles[0];
if (!main) throw new Error(`no profile written in ${out}`);
// The first profile is the server's main thread (later ones are tsx's loader thread).
const summary = start(process.execPath, [join(BENCH, 'tools', 'cpuprofile-top.js'), join(out, main), '30']);
await summary.exited;
console.log(summary.output());

/**
 * Server CPU per request of `kgen serve` and of the bare node:http server answering the same
 * bytes, in the same run: GET one object or LIST 500 from the watch cache at full rate (autocannon,
 * 16 connections, its own process), kgen and bare in alternating rounds, each server's user +
 * system CPU read from /proc. The kgen/bare CPU ratio hardly moves with the machine's load, where
 * the request-rate ratio the bench reports does; compare two commits by it (run this file in both
 * worktrees, alternately).
 *
 *   node --import tsx bench/tools/cpu-vs-bare.ts [get|list] [--rounds n] [--seconds n]
 *
 * Prints one JSON line: µs of CPU per request of each server per round (and the system part),
 * the rates, the rate ratio and the load.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { serveKgen, serverFixture } from '../lib/fixture.js';
import { makeContext } from '../lib/harness.js';
import { captureBytes, createObjects } from '../lib/kube.js';
import { runLoad } from '../lib/load.js';
import { collectionPath } from '../lib/objects.js';
import { BENCH, removeWorkDirs, workDir } from '../lib/paths.js';
import { start, stopAll } from '../lib/procs.js';
import { FULL } from '../lib/profile.js';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { rounds: { type: 'string', default: '3' }, seconds: { type: 'string', default: '4' } } });
const scenario = positionals[0] ?? 'get';
if (scenario !== 'get' && scenario !== 'list') throw new Error(`unknown scenario ${scenario}: get or list`);

/** utime and stime of a process in µs (clock ticks of 10 ms). */
function cpuOf(pid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) * 1e4, system: Number(fields[12]) * 1e4 };
}

type Side = 'kgen' | 'bare';
const ctx = makeContext(FULL, workDir('cpu-vs-bare-raw'), (m) => console.error(`[cpu-vs-bare] ${m}`));
const fx = await serverFixture(ctx);
const server = await serveKgen(fx, 'memory:');
const out: Record<Side, { cpu: number[]; system: number[]; rps: number[] }> = { kgen: { cpu: [], system: [], rps: [] }, bare: { cpu: [], system: [], rps: [] } };
const load0 = loadavg()[0]!;
try {
  await createObjects(server.url, fx.kind, 'obj', scenario === 'get' ? 1 : FULL.list.objects);
  const url = `${server.url}${collectionPath(fx.kind)}${scenario === 'get' ? '/obj-0' : '?resourceVersion=0'}`;
  const file = join(workDir('cpu-vs-bare'), 'body.json');
  await captureBytes(url, file);
  const bare = start(process.execPath, [join(BENCH, 'lib', 'bare-server.js'), file]);
  const bareBase = (await bare.waitFor(/bare server: (\S+)/, 10_000))[1]!;
  const pids: Record<Side, number> = { kgen: server.proc.child.pid!, bare: bare.child.pid! };
  const urls: Record<Side, string> = { kgen: url, bare: bareBase + new URL(url).pathname };
  // Round -1 warms both up (JIT) and is not counted.
  for (let r = -1; r < Number(values.rounds); r++) {
    for (const side of ['bare', 'kgen'] as const) {
      const before = cpuOf(pids[side]);
      const res = await runLoad({ url: urls[side], connections: 16, durationSec: r < 0 ? 2 : Number(values.seconds), headers: { accept: 'application/json' } });
      const after = cpuOf(pids[side]);
      if (res.non2xx > 0 || res.errors > 0) throw new Error(`${side}: ${res.non2xx} non-2xx, ${res.errors} errors`);
      if (r < 0) continue;
      out[side].cpu.push(Math.round(((after.user + after.system - before.user - before.system) / res.ok) * 100) / 100);
      out[side].system.push(Math.round(((after.system - before.system) / res.ok) * 100) / 100);
      out[side].rps.push(Math.round(res.rps));
    }
  }
} finally {
  await server.stop();
  await stopAll();
  removeWorkDirs();
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
console.log(
  JSON.stringify({
    scenario,
    kgenCpuMicros: out.kgen.cpu,
    bareCpuMicros: out.bare.cpu,
    kgenSystemMicros: out.kgen.system,
    bareSystemMicros: out.bare.system,
    cpuRatio: Math.round((median(out.kgen.cpu) / median(out.bare.cpu)) * 100) / 100,
    kgenRps: out.kgen.rps,
    bareRps: out.bare.rps,
    rateRatio: Math.round((sum(out.kgen.rps) / sum(out.bare.rps)) * 1000) / 1000,
    load: [load0, loadavg()[0]!].map((x) => Math.round(x * 100) / 100),
  }),
);

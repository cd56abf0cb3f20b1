/**
 * Code generation: `kgen generate` cold (whole process, output removed first), `--check` with
 * nothing changed, `--watch` regeneration after a one-file edit (from the write to the
 * "regenerated" line), and growth from N to 4N and to 10N kinds (1,000 in the full profile); against tsoa 6.6 `spec-and-routes` on the
 * equivalent project and an empty `node` process. Runs are interleaved so drift hits all alike.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Benchmark, BenchContext, Outcome } from '../lib/harness.js';
import { offerServerFixture } from '../lib/fixture.js';
import { kgen, timeRun, type Timed } from '../lib/procs.js';
import { REPO, KGEN_BIN, workDir } from '../lib/paths.js';
import type { Profile } from '../lib/profile.js';
import { median } from '../lib/stats.js';
import { kindFile, kindPath, synthesize, type KindSpec } from '../synth/index.js';

const TSOA_CLI = join(REPO, 'node_modules', 'tsoa', 'dist', 'cli.js');

function ok(t: Timed, what: string): Timed {
  if (t.code !== 0) throw new Error(`${what} exited with ${t.code}:\n${t.output.slice(-2000)}`);
  return t;
}

async function kgenCold(apis: string, out: string): Promise<Timed> {
  rmSync(out, { recursive: true, force: true });
  return ok(await timeRun(process.execPath, [KGEN_BIN, 'generate', apis, '--out', out]), 'kgen generate');
}

async function kgenCheck(apis: string, out: string): Promise<Timed> {
  return ok(await timeRun(process.execPath, [KGEN_BIN, 'generate', apis, '--out', out, '--check']), 'kgen generate --check');
}

async function tsoa(dir: string): Promise<Timed> {
  rmSync(join(dir, 'build'), { recursive: true, force: true });
  return ok(await timeRun(process.execPath, [TSOA_CLI, 'spec-and-routes'], { cwd: dir }), 'tsoa spec-and-routes');
}

/** Edits one kind file `edits` times (adding, then removing a field); ms from write to the "regenerated" line. */
async function watchEdits(apis: string, out: string, kind: KindSpec, edits: number): Promise<{ wallMs: number[]; reportedMs: number[] }> {
  const proc = kgen(['generate', apis, '--out', out, '--watch']);
  const wallMs: number[] = [];
  const reportedMs: number[] = [];
  try {
    await proc.waitFor(/watching /, 120_000);
    const path = kindPath(apis, kind);
    const original = readFileSync(path, 'utf8');
    // Let the watcher settle: fs.watch may still report the initial write of the output.
    await new Promise((r) => setTimeout(r, 300));
    for (let i = 0; i < edits; i++) {
      const from = proc.output().length;
      const text = i % 2 === 0 ? kindFile(kind, `\n  /** Added by the benchmark (${i}). */\n  benchAdded${i}?: string;`) : original;
      const t0 = performance.now();
      writeFileSync(path, text);
      const m = await proc.waitFor(/regenerated in (\d+) ms/, 60_000, from);
      wallMs.push(performance.now() - t0);
      reportedMs.push(Number(m[1]));
      await new Promise((r) => setTimeout(r, 200));
    }
    writeFileSync(path, original);
  } finally {
    await proc.stop();
  }
  return { wallMs, reportedMs };
}

export function codegenBench(profile: Profile): Benchmark {
  const c = profile.codegen;
  const n = c.groups * c.kindsPerGroup;
  const large = c.largeGroups * c.kindsPerGroup;
  const huge = c.hugeGroups * c.kindsPerGroup;
  return {
    name: 'codegen',
    figures: [
      { id: 'gen.cold.tsoa', title: `generate cold, ${n} kinds, vs tsoa`, unit: 'ms', baselineLabel: 'tsoa spec-and-routes', target: { kind: 'ratio-max', limit: 0.15 } },
      { id: 'gen.cold.tsoa.cpu', title: `generate cold, ${n} kinds, vs tsoa, CPU (user + sys)`, unit: 'ms', baselineLabel: 'tsoa spec-and-routes CPU', target: { kind: 'ratio-max', limit: 0.15 } },
      { id: 'gen.cold', title: `generate cold, ${n} kinds, wall`, unit: 'ms', baselineLabel: 'empty node process', target: { kind: 'value-max', limit: 1000 } },
      { id: 'gen.huge', title: `generate cold, ${huge} kinds, wall`, unit: 'ms', baselineLabel: 'empty node process', target: { kind: 'value-max', limit: 3000 } },
      { id: 'gen.huge.linear', title: `generate cold, ${huge} kinds vs ${n}`, unit: 'ms', baselineLabel: `${n} kinds`, target: { kind: 'ratio-max', limit: 10 } },
      { id: 'gen.check', title: `generate --check, ${n} kinds, unchanged`, unit: 'ms', baselineLabel: 'generate cold', target: { kind: 'none' } },
      { id: 'gen.watch', title: `--watch regeneration, one-file edit`, unit: 'ms', baselineLabel: 'generate cold', target: { kind: 'value-max', limit: 60 } },
      { id: 'gen.linear', title: `generate cold, ${large} kinds vs ${n}`, unit: 'ms', baselineLabel: `${n} kinds`, target: { kind: 'ratio-max', limit: 4.5 } },
    ],
    async run(ctx: BenchContext): Promise<Record<string, Outcome>> {
      const dir = workDir('codegen');
      const apis = join(dir, 'apis');
      const tsoaDir = join(dir, 'tsoa');
      const kinds = synthesize({ groups: c.groups, kindsPerGroup: c.kindsPerGroup, apisDir: apis, tsoaDir });
      const largeApis = join(dir, 'apis-large');
      synthesize({ groups: c.largeGroups, kindsPerGroup: c.kindsPerGroup, apisDir: largeApis });
      const hugeApis = join(dir, 'apis-huge');
      synthesize({ groups: c.hugeGroups, kindsPerGroup: c.kindsPerGroup, apisDir: hugeApis });
      const hugeOut = join(dir, 'out-huge');
      const out = join(dir, 'out');
      const largeOut = join(dir, 'out-large');
      ctx.log(`codegen: ${n} kinds (and ${large}, ${huge}) in ${dir}`);

      // One untimed run of each warms the OS file cache and tsx's compile cache, as a user's
      // second run would be.
      const warm = c.warmup ? { kgen: (await kgenCold(apis, out)).wallMs, tsoa: (await tsoa(tsoaDir)).wallMs } : undefined;
      const raw = { node: [] as Timed[], cold: [] as Timed[], check: [] as Timed[], tsoa: [] as Timed[], large: [] as Timed[], huge: [] as Timed[] };
      for (let i = 0; i < c.reps; i++) {
        raw.node.push(await timeRun(process.execPath, ['-e', '0']));
        raw.cold.push(await kgenCold(apis, out));
        raw.check.push(await kgenCheck(apis, out));
        if (i < c.tsoaReps) raw.tsoa.push(await tsoa(tsoaDir));
        raw.large.push(await kgenCold(largeApis, largeOut));
        raw.huge.push(await kgenCold(hugeApis, hugeOut));
        ctx.log(`codegen: rep ${i + 1}/${c.reps}: cold ${raw.cold[i]!.wallMs.toFixed(0)} ms, large ${raw.large[i]!.wallMs.toFixed(0)} ms, huge ${raw.huge[i]!.wallMs.toFixed(0)} ms`);
      }
      const watch = await watchEdits(apis, join(dir, 'out-watch'), kinds[0]!, c.watchEdits);
      // `out` holds the last cold run's output of `apis` (the watch wrote its own folder and put
      // the edited kind back).
      offerServerFixture(ctx, { dir, generatedDir: out, kinds });
      const walls = (ts: Timed[]) => ts.map((t) => t.wallMs);
      const cpus = (ts: Timed[]) => ts.map((t) => t.cpuMs);
      const m = {
        node: median(walls(raw.node)),
        cold: median(walls(raw.cold)),
        check: median(walls(raw.check)),
        tsoa: median(walls(raw.tsoa)),
        large: median(walls(raw.large)),
        huge: median(walls(raw.huge)),
        watch: median(watch.wallMs),
        // CPU of the same runs: steadier than the walls when the machine is loaded (a tsoa run that
        // meets a quiet moment moves the wall ratio, not the CPU one).
        coldCpu: median(cpus(raw.cold)),
        tsoaCpu: median(cpus(raw.tsoa)),
      };
      ctx.writeRaw('codegen', {
        kinds: n,
        largeKinds: large,
        hugeKinds: huge,
        warmup: warm,
        wallMs: { node: walls(raw.node), cold: walls(raw.cold), check: walls(raw.check), tsoa: walls(raw.tsoa), large: walls(raw.large), huge: walls(raw.huge), watch: watch.wallMs },
        cpuMs: { node: cpus(raw.node), cold: cpus(raw.cold), check: cpus(raw.check), tsoa: cpus(raw.tsoa), large: cpus(raw.large), huge: cpus(raw.huge) },
        watchReportedMs: watch.reportedMs,
        medians: m,
      });
      return {
        'gen.cold.tsoa': { value: m.cold, baseline: m.tsoa },
        'gen.cold.tsoa.cpu': { value: m.coldCpu, baseline: m.tsoaCpu },
        'gen.cold': { value: m.cold, baseline: m.node },
        'gen.check': { value: m.check, baseline: m.cold },
        'gen.watch': { value: m.watch, baseline: m.cold },
        'gen.linear': { value: m.large, baseline: m.cold },
        'gen.huge': { value: m.huge, baseline: m.node },
        'gen.huge.linear': { value: m.huge, baseline: m.cold },
      };
    },
  };
}

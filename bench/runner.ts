/**
 * Runs a set of benchmarks with one profile and collects their figures; shared by `npm run bench`
 * (bench/run.ts) and the reduced test (test/bench/harness.test.ts).
 */
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { allBenchmarks } from './all.js';
import { makeContext, runBenchmark, type FigureResult } from './lib/harness.js';
import { stopAll } from './lib/procs.js';
import { removeWorkDirs } from './lib/paths.js';
import type { Profile } from './lib/profile.js';

export interface RunOptions {
  profile: Profile;
  resultsDir: string;
  /** Benchmark names to run; all when empty. */
  only?: string[];
  log?: (message: string) => void;
  /**
   * The codegen benchmark's output (its N kinds, generated cold) is the server fixture that
   * http, writes, workers, fanout, memory, paged, startup and client serve, instead of a second
   * `kgen generate` of a set of profile.server's size; so profile.server must be codegen's size.
   * For the reduced test (test/bench/harness.test.ts), where the generates are a large share of the
   * time; `npm run bench` leaves it off and keeps its server set apart from codegen's.
   */
  codegenFixture?: boolean;
}

export interface RunSummary {
  date: string;
  profile: string;
  machine: { cpus: number; cpuModel: string; memTotalGiB: number; memFreeGiB: number; node: string; platform: string; loadAvg1m: number };
  /** The 1-minute load average when the run started: other work on a shared machine skews every figure. */
  loadAvgAtStart: number;
  durationSec: number;
  figures: FigureResult[];
}

export function machine(): RunSummary['machine'] {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model ?? 'unknown',
    memTotalGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    memFreeGiB: Math.round((freemem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform}/${process.arch}`,
    loadAvg1m: Math.round(loadavg()[0]! * 100) / 100,
  };
}

export async function runAll(opts: RunOptions): Promise<RunSummary> {
  const log = opts.log ?? (() => undefined);
  if (opts.codegenFixture) {
    const { codegen, server } = opts.profile;
    if (codegen.groups !== server.groups || codegen.kindsPerGroup !== server.kindsPerGroup) {
      throw new Error(`codegenFixture: the profile's server set (${server.groups} × ${server.kindsPerGroup}) is not codegen's (${codegen.groups} × ${codegen.kindsPerGroup})`);
    }
  }
  const ctx = makeContext(opts.profile, opts.resultsDir, log, opts.codegenFixture);
  const started = performance.now();
  const loadAvgAtStart = Math.round(loadavg()[0]! * 100) / 100;
  const figures: FigureResult[] = [];
  try {
    for (const bench of allBenchmarks(opts.profile)) {
      if (opts.only?.length && !opts.only.includes(bench.name)) continue;
      log(`${bench.name}: starting`);
      figures.push(...(await runBenchmark(bench, ctx)));
      await stopAll();
    }
  } finally {
    await stopAll();
    removeWorkDirs();
  }
  const summary: RunSummary = {
    date: new Date().toISOString(),
    profile: opts.profile.name,
    machine: machine(),
    loadAvgAtStart,
    durationSec: Math.round((performance.now() - started) / 100) / 10,
    figures,
  };
  ctx.writeRaw('summary', summary);
  return summary;
}

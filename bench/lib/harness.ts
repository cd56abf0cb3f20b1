/**
 * The benchmark harness: a benchmark declares the figures it produces, measures each one next to
 * its baseline in the same run, and writes its raw numbers as JSON. A figure is value, baseline,
 * ratio = value / baseline, and a target on either the ratio or the value. A figure that cannot
 * be measured (a backend missing, a run that failed) is reported as n/a with the reason, never
 * left out and never made up.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Profile } from './profile.js';

export type Target =
  | { kind: 'ratio-max'; limit: number }
  | { kind: 'ratio-min'; limit: number }
  | { kind: 'value-max'; limit: number }
  | { kind: 'none' };

export interface FigureSpec {
  id: string;
  title: string;
  /** Unit of value and baseline: 'ms', 'req/s', 'MB', 'µs'. */
  unit: string;
  /** What the baseline is, shown next to it. */
  baselineLabel: string;
  target: Target;
}

export interface Measured {
  value: number;
  baseline: number;
}

export interface NotAvailable {
  na: string;
}

export type Outcome = Measured | NotAvailable;

export interface FigureResult extends FigureSpec {
  value?: number;
  baseline?: number;
  ratio?: number;
  met?: boolean;
  na?: string;
}

export interface BenchContext {
  profile: Profile;
  resultsDir: string;
  log(message: string): void;
  /** Writes `<resultsDir>/<name>.json`. */
  writeRaw(name: string, data: unknown): void;
  /** Things built once per run and shared by benchmarks (e.g. the generated server fixture). */
  shared: Map<string, Promise<unknown>>;
  /**
   * The codegen benchmark's generated set is also the server fixture (bench/lib/fixture.ts's
   * offerServerFixture), so the benchmarks that serve one skip a generate of their own. Only the
   * reduced test sets it (RunOptions.codegenFixture); `npm run bench` generates its fixture apart.
   */
  codegenFixture: boolean;
}

export interface Benchmark {
  name: string;
  figures: FigureSpec[];
  /** Outcomes by figure id; a figure missing from the result is reported as n/a. */
  run(ctx: BenchContext): Promise<Record<string, Outcome>>;
}

export function isMeasured(o: Outcome | undefined): o is Measured {
  return o !== undefined && 'value' in o;
}

export function evaluate(spec: FigureSpec, outcome: Outcome | undefined): FigureResult {
  if (!isMeasured(outcome)) return { ...spec, na: outcome?.na ?? 'not produced by the benchmark' };
  if (!Number.isFinite(outcome.value) || !Number.isFinite(outcome.baseline) || outcome.baseline === 0) {
    return { ...spec, na: `not a finite measurement (value ${outcome.value}, baseline ${outcome.baseline})` };
  }
  const ratio = outcome.value / outcome.baseline;
  const t = spec.target;
  const met =
    t.kind === 'ratio-max' ? ratio <= t.limit
    : t.kind === 'ratio-min' ? ratio >= t.limit
    : t.kind === 'value-max' ? outcome.value <= t.limit
    : undefined;
  return { ...spec, value: outcome.value, baseline: outcome.baseline, ratio, met };
}

/** Memoises `make` in ctx.shared under `key`. */
export function shared<T>(ctx: BenchContext, key: string, make: () => Promise<T>): Promise<T> {
  let p = ctx.shared.get(key) as Promise<T> | undefined;
  if (!p) {
    p = make();
    ctx.shared.set(key, p);
  }
  return p;
}

export function makeContext(profile: Profile, resultsDir: string, log: (m: string) => void, codegenFixture = false): BenchContext {
  mkdirSync(resultsDir, { recursive: true });
  return {
    profile,
    codegenFixture,
    resultsDir,
    log,
    writeRaw(name, data) {
      writeFileSync(join(resultsDir, `${name}.json`), JSON.stringify(data, null, 2) + '\n');
    },
    shared: new Map(),
  };
}

/** Runs one benchmark; a thrown error turns each of its figures into n/a with the message. */
export async function runBenchmark(bench: Benchmark, ctx: BenchContext): Promise<FigureResult[]> {
  let outcomes: Record<string, Outcome>;
  const started = performance.now();
  try {
    outcomes = await bench.run(ctx);
  } catch (err) {
    const message = (err as Error).message.split('\n')[0]!.slice(0, 200);
    ctx.log(`${bench.name}: failed: ${(err as Error).stack ?? message}`);
    outcomes = Object.fromEntries(bench.figures.map((f) => [f.id, { na: `benchmark failed: ${message}` }]));
  }
  ctx.log(`${bench.name}: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return bench.figures.map((f) => evaluate(f, outcomes[f.id]));
}

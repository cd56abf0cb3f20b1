/**
 * API evolution commands: `kgen diff` of the bundled apis against their committed output (a
 * folder baseline), against `generate --check` of the same apis (the same parse and check, and a
 * compare of every output file); and `kgen validate` of N Widgets (multi-document YAML; 1,000 in
 * `full` and `quick`), against `kgen validate` of one Widget (the fixed cost: start, load,
 * compile). Runs alternate.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Benchmark, BenchContext, Outcome } from '../lib/harness.js';
import { timeRun, type Timed } from '../lib/procs.js';
import { KGEN_BIN, REPO, workDir } from '../lib/paths.js';
import type { Profile } from '../lib/profile.js';
import { median } from '../lib/stats.js';

function widget(i: number): string {
  // Every tenth is invalid, so errors are produced and printed too.
  const replicas = i % 10 === 0 ? 500 : i % 100;
  return `apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata:\n  name: w-${i}\n  namespace: default\nspec:\n  replicas: ${replicas}\n  color: ${['red', 'green', 'blue'][i % 3]}\n  parts:\n  - name: p${i % 7}\n    count: ${1 + (i % 9)}\n    material: steel\n`;
}

async function run(args: string[], what: string, codes: number[] = [0]): Promise<Timed> {
  const t = await timeRun(process.execPath, [KGEN_BIN, ...args], { cwd: REPO });
  if (!codes.includes(t.code ?? -1)) throw new Error(`${what} exited with ${t.code}:\n${t.output.slice(-2000)}`);
  return t;
}

export function evolutionBench(profile: Profile): Benchmark {
  const { objects, reps } = profile.evolution;
  return {
    name: 'evolution',
    figures: [
      { id: 'kgen-diff', title: 'kgen diff, bundled apis against their generated/', unit: 'ms', baselineLabel: 'generate --check of the same apis', target: { kind: 'none' } },
      { id: 'kgen-validate', title: `kgen validate, ${objects.toLocaleString('en-US')} Widgets`, unit: 'ms', baselineLabel: 'kgen validate of 1 Widget', target: { kind: 'none' } },
    ],
    async run(ctx: BenchContext): Promise<Record<string, Outcome>> {
      const dir = workDir('evolution');
      const many = join(dir, 'many.yaml');
      const one = join(dir, 'one.yaml');
      writeFileSync(many, Array.from({ length: objects }, (_, i) => widget(i)).join('---\n'));
      writeFileSync(one, widget(1));
      const diff: number[] = [];
      const check: number[] = [];
      const validateMany: number[] = [];
      const validateOne: number[] = [];
      for (let i = 0; i < reps; i++) {
        diff.push((await run(['diff', './apis', '--against', 'generated'], 'kgen diff')).wallMs);
        check.push((await run(['generate', './apis', '--check'], 'kgen generate --check')).wallMs);
        validateMany.push((await run(['validate', many], `kgen validate (${objects})`, [1])).wallMs);
        validateOne.push((await run(['validate', one], 'kgen validate (1)')).wallMs);
      }
      ctx.writeRaw('evolution', { objects, diff, check, validateMany, validateOne });
      return {
        'kgen-diff': { value: median(diff), baseline: median(check) },
        'kgen-validate': { value: median(validateMany), baseline: median(validateOne) },
      };
    },
  };
}

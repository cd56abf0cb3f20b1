/**
 * The reduced benchmark run: every benchmark of `npm run bench` with the quick profile (tiny
 * sizes and durations). It checks that the harness works end to end and that every figure is
 * produced, as a number with its baseline and ratio or as an explicit n/a with a reason. It
 * asserts no absolute time: these are benchmarks, not timed tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAll } from '../../bench/runner.js';
import { allBenchmarks } from '../../bench/all.js';
import { QUICK } from '../../bench/lib/profile.js';
import { formatMarkdown, formatTable } from '../../bench/lib/table.js';

test('every benchmark runs with the quick profile and produces every figure', async () => {
  const resultsDir = mkdtempSync(join(tmpdir(), 'kgen-bench-results-'));
  try {
    const logs: string[] = [];
    const summary = await runAll({ profile: QUICK, resultsDir, log: (m) => logs.push(m) });
    const expected = allBenchmarks(QUICK).flatMap((b) => b.figures.map((f) => f.id));
    assert.deepEqual(summary.figures.map((f) => f.id), expected);
    for (const f of summary.figures) {
      if (f.na !== undefined) {
        // n/a is allowed only with a reason, and only for what may be missing on a machine (etcd).
        assert.ok(f.na.length > 0, `${f.id}: n/a without a reason`);
        assert.match(f.id, /^etcd\./, `${f.id} is n/a: ${f.na}\n${logs.join('\n')}`);
        continue;
      }
      assert.ok(Number.isFinite(f.value) && f.value! >= 0, `${f.id}: value ${f.value}`);
      assert.ok(Number.isFinite(f.baseline) && f.baseline! > 0, `${f.id}: baseline ${f.baseline}`);
      assert.equal(f.ratio, f.value! / f.baseline!);
      if (f.target.kind !== 'none') assert.equal(typeof f.met, 'boolean', `${f.id}: met`);
    }
    const table = formatTable(summary.figures);
    for (const f of summary.figures) assert.ok(table.includes(f.title), `table lists ${f.title}`);
    assert.equal(formatMarkdown(summary.figures).split('\n').length, summary.figures.length + 2);
    // Raw numbers: one JSON file per benchmark that measured something, and the summary.
    for (const name of ['codegen', 'http', 'sqlite-create', 'fanout', 'memory', 'startup', 'client', 'summary']) {
      const file = join(resultsDir, `${name}.json`);
      assert.ok(existsSync(file), `${name}.json written`);
      JSON.parse(readFileSync(file, 'utf8'));
    }
  } finally {
    rmSync(resultsDir, { recursive: true, force: true });
  }
});

/**
 * The reduced benchmark run: every benchmark of `npm run bench` with the quick profile cut to
 * its smallest (SMALLEST below). It checks that the harness works end to end and that every
 * figure is produced, as a number with its baseline and ratio or as an explicit n/a with a
 * reason. It asserts no absolute time: these are benchmarks, not timed tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAll } from '../../bench/runner.js';
import { allBenchmarks } from '../../bench/all.js';
import { QUICK, type Profile } from '../../bench/lib/profile.js';
import { formatMarkdown, formatTable } from '../../bench/lib/table.js';

/**
 * The quick profile cut to the least that still runs every part of every benchmark: one of
 * everything that is repeated, a few of what is paged, fanned out or compared. The generated sets
 * keep four kinds per group, so they still hold every shape the synthesizer makes (namespaced with
 * and without scale, cluster-scoped). Most of what is left is process start-up (generate, serve,
 * tsoa, the load and client workers), which no size removes. The server set is codegen's, since the
 * run serves codegen's output (runAll's codegenFixture) rather than generating a set of its own;
 * evolution validates 20 Widgets (two of them invalid) rather than 1,000.
 */
const SMALLEST: Profile = {
  ...QUICK,
  codegen: { groups: 1, kindsPerGroup: 4, largeGroups: 2, hugeGroups: 2, reps: 1, tsoaReps: 1, watchEdits: 1, warmup: false },
  server: { groups: 1, kindsPerGroup: 4 },
  load: { connections: 2, durationSec: 0.2, warmupSec: 0, rounds: 1 },
  list: { objects: 4 },
  paged: { objects: 6, limit: 2, rounds: 1 },
  etcd: { connections: 2, objects: 4 },
  fanout: { watchers: 2, updates: 2, intervalMs: 10, largeWatchers: 3, largeUpdates: 2, largeIntervalMs: 10 },
  memory: { objects: 20, reads: 1, readIntervalMs: 20, measureEmpty: false },
  startup: { reps: 1, warm: false },
  client: { requests: 10, blocks: 2 },
  informer: { objects: 10, reps: 1 },
  evolution: { objects: 20, reps: 1 },
};

test('every benchmark runs with the smallest profile and produces every figure', async () => {
  const resultsDir = mkdtempSync(join(tmpdir(), 'kgen-bench-results-'));
  try {
    const logs: string[] = [];
    const summary = await runAll({ profile: SMALLEST, resultsDir, log: (m) => logs.push(m), codegenFixture: true });
    // The servers served codegen's output: no generate of a server set of its own.
    assert.equal(logs.filter((m) => m.startsWith("server fixture: codegen's output in ")).length, 1, logs.join('\n'));
    const expected = allBenchmarks(SMALLEST).flatMap((b) => b.figures.map((f) => f.id));
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

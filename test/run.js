#!/usr/bin/env node
// Runs every *.test.ts under test/ with node's test runner and tsx. `npm test -- <filter>`
// runs only files whose path contains the filter. `--conditions=kgen:source` resolves @kgen/client
// to its TypeScript sources, so tests need no build and share one copy of its modules.
// Each file runs in its own process, two at a time, slowest first (weights in test/file-weights.json),
// so the run does not end on one long file alone. At the end it prints the slowest files' wall times.
// KGEN_TEST_RECORD_WEIGHTS=1 on a whole run (no filter) on a quiet machine writes those weights anew.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const filters = process.argv.slice(2);

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name === 'fixtures') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path));
    else if (name.endsWith('.test.ts')) out.push(relative(root, path));
  }
  return out;
}

const weightsFile = join(root, 'test', 'file-weights.json');

/** Seconds each file took in a recorded whole run; files not listed (new ones) weigh 0. */
function weights() {
  try {
    return JSON.parse(readFileSync(weightsFile, 'utf8')).seconds ?? {};
  } catch {
    return {};
  }
}

function readTimings(timingsFile) {
  try {
    return readFileSync(timingsFile, 'utf8').split('\n').filter(Boolean)
      .map((l) => l.split('\t')).map(([ms, cpu, file]) => ({ ms: Number(ms), cpu: Number(cpu), file }));
  } catch {
    return [];
  }
}

function recordWeights(rows, loadavg) {
  const seconds = {};
  for (const r of [...rows].sort((a, b) => b.ms - a.ms || (a.file < b.file ? -1 : 1))) seconds[r.file] = Math.round(r.ms / 100) / 10;
  const note = `Wall seconds per test file in a whole run (load average ${loadavg}), written by KGEN_TEST_RECORD_WEIGHTS=1 node test/run.js; test/run.js starts the heaviest first. Only the order matters.`;
  writeFileSync(weightsFile, JSON.stringify({ note, seconds }, null, 1) + '\n');
}

/** Heaviest first; ties keep the path order, so the order is deterministic. */
function byWeight(files) {
  const w = weights();
  return files
    .map((file, i) => ({ file, i, s: w[file] ?? 0 }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.file);
}

function printSlowest(rows, wallMs, count = 15) {
  if (rows.length === 0) return;
  rows = [...rows].sort((a, b) => b.ms - a.ms);
  const sum = (key) => (rows.reduce((s, r) => s + r[key], 0) / 1000).toFixed(0);
  const fmt = (ms) => (ms / 1000).toFixed(1).padStart(7);
  const out = [`\n# slowest test files (${rows.length} files: wall ${sum('ms')} s, CPU ${sum('cpu')} s in all; the run took ` +
    `${(wallMs / 1000).toFixed(0)} s; CPU counts reaped children)`, '#  wall s    CPU s  file'];
  for (const r of rows.slice(0, count)) out.push(`# ${fmt(r.ms)}  ${fmt(r.cpu)}  ${r.file}`);
  console.log(out.join('\n'));
}

const files = byWeight(walk(join(root, 'test')).filter((f) => filters.length === 0 || filters.some((x) => f.includes(x))));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const timingsDir = mkdtempSync(join(tmpdir(), 'kgen-test-timings-'));
const timingsFile = join(timingsDir, 'timings.tsv');
const started = Date.now();
const result = spawnSync(
  process.execPath,
  [
    '--conditions=kgen:source', '--import', 'tsx', '--import', './test/support/file-timing.mjs',
    '--test', '--test-concurrency=2', '--test-timeout=300000', ...files,
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, KGEN_TEST_TIMINGS: timingsFile } },
);
const timings = readTimings(timingsFile);
printSlowest(timings, Date.now() - started);
if (process.env.KGEN_TEST_RECORD_WEIGHTS === '1' && filters.length === 0) recordWeights(timings, loadavg().map((x) => x.toFixed(1)).join(' '));
rmSync(timingsDir, { recursive: true, force: true });
process.exit(result.status ?? 1);

#!/usr/bin/env node
// Runs every *.test.ts under test/ with node's test runner and tsx. `npm test -- <filter>`
// runs only files whose path contains the filter. `--conditions=kgen:source` resolves @kgen/client
// to its TypeScript sources, so tests need no build and share one copy of its modules.
// Each file runs in its own process, two at a time, slowest first (weights in test/file-weights.json),
// so the run does not end on one long file alone. At the end it prints the slowest files' wall times.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

/** Seconds each slow file took in a recorded quiet run; files not listed weigh 0. */
function weights() {
  try {
    return JSON.parse(readFileSync(join(root, 'test', 'file-weights.json'), 'utf8')).seconds ?? {};
  } catch {
    return {};
  }
}

/** Heaviest first; ties keep the path order, so the order is deterministic. */
function byWeight(files) {
  const w = weights();
  return files
    .map((file, i) => ({ file, i, s: w[file] ?? 0 }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.file);
}

function printSlowest(timingsFile, wallMs, count = 15) {
  let lines;
  try {
    lines = readFileSync(timingsFile, 'utf8').split('\n').filter(Boolean);
  } catch {
    return;
  }
  const rows = lines.map((l) => l.split('\t')).map(([ms, cpu, file]) => ({ ms: Number(ms), cpu: Number(cpu), file }));
  rows.sort((a, b) => b.ms - a.ms);
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
printSlowest(timingsFile, Date.now() - started);
rmSync(timingsDir, { recursive: true, force: true });
process.exit(result.status ?? 1);

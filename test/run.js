#!/usr/bin/env node
// Runs every *.test.ts under test/ with node's test runner and test/support/ts-loader.mjs (tsx's
// compile of the TypeScript, without tsx's costlier hooks). `npm test -- <filter>`
// runs only files whose path contains the filter. `--conditions=kgen:source` resolves @kgen/client
// to its TypeScript sources, so tests need no build and share one copy of its modules.
// Each file runs in its own process, three at a time (KGEN_TEST_CONCURRENCY=<n> for n): on two
// cores, because the files' summed wall is ~1.3 × their CPU (kubectl, etcd, browsers and servers
// they wait on), a third slot uses the time a file waits (2c006bf-c7c873b: 1,691-1,864 s of summed
// wall for 1,428 s of CPU), in path order: with the files' measured times that order already ends
// within a second of the best packing of two slots (the last files are small), so no weights are
// kept. At the end it prints the slowest files' wall and CPU times;
// KGEN_TEST_TIMINGS=<file> also keeps every file's times in that file.
// The server fixture (test/fixtures/server-apis, which test/server/testserver.ts serves in ~85
// files) is compiled once, here, with `kgen generate`, rather than by the generator in each of
// those processes (~1.5 s of CPU each: loading the TypeScript compiler through tsx and compiling),
// and only when a selected file reaches testserver.ts (needsServerFixture).
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
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

function readTimings(timingsFile) {
  try {
    return readFileSync(timingsFile, 'utf8').split('\n').filter(Boolean)
      .map((l) => l.split('\t')).map(([ms, cpu, file]) => ({ ms: Number(ms), cpu: Number(cpu), file }));
  } catch {
    return [];
  }
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

/**
 * Compiles test/fixtures/server-apis into a new directory under test/.tmp (inside the repo, so that
 * its `kgen/...` imports resolve to this package) and returns it. The files that serve it
 * (test/server/testserver.ts) only read it; the caller removes it after the run.
 */
function compileServerFixture() {
  mkdirSync(join(root, 'test', '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(root, 'test', '.tmp', 'server-generated-run-'));
  const r = spawnSync(process.execPath, ['bin/kgen.js', 'generate', 'test/fixtures/server-apis/apis', '--out', dir], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    console.error(`test/fixtures/server-apis does not compile:\n${r.stdout}${r.stderr}`);
    process.exit(1);
  }
  return dir;
}

/**
 * Does any of `files` import test/server/testserver.ts, directly or through other modules under
 * test/ (relative static imports, `import '…'` and `export … from '…'`)? Only those need the
 * compiled fixture. A miss costs time, not correctness: testserver.ts compiles its own copy when
 * KGEN_TEST_SERVER_FIXTURE is not set.
 */
function needsServerFixture(files) {
  const target = join(root, 'test', 'server', 'testserver.ts');
  const seen = new Set();
  const stack = files.map((f) => join(root, f));
  while (stack.length > 0) {
    const file = stack.pop();
    if (file === target) return true;
    if (seen.has(file)) continue;
    seen.add(file);
    let text;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      const path = join(dirname(file), m[1]).replace(/\.js$/, '.ts');
      if (path.startsWith(join(root, 'test'))) stack.push(path);
    }
  }
  return false;
}

const files = walk(join(root, 'test')).filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const concurrency = Number.parseInt(process.env.KGEN_TEST_CONCURRENCY ?? '', 10) || 3;
const started = Date.now();
const fixtureDir = process.env.KGEN_TEST_SERVER_FIXTURE || !needsServerFixture(files) ? undefined : compileServerFixture();
// Ctrl-C reaches node --test too: wait for it to end, then remove the fixture as after any run.
process.on('SIGINT', () => {});
// KGEN_TEST_TIMINGS=<file> keeps every file's line ("wall ms, CPU ms, file") there after the run.
const kept = process.env.KGEN_TEST_TIMINGS;
const timingsDir = kept ? undefined : mkdtempSync(join(tmpdir(), 'kgen-test-timings-'));
const timingsFile = kept ?? join(timingsDir, 'timings.tsv');
const result = spawnSync(
  process.execPath,
  [
    '--conditions=kgen:source', '--import', './test/support/ts-loader.mjs', '--import', './test/support/file-timing.mjs',
    '--test', `--test-concurrency=${concurrency}`, '--test-timeout=300000', ...files,
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, KGEN_TEST_TIMINGS: timingsFile, ...(fixtureDir ? { KGEN_TEST_SERVER_FIXTURE: fixtureDir } : {}) },
  },
);
if (fixtureDir) rmSync(fixtureDir, { recursive: true, force: true });
const timings = readTimings(timingsFile);
printSlowest(timings, Date.now() - started);
if (timingsDir) rmSync(timingsDir, { recursive: true, force: true });
process.exit(result.status ?? 1);

/**
 * `kgen generate` and `kgen diff` run kgen as cached bundles (bin/kgen.js, bin/loader/bundle.js)
 * sharing one cache directory. `generate`'s entry bundle holds none of the other commands'
 * lazily imported modules (the generator is its CommonJS chunk, kept in the V8 code cache; an ES
 * module entry is parsed whole on every run), and `diff`, whose entry does bundle the generator,
 * must never be handed `generate`'s bundle (or the reverse) when both run from the same cache.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const KGEN = fileURLToPath(new URL('../../bin/kgen.js', import.meta.url));
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'kgen-generate-bundle-'));
const cacheDir = join(work, 'cache');
after(() => rmSync(work, { recursive: true, force: true }));

function kgen(args: string[]) {
  const r = spawnSync(process.execPath, [KGEN, ...args], { cwd: REPO, env: { ...process.env, KGEN_CACHE_DIR: cacheDir, KGEN_DIST: '0' }, encoding: 'utf8', timeout: 300_000 });
  return { status: r.status, out: r.stdout + r.stderr };
}

/** The modules bundled into each entry bundle (esbuild's `// path` comments), by bundle file. */
function entryBundles(): Map<string, string[]> {
  const bundles = new Map<string, string[]>();
  for (const name of readdirSync(cacheDir)) {
    if (!/^bundle-.*\.mjs$/.test(name)) continue;
    bundles.set(name, [...readFileSync(join(cacheDir, name), 'utf8').matchAll(/^\/\/ ((?:cli|generator|runtime)\/\S+\.ts)$/gm)].map((m) => m[1]!));
  }
  return bundles;
}

test('generate and diff share a cache directory, each with its own entry bundle; generate\'s holds no other command\'s modules', () => {
  const out = join(work, 'out');
  const noBaseline = join(work, 'no-baseline');
  mkdirSync(noBaseline);
  const gen = kgen(['generate', './apis', '--out', out]);
  assert.equal(gen.status, 0, gen.out);
  const afterGenerate = entryBundles();
  assert.equal(afterGenerate.size, 1, [...afterGenerate.keys()].join(', '));
  const generateModules = [...afterGenerate.values()][0]!;
  assert.ok(generateModules.includes('cli/generate-command.ts'), generateModules.join(' '));
  assert.deepEqual(generateModules.filter((m) => m.startsWith('generator/') || m === 'cli/docs.ts' || m === 'cli/evolution.ts'), []);

  // diff after generate: its own bundle (the generator bundled into its entry), not generate's.
  const diff = kgen(['diff', './apis', '--against', noBaseline]);
  assert.equal(diff.status, 2, diff.out);
  assert.match(diff.out, /has no api-snapshot\.json/);
  const afterDiff = entryBundles();
  assert.equal(afterDiff.size, 2);
  const diffModules = [...afterDiff].find(([name]) => !afterGenerate.has(name))![1];
  assert.ok(diffModules.includes('generator/index.ts'), diffModules.join(' '));

  // And generate again after diff, from its cached bundle, with the same output.
  const check = kgen(['generate', './apis', '--out', out, '--check']);
  assert.equal(check.status, 0, check.out);
  assert.equal(entryBundles().size, 2);
});

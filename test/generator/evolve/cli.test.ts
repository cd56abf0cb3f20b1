/**
 * The evolution commands end to end: `kgen generate --check --against`, `kgen diff` and the
 * warning `kgen generate` prints before it overwrites an output holding a snapshot.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO, cleanedTempDirs } from '../helpers.js';

/** Temp dirs under test/.tmp, removed when this file's tests are done. */
const tempDir = cleanedTempDirs();

const kgen = (args: string[], cwd = REPO) => spawnSync(process.execPath, [join(REPO, 'bin/kgen.js'), ...args], { cwd, encoding: 'utf8', timeout: 60_000 });

test('--check --against HEAD passes on this repository (the committed output is the baseline)', () => {
  const r = kgen(['generate', './apis', '--check', '--against', 'HEAD']);
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /KG06|KG07/);
});

test('a breaking change of apis/ fails --check --against, is listed by kgen diff and warned about by generate', () => {
  const dir = tempDir('evolve-cli');
  const apis = join(dir, 'apis');
  cpSync(join(REPO, 'apis'), apis, { recursive: true });
  const out = join(dir, 'generated');
  assert.equal(kgen(['generate', apis, '--out', out, '--no-builtins']).status, 0);
  const base = join(dir, 'base');
  cpSync(out, base, { recursive: true });

  const file = join(apis, 'widgets.example.com/v1/widget.ts');
  const source = readFileSync(file, 'utf8');
  // Widget .spec.replicas: @maximum 100 → 50, a tightening (KG065) reported at the field's line.
  const tightened = source.replace('   * @maximum 100\n', '   * @maximum 50\n');
  assert.notEqual(tightened, source, 'apis/ Widget has @maximum 100 on replicas');
  writeFileSync(file, tightened);
  const line = tightened.split('\n').indexOf('  replicas?: int32;') + 1;

  const check = kgen(['generate', apis, '--out', out, '--no-builtins', '--check', '--against', base]);
  assert.equal(check.status, 1);
  assert.match(check.stderr, new RegExp(`widget\\.ts:${line}:\\d+ - error KG065: widgets\\.example\\.com/v1 Widget: \\.spec\\.replicas: validation tightened: maximum 100 → 50`));
  assert.match(check.stderr, /hint: Tighter validation/);

  const diff = kgen(['diff', apis, '--against', base, '--no-builtins', '--json']);
  assert.equal(diff.status, 1, diff.stderr);
  const report = JSON.parse(diff.stdout) as { breaking: number; changes: { code?: string; line: number; severity: string }[] };
  assert.equal(report.breaking, 1);
  assert.deepEqual(report.changes.map((c) => [c.code, c.severity, c.line]), [['KG065', 'error', line]]);

  const text = kgen(['diff', apis, '--against', base, '--no-builtins']);
  assert.equal(text.status, 1);
  assert.match(text.stdout, /Breaking \(1\):\n {2}.*widget\.ts:\d+ {2}KG065 widgets\.example\.com\/v1 Widget \.spec\.replicas: maximum 100 → 50/);

  const generate = kgen(['generate', apis, '--out', out, '--no-builtins']);
  assert.equal(generate.status, 0, generate.stderr);
  assert.match(generate.stderr, /warning KG065/);
  assert.match(generate.stderr, /1 breaking change against the previous/);
  // Now the output is the baseline: nothing more to report.
  const again = kgen(['generate', apis, '--out', out, '--no-builtins']);
  assert.doesNotMatch(again.stderr, /KG065/);
});

test('kgen diff against a folder without a snapshot, or an unknown git ref, says so and exits 2', () => {
  const dir = tempDir('evolve-nobase');
  const r = kgen(['diff', './apis', '--against', dir]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /has no api-snapshot\.json/);
  const ref = kgen(['diff', './apis', '--against', 'no-such-ref-xyz']);
  assert.equal(ref.status, 2);
  assert.match(ref.stderr, /cannot read no-such-ref-xyz:generated\/api-snapshot\.json from git/);
});

test('a ref starting with "-" is refused before git runs: git would read it as an option', () => {
  const dir = tempDir('evolve-dashref');
  // `git show --output=<file>` writes its output to <file>; as a ref it must write nothing.
  const target = join(dir, 'written');
  // kgen diff exits 2 on a baseline it cannot read, generate --check 1 (as for an unknown ref).
  for (const [status, args] of [[2, ['diff', './apis', `--against=--output=${target}`]], [1, ['generate', './apis', '--check', `--against=--output=${target}`]]] as const) {
    const r = kgen([...args]);
    assert.equal(r.status, status, r.stderr);
    assert.match(r.stderr, /a ref cannot start with "-"/);
    assert.deepEqual(readdirSync(dir), []);
  }
});

/**
 * The up-to-date check of kgen's own builds (bin/loader/build-stamp.js, used by build.js and
 * packages/client/build.js): an unchanged tree is not built again, and any change to an input or
 * an output (a touch, an edit, a file added or removed), other options, or an input changed while
 * the build ran, builds. Then, that each build watches every file it compiles, and the client's
 * build.js end to end on a copy: built, up to date, then stale after a touch, an edit, a new file
 * and a removed output.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
// A non-literal specifier: bin/loader/build-stamp.js is plain JavaScript without declarations.
const BUILD_STAMP_JS = new URL('../../bin/loader/build-stamp.js', import.meta.url).href;
interface Spec {
  root: string;
  inputs: string[];
  outputs: string;
  options: unknown;
}
const { RACY_MS, recordInputs, staleReason, walkFiles, writeStamp } = (await import(BUILD_STAMP_JS)) as {
  RACY_MS: number;
  recordInputs(root: string, files: string[], nowMs?: number): [string, string][];
  staleReason(stampFile: string, spec: Spec): string | undefined;
  walkFiles(dir: string): string[];
  writeStamp(stampFile: string, stamp: { root: string; inputs: [string, string][]; outputs: string; options: unknown }): boolean;
};

/** A changed ctime without a changed content: what `touch` does. */
function touch(file: string): void {
  const now = new Date();
  utimesSync(file, now, now);
}

describe('build stamps', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kgen-build-stamp-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;

  /** A tree with two inputs and one output, "built" and stamped as a settled build. */
  function built(): { spec: Spec; stampFile: string; src: string } {
    const root = join(dir, `t${n++}`);
    const src = join(root, 'src');
    mkdirSync(src, { recursive: true });
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(src, 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(src, 'b.ts'), 'export const b = 1;\n');
    const spec = { root, inputs: walkFiles(src), outputs: join(root, 'dist'), options: { node: process.version, args: [] } };
    const stampFile = join(root, '.build-stamp.json');
    assert.equal(staleReason(stampFile, spec), 'no stamp of a previous build');
    // Recorded as if the build started RACY_MS later: by identity, as a settled tree is.
    const inputs = recordInputs(root, spec.inputs, Date.now() + RACY_MS + 1000);
    writeFileSync(join(root, 'dist/a.js'), 'export const a = 1;\n');
    assert.equal(writeStamp(stampFile, { root, inputs, outputs: spec.outputs, options: spec.options }), true);
    assert.equal(staleReason(stampFile, spec), undefined);
    return { spec, stampFile, src };
  }

  it('an unchanged tree is up to date; a touched or edited input builds', () => {
    const { spec, stampFile, src } = built();
    touch(join(src, 'a.ts'));
    assert.equal(staleReason(stampFile, spec), 'input src/a.ts changed');
    const other = built();
    appendFileSync(join(other.src, 'b.ts'), '// edited\n');
    assert.equal(staleReason(other.stampFile, other.spec), 'input src/b.ts changed');
  });

  it('an added or removed input builds: the list is walked afresh', () => {
    const { spec, stampFile, src } = built();
    writeFileSync(join(src, 'c.ts'), 'export const c = 1;\n');
    assert.equal(staleReason(stampFile, { ...spec, inputs: walkFiles(src) }), 'input src/c.ts is new');
    rmSync(join(src, 'c.ts'));
    rmSync(join(src, 'a.ts'));
    assert.equal(staleReason(stampFile, { ...spec, inputs: walkFiles(src) }), 'input src/a.ts is gone');
  });

  it('a touched, removed or added output builds', () => {
    const one = built();
    touch(join(one.spec.outputs, 'a.js'));
    assert.equal(staleReason(one.stampFile, one.spec), 'output dist/a.js changed');
    const two = built();
    rmSync(join(two.spec.outputs, 'a.js'));
    assert.equal(staleReason(two.stampFile, two.spec), 'output dist/a.js is gone');
    const three = built();
    writeFileSync(join(three.spec.outputs, 'extra.js'), '\n');
    assert.equal(staleReason(three.stampFile, three.spec), 'output dist/extra.js is new');
  });

  it('other options, or a damaged stamp, build', () => {
    const { spec, stampFile } = built();
    assert.equal(staleReason(stampFile, { ...spec, options: { node: 'v0.0.0', args: [] } }), 'other build options');
    assert.equal(staleReason(stampFile, { ...spec, options: { node: process.version, args: ['--x'] } }), 'other build options');
    writeFileSync(stampFile, '{');
    assert.equal(staleReason(stampFile, spec), 'no stamp of a previous build');
  });

  it('an input changed while the build ran leaves no stamp, so the next run builds', () => {
    const { spec, stampFile, src } = built();
    touch(join(src, 'a.ts'));
    const inputs = recordInputs(spec.root, spec.inputs, Date.now() + RACY_MS + 1000);
    appendFileSync(join(src, 'b.ts'), '// written during the build\n');
    assert.equal(writeStamp(stampFile, { root: spec.root, inputs, outputs: spec.outputs, options: spec.options }), false);
    assert.equal(existsSync(stampFile), false);
    assert.equal(staleReason(stampFile, spec), 'no stamp of a previous build');
  });

  it('an input changed moments before the build is recorded by content: a same-size rewrite that keeps its times is still seen', () => {
    const { spec, stampFile, src } = built();
    const file = join(src, 'a.ts');
    writeFileSync(file, 'export const a = 2;\n');
    const inputs = recordInputs(spec.root, spec.inputs);
    assert.match(new Map(inputs).get('src/a.ts')!, /^sha1:/);
    assert.equal(writeStamp(stampFile, { root: spec.root, inputs, outputs: spec.outputs, options: spec.options }), true);
    assert.equal(staleReason(stampFile, spec), undefined);
    // What a coarse-timestamp filesystem shows after a rewrite in the same tick: same size, same times.
    const { atime, mtime } = statSync(file);
    writeFileSync(file, 'export const a = 3;\n');
    utimesSync(file, atime, mtime);
    assert.equal(staleReason(stampFile, spec), 'input src/a.ts changed');
  });
});

/** The files a TypeScript entry reaches by relative imports (type-only ones too), transitively. */
function reached(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    if (!/\.(ts|js)$/.test(file)) continue;
    for (const m of readFileSync(file, 'utf8').matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.?\/[^'"]+)\1/g)) {
      const target = resolve(dirname(file), m[2]!);
      queue.push(existsSync(target) ? target : target.replace(/\.js$/, '.ts'));
    }
  }
  return seen;
}

function inputsOf(script: string): Set<string> {
  const result = spawnSync(process.execPath, [script, '--inputs'], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  return new Set(result.stdout.trim().split('\n'));
}

describe('what the builds watch', () => {
  it("kgen's build.js: every file it compiles or imports by path, its configs, @kgen/client's types and the installed packages", () => {
    const inputs = inputsOf(join(REPO, 'build.js'));
    const trees = ['cli', 'generator', 'runtime'].flatMap((t) => walkFiles(join(REPO, t)));
    const missing = [...reached(trees), ...walkFiles(join(REPO, 'generated')), join(REPO, 'build.js'), join(REPO, 'tsconfig.build.json'), join(REPO, 'package.json'), join(REPO, 'node_modules/.package-lock.json')].filter((f) => !inputs.has(f));
    assert.deepEqual(missing, []);
    assert.ok([...inputs].some((f) => f.endsWith('/dist/types/packages/client/src/index.d.ts')), "@kgen/client's .d.ts files");
  });

  it("@kgen/client's build.js: every file src/index.ts reaches, its scripts and configs", () => {
    const client = join(REPO, 'packages/client');
    const inputs = inputsOf(join(client, 'build.js'));
    const files = [...reached([join(client, 'src/index.ts'), join(client, 'build.js')]), ...walkFiles(join(client, 'src'))];
    assert.ok(files.some((f) => f.includes(`${join(REPO, 'runtime/api')}`)), 'the runtime/api modules it shares');
    const missing = [...files, join(client, 'tsconfig.build.json'), join(client, 'package.json'), join(REPO, 'node_modules/.package-lock.json')].filter((f) => !inputs.has(f));
    assert.deepEqual(missing, []);
  });
});

describe("@kgen/client's build.js on a copy", () => {
  // Inside the repository (test/.tmp), so that esbuild and typescript resolve from its
  // node_modules. The copy's src/ is two small modules: what is under test is build.js's use of
  // the stamp (the files it watches are checked above), and a small program builds in a second.
  const root = join(REPO, 'test', '.tmp', `build-stamp-${process.pid}`);
  const client = join(root, 'packages/client');
  after(() => rmSync(root, { recursive: true, force: true }));

  const build = (...args: string[]) => spawnSync(process.execPath, [join(client, 'build.js'), ...args], { encoding: 'utf8' });
  const dryRun = () => {
    const result = build('--dry-run');
    return { status: result.status, out: result.stdout.trim() };
  };

  it('builds, then is up to date; an edit builds again; a new source, a removed output or a touch would', async () => {
    mkdirSync(join(client, 'src'), { recursive: true });
    for (const f of ['build.js', 'browser-plugin.js', 'package.json']) cpSync(join(REPO, 'packages/client', f), join(client, f));
    // The client's tsconfig without @types/node, which these two modules do not need (tsc's
    // parsing of it was most of each build's CPU).
    const tsconfig = JSON.parse(readFileSync(join(REPO, 'packages/client/tsconfig.build.json'), 'utf8'));
    writeFileSync(join(client, 'tsconfig.build.json'), JSON.stringify({ ...tsconfig, compilerOptions: { ...tsconfig.compilerOptions, types: [] } }));
    writeFileSync(join(client, 'src/index.ts'), "export { watched } from './watch.js';\n");
    writeFileSync(join(client, 'src/watch.ts'), 'export const watched = (n: number): number => n + 1;\n');
    for (const f of ['runtime', 'node_modules', 'package-lock.json']) symlinkSync(join(REPO, f), join(root, f));
    mkdirSync(join(root, 'bin/loader'), { recursive: true });
    cpSync(join(REPO, 'bin/loader/build-stamp.js'), join(root, 'bin/loader/build-stamp.js'));
    const copiedAt = Date.now();

    const first = build();
    assert.equal(first.status, 0, first.stderr);
    assert.ok(existsSync(join(client, 'dist/index.js')) && existsSync(join(client, 'dist/types/packages/client/src/index.d.ts')));
    const inode = statSync(join(client, 'dist/index.js')).ino;
    const second = build();
    assert.equal(second.status, 0, second.stderr);
    assert.match(second.stdout, /dist\/ is up to date/);
    assert.equal(statSync(join(client, 'dist/index.js')).ino, inode, 'dist/ left as it was');
    assert.deepEqual(dryRun(), { status: 0, out: '@kgen/client: dist/ is up to date' });

    // The copy's sources were written moments before that build, so it recorded them by content:
    // an edit is seen.
    const index = join(client, 'src/index.ts');
    appendFileSync(index, '// edited\n');
    assert.deepEqual(dryRun(), { status: 1, out: '@kgen/client: would build dist/ (input src/index.ts changed)' });
    // Built again once the other sources are RACY_MS old, so that they are recorded by identity.
    await new Promise((r) => setTimeout(r, Math.max(0, copiedAt + RACY_MS + 100 - Date.now())));
    const rebuilt = build();
    assert.equal(rebuilt.status, 0, rebuilt.stderr);
    assert.doesNotMatch(rebuilt.stdout, /up to date/);
    assert.notEqual(statSync(join(client, 'dist/index.js')).ino, inode, 'built again');
    assert.match(readFileSync(join(client, 'dist/index.js'), 'utf8'), /watched/);
    assert.deepEqual(dryRun(), { status: 0, out: '@kgen/client: dist/ is up to date' });

    writeFileSync(join(client, 'src/new-module.ts'), 'export {};\n');
    assert.deepEqual(dryRun(), { status: 1, out: '@kgen/client: would build dist/ (input src/new-module.ts is new)' });
    rmSync(join(client, 'src/new-module.ts'));
    rmSync(join(client, 'dist/browser.js'));
    assert.deepEqual(dryRun(), { status: 1, out: '@kgen/client: would build dist/ (output dist/browser.js is gone)' });
    touch(join(client, 'src/watch.ts'));
    assert.deepEqual(dryRun(), { status: 1, out: '@kgen/client: would build dist/ (input src/watch.ts changed)' });
  });
});

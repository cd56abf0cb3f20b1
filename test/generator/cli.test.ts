/**
 * `kgen generate` as a user runs it: a real `node bin/kgen.js` process, its exit code, its output,
 * and what it does (and does not do) to the output directory. Outputs go to test/.tmp/.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, constants, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { hostname } from 'node:os';
import { lockPathOf } from '../../generator/write/lock.js';
import { REPO, copyTree, fixtureApis, listTree, snapshotTree, cleanedTempDirs } from './helpers.js';

const BIN = join(REPO, 'bin/kgen.js');
/** Runs bin/kgen.js with a clock the test can stop, for a --watch child (watch-clock.mjs). */
const CLOCK = join(REPO, 'test/generator/watch-clock.mjs');

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function kgen(...args: string[]): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: REPO, encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const rel = (path: string) => relative(REPO, path);
const tmp = cleanedTempDirs();

/**
 * Writes at `out` what `kgen generate <names fixture> --out` writes, for the tests that start from
 * a generated output: the fixture is generated once, by the CLI, and copied (each kgen process
 * costs ~1 s of CPU; what those tests prove is what the next command does to that output).
 */
let namesOutput: string | undefined;
function namesGenerated(out: string): void {
  if (namesOutput === undefined) {
    const first = join(tmp('cli-names'), 'generated');
    const r = kgen('generate', rel(fixtureApis('names')), '--out', rel(first));
    assert.equal(r.status, 0, r.stderr);
    namesOutput = first;
  }
  copyTree(namesOutput, out);
}

/** Nothing but the output directory itself may be left beside it (no half-written swap folders). */
function siblings(outDir: string): string[] {
  return readdirSync(dirname(outDir)).filter((n) => n.includes('.kgen-'));
}

describe('kgen generate', () => {
  test('refuses an --out folder holding files none of which is kgen output, and deletes nothing', () => {
    // `kgen generate ./apis -o .` from a project: the output replaces its folder as a whole, so
    // this deleted apis/, package.json and .git/ (main 702dd17).
    const project = tmp('cli-foreign-out');
    const apis = join(project, 'apis');
    copyTree(fixtureApis('versions'), apis);
    mkdirSync(join(project, '.git'));
    writeFileSync(join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(project, 'package.json'), '{}\n');
    const before = listTree(project);
    const r = kgen('generate', rel(apis), '--out', rel(project));
    assert.equal(r.status, 1, r.stdout);
    assert.match(r.stderr, /^kgen generate: refusing to write .*cli-foreign-out[^:]*: it holds files that are not kgen output \(\.git\/HEAD, apis\/.*, … \(\d+ files\)\), and the output replaces the folder as a whole; choose a new or empty folder, or remove it first\n$/);
    assert.deepEqual(listTree(project), before, 'nothing was deleted or written');
    // An empty folder, and an earlier output, are written as before.
    const empty = join(project, 'empty');
    mkdirSync(empty);
    assert.equal(kgen('generate', rel(apis), '--out', rel(empty)).status, 0);
    writeFileSync(join(empty, 'leftover.txt'), 'x');
    const again = kgen('generate', rel(apis), '--out', rel(empty));
    assert.equal(again.status, 0, again.stderr);
    assert.ok(!existsSync(join(empty, 'leftover.txt')), 'an earlier output is still replaced as a whole');
  });

  test('prints one line per group/version and a summary, and writes the output', () => {
    const out = join(tmp('cli-gen'), 'generated');
    const r = kgen('generate', rel(fixtureApis('versions')), '--out', rel(out));
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    const lines = r.stdout.trimEnd().split('\n');
    assert.deepEqual(
      lines.slice(0, 16).map((l) => l.trim().split(/\s+/)),
      [
        ['core/v1', 'ConfigMap,', 'Endpoints,', 'Event,', 'Namespace,', 'PersistentVolumeClaim,', 'Secret,', 'Service,', 'ServiceAccount'],
        // kgen's other built-in groups.
        ['admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration,', 'ValidatingWebhookConfiguration'],
        ['apiextensions.k8s.io/v1', 'CustomResourceDefinition'],
        ['apiregistration.k8s.io/v1', 'APIService'],
        ['apps/v1', 'Deployment'],
        ['authentication.k8s.io/v1', 'SelfSubjectReview,', 'TokenReview'],
        ['authentication.k8s.io/v1beta1', 'SelfSubjectReview'],
        ['authorization.k8s.io/v1', 'LocalSubjectAccessReview,', 'SelfSubjectAccessReview,', 'SelfSubjectRulesReview,', 'SubjectAccessReview'],
        ['coordination.k8s.io/v1', 'Lease'],
        ['events.k8s.io/v1', 'Event'],
        ['rbac.authorization.k8s.io/v1', 'ClusterRole,', 'ClusterRoleBinding,', 'Role,', 'RoleBinding'],
        ['things.example.com/v2', 'Thing'],
        ['things.example.com/v1', 'Thing'],
        ['things.example.com/v2beta1', 'Thing'],
        ['things.example.com/v1beta1', 'Thing'],
        ['things.example.com/v1alpha1', 'Thing'],
      ],
    );
    const files = listTree(out);
    assert.equal(lines[16], `11 groups, 16 versions, 31 kinds, ${files.length} files`);
    assert.match(lines[17]!, new RegExp(`^wrote ${files.length} changed, removed 0, kept 0 in ${rel(out)}/ in \\d+ ms$`));
    assert.equal(lines.length, 18);
    for (const f of ['index.ts', 'openapi/v3/apis/things.example.com/v2beta1.json', 'storage/things.example.com/v1alpha1/things.ts', 'discovery/aggregated.json']) {
      assert.ok(files.includes(f), f);
    }
    const again = kgen('generate', rel(fixtureApis('versions')), '--out', rel(out));
    assert.equal(again.status, 0);
    assert.match(again.stdout, new RegExp(`wrote 0 changed, removed 0, kept ${files.length} in `));
  });

  test('a bad apis folder exits 1, prints every error with its hint, and leaves the output untouched', () => {
    const out = join(tmp('cli-bad'), 'generated');
    namesGenerated(out);
    const before = snapshotTree(out);
    const bad = fixtureApis('multiple-errors');
    const r = kgen('generate', rel(bad), '--out', rel(out));
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
    const errorLines = r.stderr.split('\n').filter((l) => / - error KG\d{3}: /.test(l));
    assert.equal(errorLines.length, 7, r.stderr);
    for (const line of errorLines) assert.match(line, /^test\/fixtures\/generator\/multiple-errors\/apis\/widgets\.example\.com\/v1(alpha)?\/[abc]\.ts:\d+:\d+ - error KG\d{3}: \S/);
    assert.equal(errorLines[0], `${rel(bad)}/widgets.example.com/v1/a.ts:1:5 - error KG003: invalid argument to "@kgen:resource": scope must be Namespaced or Cluster, got "Global"`);
    assert.ok(r.stderr.includes(`${rel(bad)}/widgets.example.com/v1/b.ts:3:4 - error KG001: unknown marker or tag "@kgen:subresorce"; did you mean "@kgen:subresource"?\n  hint: `));
    assert.equal(r.stderr.split('\n').filter((l) => /^  hint: \S/.test(l)).length, 7);
    assert.match(r.stderr, /\n7 errors; nothing written\.\n$/);
    assert.deepEqual(snapshotTree(out), before, 'the output directory is byte-for-byte untouched');
    assert.deepEqual(siblings(out), []);
  });

  test('a bad apis folder with no existing output creates nothing', () => {
    const out = join(tmp('cli-bad-new'), 'generated');
    const r = kgen('generate', rel(fixtureApis('diagnostics/KG010-any')), '--out', rel(out));
    assert.equal(r.status, 1);
    assert.match(r.stderr, /x\.ts:7:12 - error KG010: type "any" cannot be represented in an API schema\n  hint: \S/);
    assert.equal(existsSync(out), false);
    assert.deepEqual(siblings(out), []);
  });
});

describe('kgen generate: paths that are not what they should be', () => {
  test('a mistyped apis folder, or a file in its place, is KG029 with the reason, for generate, --check and --watch', () => {
    const out = join(tmp('cli-no-apis'), 'generated');
    const missing = join(tmp('cli-no-apis'), 'apsi');
    for (const extra of [[], ['--check'], ['--watch']]) {
      const r = kgen('generate', rel(missing), '--out', rel(out), ...extra);
      assert.equal(r.status, 1, `${extra.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /apsi:1:1 - error KG029: no API files found under "\S*apsi": no such folder\n  hint: \S/);
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
      assert.doesNotMatch(r.stdout, /watching/);
    }
    const file = join(tmp('cli-no-apis'), 'widget.ts');
    writeFileSync(file, 'export interface Widget {}\n');
    const r = kgen('generate', rel(file), '--out', rel(out));
    assert.equal(r.status, 1);
    assert.match(r.stderr, /error KG029: no API files found under "\S*widget\.ts": it is a file, not a folder\n/);
    assert.equal(existsSync(out), false);
  });

  test('an output the file system refuses is one line with its reason, not a stack trace', () => {
    const dir = tmp('cli-bad-out');
    writeFileSync(join(dir, 'a-file'), '');
    const r = kgen('generate', rel(fixtureApis('names')), '--out', rel(join(dir, 'a-file', 'generated')));
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^kgen generate: cannot write the output: ENOTDIR: not a directory, \S+ '\S*a-file\/\S+'\n$/);
  });
});

describe('kgen generate --check', () => {
  test('exits 0 when up to date and writes nothing', () => {
    const out = join(tmp('cli-check'), 'generated');
    namesGenerated(out);
    const before = snapshotTree(out);
    const r = kgen('generate', rel(fixtureApis('names')), '--out', rel(out), '--check');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, `${rel(out)}/ is up to date (${Object.keys(before).length} files)\n`);
    assert.deepEqual(snapshotTree(out), before);
  });

  test('exits 1 naming stale, missing and extra files, and writes nothing', () => {
    const out = join(tmp('cli-check'), 'generated');
    namesGenerated(out);
    writeFileSync(join(out, 'models/names.example.com/v1.ts'), '// edited by hand\n');
    unlinkSync(join(out, 'discovery/apis.json'));
    writeFileSync(join(out, 'models/leftover.ts'), 'export {};\n');
    const before = snapshotTree(out);
    const r = kgen('generate', rel(fixtureApis('names')), '--out', rel(out), '--check');
    assert.equal(r.status, 1);
    const o = rel(out);
    assert.deepEqual(r.stderr.trimEnd().split('\n'), [
      `stale:   ${o}/models/names.example.com/v1.ts`,
      `missing: ${o}/discovery/apis.json`,
      `extra:   ${o}/models/leftover.ts`,
      `${o}/ is out of date; run: kgen generate ${rel(fixtureApis('names'))} --out ${o}`,
    ]);
    assert.deepEqual(snapshotTree(out), before, 'listing, contents and mtimes unchanged');
    assert.deepEqual(siblings(out), []);
  });

  test('exits 1 when the output does not exist, without creating it', () => {
    const out = join(tmp('cli-check'), 'never-generated');
    const r = kgen('generate', rel(fixtureApis('names')), '--out', rel(out), '--check');
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`^missing: ${rel(out)}/client/core/v1\\.ts$`, 'm'));
    assert.equal(existsSync(out), false);
  });

  test('exits 1 with the diagnostics when the apis do not compile', () => {
    const out = join(tmp('cli-check'), 'generated');
    const r = kgen('generate', rel(fixtureApis('diagnostics/KG013-non-literal-union')), '--out', rel(out), '--check');
    assert.equal(r.status, 1);
    assert.match(r.stderr, /x\.ts:7:9 - error KG013: union type "string \| number" is not supported\n  hint: /);
    assert.match(r.stderr, /1 error; nothing written\./);
    assert.equal(existsSync(out), false);
  });
});

describe('kgen generate --watch', () => {
  /** Collects a child's output and resolves when it matches. */
  function waitFor(child: ChildProcess, stream: 'stdout' | 'stderr', pattern: RegExp, since: { text: string }, timeoutMs = 20_000): Promise<string> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const m = pattern.exec(since.text);
        if (m) {
          cleanup();
          since.text = since.text.slice(m.index + m[0].length);
          resolve(m[0]);
        }
      };
      const onData = () => check();
      const onExit = (code: number | null) => {
        cleanup();
        reject(new Error(`kgen exited (${code}) before printing ${pattern}; output so far:\n${since.text}`));
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out waiting for ${pattern}; output so far:\n${since.text}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        child[stream]!.off('data', onData);
        child.off('exit', onExit);
      };
      child[stream]!.on('data', onData);
      child.on('exit', onExit);
      check();
    });
  }

  test('regenerates after an edit, reports errors without exiting, and recovers', async () => {
    const dir = tmp('cli-watch');
    const apis = copyTree(fixtureApis('names'), join(dir, 'apis'));
    const out = join(dir, 'generated');
    const child = spawn(process.execPath, [BIN, 'generate', apis, '--out', out, '--watch'], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout = { text: '' };
    const stderr = { text: '' };
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout.text += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr.text += d));
    try {
      await waitFor(child, 'stdout', /^watching .*apis\/ for changes/m, stdout);
      assert.ok(existsSync(join(out, 'index.ts')), 'the first generation ran before watching');
      const source = join(apis, 'names.example.com/v1/kinds.ts');
      const original = readFileSync(source, 'utf8');

      // The model, the version's OpenAPI document, swagger.json, the CRDs of the six kinds sharing the type,
      // their client validators, the API snapshot, and the reference page and its search index.
      writeFileSync(source, original.replace('  size?: number;', '  size?: number;\n  label?: string;'));
      await waitFor(child, 'stdout', /^regenerated in \d+ ms \(14 written, 0 removed\)$/m, stdout);
      assert.match(readFileSync(join(out, 'models/names.example.com/v1.ts'), 'utf8'), /label\?: string;/);

      writeFileSync(source, original.replace('  size?: number;', '  size?: any;'));
      await waitFor(child, 'stderr', /kinds\.ts:\d+:\d+ - error KG010: type "any"[\s\S]*1 error; nothing written\./, stderr);
      assert.match(readFileSync(join(out, 'models/names.example.com/v1.ts'), 'utf8'), /label\?: string;/, 'a failed run leaves the output alone');

      writeFileSync(source, original);
      await waitFor(child, 'stdout', /^regenerated in \d+ ms \(14 written, 0 removed\)$/m, stdout);
      assert.doesNotMatch(readFileSync(join(out, 'models/names.example.com/v1.ts'), 'utf8'), /label\?: string;/);
      assert.equal(child.exitCode, null, 'still watching');
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    }
  });

  test('an output folder inside the apis folder is not watched: its own writes never regenerate', async () => {
    const dir = tmp('cli-watch-inside');
    const apis = copyTree(fixtureApis('names'), join(dir, 'apis'));
    const out = join(apis, 'generated');
    const child = spawn(process.execPath, [BIN, 'generate', apis, '--out', out, '--watch'], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout = { text: '' };
    let all = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => ((stdout.text += d), (all += d)));
    try {
      await waitFor(child, 'stdout', /^watching .*apis\/ for changes/m, stdout);
      assert.ok(existsSync(join(out, 'index.ts')), 'the first generation ran before watching');
      const source = join(apis, 'names.example.com/v1/kinds.ts');
      writeFileSync(source, readFileSync(source, 'utf8').replace('  size?: number;', '  size?: number;\n  label?: string;'));
      await waitFor(child, 'stdout', /^regenerated in \d+ ms \(14 written, 0 removed\)$/m, stdout);
      // The writes (output, lock, journal) were events under apis/ before: each write made the next run.
      await new Promise((r) => setTimeout(r, 1500));
      assert.deepEqual(all.match(/^changed: .*$/gm), ['changed: names.example.com/v1/kinds.ts'], all);
      assert.equal(child.exitCode, null, 'still watching');
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    }
  });

  test('a save in two steps a few ms apart is regenerated once, from the second step: the first is never reported or written', async () => {
    // The compile starts on the first event; what it read of the first step (an error here) must
    // neither be printed nor written once the second step arrives within the settle (15 ms). The
    // watcher's clock stands still from before the first step until after the second (watch-clock.mjs),
    // so the second always arrives within the settle, however long this machine takes between the
    // two writes; and the second is written only once the watcher's compile has read the first.
    const dir = tmp('cli-watch-2step');
    const apis = copyTree(fixtureApis('names'), join(dir, 'apis'));
    const out = join(dir, 'generated');
    const child = spawn(process.execPath, [CLOCK, BIN, 'generate', apis, '--out', out, '--watch'], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: { ...process.env, KGEN_TEST_REPORT_READS: '/names.example.com/v1/kinds.ts' },
    });
    const reads: string[] = [];
    let readWaiter: (() => void) | undefined;
    let clockWaiter: (() => void) | undefined;
    child.on('message', (m: { read: string; text: string } | 'stopped' | 'going') => {
      if (typeof m === 'object') {
        reads.push(m.text);
        readWaiter?.();
      } else clockWaiter?.();
    });
    const clock = (what: 'stop' | 'go') => new Promise<void>((resolve) => ((clockWaiter = resolve), child.send(what)));
    const readOf = (marker: string) =>
      new Promise<void>((resolve) => {
        readWaiter = () => reads.some((t) => t.includes(marker)) && resolve();
        readWaiter();
      });
    const stdout = { text: '' };
    const all = { out: '', err: '' };
    child.stdout!.setEncoding('utf8').on('data', (d: string) => ((stdout.text += d), (all.out += d)));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (all.err += d));
    try {
      // The first generation on a loaded machine: as long as the other --watch tests give it.
      await waitFor(child, 'stdout', /^watching .*apis\/ for changes/m, stdout, 60_000);
      const source = join(apis, 'names.example.com/v1/kinds.ts');
      const original = readFileSync(source, 'utf8');
      const fromOut = all.out.length;
      const fromErr = all.err.length;
      await clock('stop');
      writeFileSync(source, original.replace('  size?: number;', '  size?: any;'));
      await readOf('size?: any;'); // the watcher is compiling the first step
      writeFileSync(source, original.replace('  size?: number;', '  size?: number;\n  step?: string;'));
      await clock('go');
      await waitFor(child, 'stdout', /^regenerated in \d+ ms \(14 written, 0 removed\)$/m, stdout);
      // Nothing more comes: no run of the first step, no second run.
      await new Promise((r) => setTimeout(r, 300));
      assert.doesNotMatch(all.err.slice(fromErr), /KG010|nothing written/, 'the first step was compiled and reported');
      assert.equal(all.out.slice(fromOut).match(/^changed: /gm)?.length, 1, all.out.slice(fromOut));
      assert.equal(all.out.slice(fromOut).match(/^regenerated in /gm)?.length, 1, all.out.slice(fromOut));
      assert.match(readFileSync(join(out, 'models/names.example.com/v1.ts'), 'utf8'), /step\?: string;/);
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    }
  });

  test('files removed while a regeneration reads them: it is run again once quiet, and the watch goes on', async () => {
    // The compile starts on the first removal's event while the others are still being removed,
    // so it meets files that are gone (ENOENT) or a half-removed group.
    const dir = tmp('cli-watch-removed');
    const apis = copyTree(fixtureApis('names'), join(dir, 'apis'));
    const bulk = join(apis, 'bulk.example.com', 'v1');
    mkdirSync(bulk, { recursive: true });
    writeFileSync(join(bulk, 'kind.ts'), '/** @kgen:resource */\nexport interface Bulk {\n  spec: BulkSpec;\n}\n\nexport interface BulkSpec {\n  a?: string;\n}\n');
    for (let i = 0; i < 400; i++) writeFileSync(join(bulk, `t${i}.ts`), `export interface T${i} {\n  a?: string;\n}\n`);
    const out = join(dir, 'generated');
    const child = spawn(process.execPath, [BIN, 'generate', apis, '--out', out, '--watch'], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout = { text: '' };
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout.text += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    try {
      await waitFor(child, 'stdout', /^watching .*apis\/ for changes/m, stdout, 60_000);
      assert.ok(existsSync(join(out, 'models/bulk.example.com/v1.ts')));
      rmSync(join(apis, 'bulk.example.com'), { recursive: true });
      await waitFor(child, 'stdout', /^regenerated in \d+ ms/m, stdout, 60_000);
      // A removal slowed past the settle may rightly be regenerated in two steps: the last one ends it.
      let check = kgen('generate', rel(apis), '--out', rel(out), '--check');
      for (const until = Date.now() + 60_000; check.status !== 0 && child.exitCode === null && Date.now() < until; ) {
        await new Promise((r) => setTimeout(r, 500));
        check = kgen('generate', rel(apis), '--out', rel(out), '--check');
      }
      assert.equal(child.exitCode, null, `still watching; stderr:\n${stderr}`);
      assert.equal(check.status, 0, check.stderr);
      assert.equal(existsSync(join(out, 'models/bulk.example.com/v1.ts')), false);
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    }
  });

  test('an edit made while the first generation runs (after it read the file, before it wrote) is regenerated', async () => {
    // The first generation is held between its compile and its write: the output's lock is a FIFO,
    // so the generation's read of the lock's holder blocks until this test writes one, and the
    // test's open of the FIFO returns once that read began (the compile has read every source).
    const dir = tmp('cli-watch-first');
    const apis = copyTree(fixtureApis('names'), join(dir, 'apis'));
    const out = join(dir, 'generated');
    const source = join(apis, 'names.example.com/v1/kinds.ts');
    const original = readFileSync(source, 'utf8');
    const lock = lockPathOf(out);
    execFileSync('mkfifo', [lock]);
    const child = spawn(process.execPath, [BIN, 'generate', apis, '--out', out, '--watch'], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout = { text: '' };
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout.text += d));
    try {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const held = await Promise.race([
        open(lock, 'w'),
        new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), 60_000))),
        new Promise<undefined>((r) => child.once('exit', () => r(undefined))),
      ]);
      // A timer left running kept this file's process alive for a minute after its last test.
      clearTimeout(timer);
      if (!held) {
        closeSync(openSync(lock, constants.O_RDONLY | constants.O_NONBLOCK)); // releases the pending open
        assert.fail('the first generation never read the lock');
      }
      writeFileSync(source, original.replace(/(\n}\n)/, '\n  label?: string;$1'));
      await held.write(`${process.pid} ${hostname()}\n`);
      unlinkSync(lock);
      await held.close();
      await waitFor(child, 'stdout', /^watching .*apis\/ for changes/m, stdout, 60_000);
      await waitFor(child, 'stdout', /^regenerated in \d+ ms/m, stdout, 30_000);
      assert.match(readFileSync(join(out, 'models/names.example.com/v1.ts'), 'utf8'), /label\?: string;/);
      assert.equal(kgen('generate', rel(apis), '--out', rel(out), '--check').status, 0);
    } finally {
      rmSync(lock, { force: true });
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    }
  });

  test('a file replaced (an atomic save, a remove and create) is still watched: every later save regenerates', async () => {
    // node's recursive fs.watch (Linux, node 20) kept watching the replaced inode: the second
    // atomic save and every in-place write after a replacement went unreported.
    const dir = tmp('cli-watch-replace');
    const apis = copyTree(fixtureApis('names'), join(dir, 'apis'));
    const out = join(dir, 'generated');
    const child = spawn(process.execPath, [BIN, 'generate', apis, '--out', out, '--watch'], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout = { text: '' };
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout.text += d));
    try {
      await waitFor(child, 'stdout', /^watching .*apis\/ for changes/m, stdout, 60_000);
      const source = join(apis, 'names.example.com/v1/kinds.ts');
      const original = readFileSync(source, 'utf8');
      const model = join(out, 'models/names.example.com/v1.ts');
      const withField = (name: string) => original.replace(/(\n}\n)/, `\n  ${name}?: string;$1`);
      const saves: [string, (text: string) => void][] = [
        ['atomic save 1', (text) => (writeFileSync(`${source}.tmp`, text), renameSync(`${source}.tmp`, source))],
        ['atomic save 2', (text) => (writeFileSync(`${source}.tmp`, text), renameSync(`${source}.tmp`, source))],
        ['in place after atomic saves', (text) => writeFileSync(source, text)],
        ['remove and create', (text) => (unlinkSync(source), writeFileSync(source, text))],
        ['in place after remove and create', (text) => writeFileSync(source, text)],
      ];
      for (const [i, [what, save]] of saves.entries()) {
        save(withField(`field${i}`));
        await waitFor(child, 'stdout', /^regenerated in \d+ ms/m, stdout, 30_000).catch((err: Error) => assert.fail(`${what}: ${err.message}`));
        // A save regenerated in two steps (remove, then create) ends with the whole file.
        for (const until = Date.now() + 30_000; !readFileSync(model, 'utf8').includes(`field${i}?: string;`) && Date.now() < until; ) {
          await new Promise((r) => setTimeout(r, 100));
        }
        assert.match(readFileSync(model, 'utf8'), new RegExp(`field${i}\\?: string;`), what);
      }
      assert.equal(kgen('generate', rel(apis), '--out', rel(out), '--check').status, 0);
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});

/**
 * The writer's contract (generator/write/): generate writes all of its output or none of it. An
 * existing output gets only its changed files, through a journal; a process killed after any step
 * of that commit leaves a tree that every later reader sees as exactly the old one or exactly the
 * new one (the next write rolls a committed journal forward, `--check` and `kgen serve` refuse a
 * pending one). Unchanged files keep their inode and mtime.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, test } from 'node:test';
import { partsFile } from '../../generator/emit/emitted.js';
import { pendingJournal, recoverOutput } from '../../generator/write/journal.js';
import { lockPathOf, OutputLockedError, readLockHolder, takeOver } from '../../generator/write/lock.js';
import { diffOutput, isUpToDate, newWriteState, writeOutput } from '../../generator/write/writer.js';
import { REPO, fixtureApis, snapshotTree, cleanedTempDirs } from './helpers.js';

type Files = Record<string, string>;
const asEmitted = (files: Files) => Object.entries(files).map(([path, content]) => ({ path, content }));

const tmp = cleanedTempDirs();

/** Every file under dir with its content, and every folder (as `name/`), so that empty folders count. */
function treeOf(dir: string): Files {
  const out: Files = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) {
        out[`${relative(dir, path)}/`] = '';
        walk(path);
      } else out[relative(dir, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(dir);
  return out;
}

/** The tree `files` makes: the files and each folder that holds one. */
function expectedTree(files: Files): Files {
  const out: Files = {};
  for (const [path, content] of Object.entries(files)) {
    out[path] = content;
    for (let d = dirname(path); d !== '.'; d = dirname(d)) out[`${d}/`] = '';
  }
  return out;
}

const siblings = (outDir: string) => readdirSync(dirname(outDir)).filter((n) => n.includes('.kgen-'));

// Changed, kept, added (in a new folder), removed (alone and with its folders), and both ways
// between a file and a folder.
const OLD: Files = {
  'a.txt': 'a, old\n',
  'keep.txt': 'kept\n',
  'sub/x.txt': 'x, old\n',
  'sub/dropped.txt': 'dropped\n',
  'gone/deep/y.txt': 'y\n',
  'gone/z.txt': 'z\n',
  'file-to-dir': 'a file first\n',
  'dir-to-file/inner.txt': 'inside a folder first\n',
};
const NEW: Files = {
  'a.txt': 'a, new\n',
  'keep.txt': 'kept\n',
  'sub/x.txt': 'x, new\n',
  'b.txt': 'b\n',
  'added/deeper/n.txt': 'n\n',
  'file-to-dir/inner.txt': 'a folder now\n',
  'dir-to-file': 'a file now\n',
};

const CHILD = join(REPO, 'test/generator/write-crash-child.ts');
/**
 * The children run as kgen runs its own TypeScript entries (bin/loader/bundle.js, through
 * bundled-child.mjs): writer.ts and lock.ts bundled once by esbuild, the transform the test
 * loader uses, then plain node with no loader hooks thread, the most of each child's start-up
 * (the file starts ~30 of them).
 */
const BUNDLED = join(REPO, 'test/generator/bundled-child.mjs');

/** writeOutput(outDir, files) in a child process killed with SIGKILL after step `dieAt` (-1: none). */
function writeInChild(outDir: string, files: Files, dieAt: number): { killed: boolean; steps?: string[] } {
  const job = join(dirname(outDir), `job-${dieAt}.json`);
  writeFileSync(job, JSON.stringify({ outDir, files: asEmitted(files), dieAt }));
  const r = spawnSync(process.execPath, [BUNDLED, CHILD, job], { cwd: REPO, encoding: 'utf8', timeout: 120_000 });
  rmSync(job);
  if (r.signal === 'SIGKILL') return { killed: true };
  assert.equal(r.status, 0, r.stderr);
  return { killed: false, steps: JSON.parse(r.stdout) };
}

describe('writeOutput: an existing output through a journal', () => {
  test('writes only what changed: unchanged files keep their inode and mtime, gone files and folders are removed', () => {
    const out = join(tmp('write-journal'), 'generated');
    writeOutput(out, asEmitted(OLD));
    const before = snapshotTree(out);
    const diff = writeOutput(out, asEmitted(NEW));
    assert.deepEqual(treeOf(out), expectedTree(NEW));
    assert.deepEqual(diff.unchanged, ['keep.txt']);
    assert.deepEqual(new Set(diff.extra), new Set(['sub/dropped.txt', 'gone/deep/y.txt', 'gone/z.txt', 'file-to-dir', 'dir-to-file/inner.txt']));
    const kept = statSync(join(out, 'keep.txt'));
    assert.equal(kept.ino, before['keep.txt']!.ino);
    assert.equal(kept.mtimeMs, before['keep.txt']!.mtimeMs);
    // The output folder itself is the same folder (not a new tree swapped in).
    assert.deepEqual(siblings(out), []);
    assert.ok(isUpToDate(diffOutput(out, asEmitted(NEW))));
  });

  test("a session's records: files renamed into place get new ones, untouched files keep theirs", () => {
    const out = join(tmp('write-state'), 'generated');
    const state = newWriteState();
    writeOutput(out, asEmitted(OLD), state);
    const keptRecord = state.files.get('keep.txt');
    const dirIno = statSync(out).ino;
    writeOutput(out, asEmitted(NEW), state);
    assert.equal(statSync(out).ino, dirIno, 'the output folder was not replaced');
    assert.equal(state.files.get('keep.txt'), keptRecord);
    for (const [path, content] of Object.entries(NEW)) {
      const record = state.files.get(path)!;
      const st = statSync(join(out, path));
      assert.deepEqual(record, { content, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs }, path);
    }
    assert.equal(state.files.has('sub/dropped.txt'), false);
    // A file changed behind the session's back is read, not trusted to its record.
    writeFileSync(join(out, 'a.txt'), 'edited by hand\n');
    const diff = writeOutput(out, asEmitted(NEW), state);
    assert.deepEqual(diff.stale, ['a.txt']);
    assert.deepEqual(treeOf(out), expectedTree(NEW));
  });

  test('a process killed after any step of the commit leaves exactly the old tree or exactly the new one', () => {
    const base = tmp('write-crash');
    const probe = join(base, 'probe', 'generated');
    mkdirSync(dirname(probe));
    writeOutput(probe, asEmitted(OLD));
    const { steps } = writeInChild(probe, NEW, -1);
    assert.deepEqual(treeOf(probe), expectedTree(NEW));
    const committedAt = steps!.indexOf('journal-committed');
    const finishedAt = steps!.indexOf('journal-removed');
    assert.ok(committedAt > 0 && finishedAt > committedAt, steps!.join(', '));
    // Every kind of step is there: staging, the journal, removals of files and folders, renames.
    for (const kind of ['staged:', 'journal-written', 'removed:', 'removed-dir:', 'renamed:', 'staging-removed']) {
      assert.ok(steps!.some((s) => s.startsWith(kind)), kind);
    }
    for (let k = 0; k < steps!.length; k++) {
      const out = join(base, `crash-${k}`, 'generated');
      mkdirSync(dirname(out));
      writeOutput(out, asEmitted(OLD));
      const { killed } = writeInChild(out, NEW, k);
      assert.equal(killed, true, `killed after ${steps![k]}`);
      const pending = pendingJournal(out);
      // Between the commit point and the journal's removal, readers are told to finish the write.
      assert.equal(pending !== undefined, k >= committedAt && k < finishedAt, `pending journal after ${steps![k]}`);
      if (pending === undefined) {
        // Nothing pending: what is there is a whole tree already (before the commit point, the old one).
        assert.deepEqual(treeOf(out), expectedTree(k < committedAt ? OLD : NEW), `tree after ${steps![k]}`);
      }
      // The next write's recovery: old before the commit point, new from it on; nothing left beside
      // but the dead writer's lock.
      recoverOutput(out);
      assert.deepEqual(treeOf(out), expectedTree(k < committedAt ? OLD : NEW), `recovered after ${steps![k]}`);
      assert.deepEqual(siblings(out), ['.generated.kgen-lock'], `left beside after ${steps![k]}`);
      assert.equal(pendingJournal(out), undefined);
      // And a whole write from there (taking the dead writer's lock over) still ends as the new tree.
      const tookOver: string[] = [];
      writeOutput(out, asEmitted(NEW), undefined, undefined, { onTakeOver: (m) => tookOver.push(m) });
      assert.deepEqual(treeOf(out), expectedTree(NEW));
      assert.equal(tookOver.length, 1);
      assert.deepEqual(siblings(out), []);
    }
  });

  test('a journal that is not whole is never acted on: the old tree stays', () => {
    const out = join(tmp('write-torn'), 'generated');
    writeOutput(out, asEmitted(OLD));
    const committed = join(dirname(out), '.generated.kgen-journal-1-2-3');
    writeFileSync(committed, '{"format":"kgen-journal/1","staging":".generated.kgen-new-1-2-3","write":[],"remove":["a.txt"],"removeDirs":[]}\nsha256:0000\n');
    mkdirSync(join(dirname(out), '.generated.kgen-new-1-2-3'));
    writeFileSync(join(dirname(out), '.generated.kgen-journal-4-5-6.tmp'), '{"format":"kgen-jour');
    recoverOutput(out);
    assert.deepEqual(treeOf(out), expectedTree(OLD));
    assert.deepEqual(siblings(out), []);
  });

  test('a whole journal that reaches outside the output is never acted on (one committed beside a cloned generated/)', () => {
    const root = tmp('write-forged');
    const out = join(root, 'generated');
    writeOutput(out, asEmitted(OLD));
    const victim = join(root, 'victim');
    mkdirSync(victim);
    writeFileSync(join(victim, 'keep.txt'), 'mine');
    writeFileSync(join(root, 'keep.txt'), 'mine too');
    const forged = [
      { staging: '.generated.kgen-new-1-2-3', write: [], remove: ['../keep.txt'], removeDirs: ['../victim'] },
      { staging: '.generated.kgen-new-1-2-4', write: [], remove: [], removeDirs: ['.'] },
      { staging: '../victim', write: [['keep.txt', 'a.txt']], remove: [], removeDirs: [] },
    ];
    forged.forEach((j, i) => {
      const body = JSON.stringify({ format: 'kgen-journal/1', ...j });
      writeFileSync(join(root, `.generated.kgen-journal-9-9-${i}`), `${body}\nsha256:${createHash('sha256').update(body).digest('hex')}\n`);
    });
    writeOutput(out, asEmitted(OLD));
    assert.deepEqual(treeOf(out), expectedTree(OLD));
    assert.equal(readFileSync(join(victim, 'keep.txt'), 'utf8'), 'mine');
    assert.equal(readFileSync(join(root, 'keep.txt'), 'utf8'), 'mine too');
    assert.deepEqual(siblings(out), []);
  });

  test('an output that is a symbolic link is written in the folder it names, and the link stays', () => {
    const base = tmp('write-link');
    const real = join(base, 'elsewhere', 'generated');
    mkdirSync(dirname(real));
    writeOutput(real, asEmitted(OLD));
    const link = join(base, 'generated');
    symlinkSync(real, link);
    writeOutput(link, asEmitted(NEW));
    assert.equal(lstatSync(link).isSymbolicLink(), true);
    assert.deepEqual(treeOf(real), expectedTree(NEW));
    assert.deepEqual(siblings(link), []);
    assert.deepEqual(siblings(real), []);
  });

  test('a new output folder is built beside its name and renamed into place', () => {
    const out = join(tmp('write-new'), 'generated');
    writeOutput(out, asEmitted(NEW));
    assert.deepEqual(treeOf(out), expectedTree(NEW));
    assert.deepEqual(siblings(out), []);
  });
});

describe('a file given as parts (swagger.json)', () => {
  // Past one writev batch (1,024 buffers), with empty parts and parts beyond Latin-1.
  const parts = Array.from({ length: 2_500 }, (_, i) => (i % 700 === 3 ? `“quoted ${i}”` : i % 500 === 7 ? '' : `part ${i},`));
  const joined = parts.join('');

  test('is written as its parts joined, in a new output and in an existing one', () => {
    const out = join(tmp('write-parts'), 'generated');
    writeOutput(out, [partsFile('openapi/v2/swagger.json', parts), { path: 'a.txt', content: 'a\n' }]);
    assert.equal(readFileSync(join(out, 'openapi/v2/swagger.json'), 'utf8'), joined);
    const changed = [...parts.slice(0, -1), 'the last part, changed “again”'];
    writeOutput(out, [partsFile('openapi/v2/swagger.json', changed), { path: 'a.txt', content: 'a\n' }]);
    assert.equal(readFileSync(join(out, 'openapi/v2/swagger.json'), 'utf8'), changed.join(''));
    assert.ok(isUpToDate(diffOutput(out, [{ path: 'openapi/v2/swagger.json', content: changed.join('') }, { path: 'a.txt', content: 'a\n' }])));
  });

  test('a character split between two parts is written whole', () => {
    const out = join(tmp('write-parts-pair'), 'generated');
    const emoji = '\u{1F600}';
    writeOutput(out, [partsFile('x.json', ['"a', emoji[0]!, `${emoji[1]}b"`])]);
    assert.equal(readFileSync(join(out, 'x.json'), 'utf8'), `"a${emoji}b"`);
  });

  test('a session compares it part by part: the same parts are not written again, other ones are', () => {
    const out = join(tmp('write-parts-state'), 'generated');
    const state = newWriteState();
    const path = 'openapi/v2/swagger.json';
    writeOutput(out, [partsFile(path, parts)], state);
    assert.deepEqual(state.files.get(path)!.parts, parts);
    assert.equal(state.files.get(path)!.content, undefined, 'the record holds the parts, not a joined copy');
    const ino = statSync(join(out, path)).ino;
    // The same texts in a new array (what a regeneration that touched nothing here emits).
    assert.deepEqual(writeOutput(out, [partsFile(path, [...parts])], state).unchanged, [path]);
    assert.equal(statSync(join(out, path)).ino, ino);
    const edited = parts.map((p, i) => (i === 1_234 ? 'edited,' : p));
    assert.deepEqual(writeOutput(out, [partsFile(path, edited)], state).stale, [path]);
    assert.equal(readFileSync(join(out, path), 'utf8'), edited.join(''));
    // Without a session (generate --check), the joined content is compared with the disk.
    assert.ok(isUpToDate(diffOutput(out, [partsFile(path, edited)])));
    assert.ok(!isUpToDate(diffOutput(out, [partsFile(path, parts)])));
  });
});

describe('a file given as parts, written again in a session (bytes of unchanged parts reused)', () => {
  test('each write holds its parts joined, whichever parts changed, moved or changed width', () => {
    const out = join(tmp('write-parts-reuse'), 'generated');
    const state = newWriteState();
    const path = 'openapi/v2/swagger.json';
    const base = Array.from({ length: 3_000 }, (_, i) => (i % 300 === 5 ? `“wide ${i}”,` : `part ${i},`));
    const versions = [
      base,
      base.map((p, i) => (i === 10 ? '“now wide”,' : i === 2_900 ? 'narrow again,' : p)), // one narrow part wide, one wide part narrow
      base.map((p, i) => (i === 5 ? 'was wide,' : p)),
      [...base.slice(0, 100), 'inserted,', ...base.slice(100)], // a part inserted: every index after it shifts
      [...base.slice(0, 100), 'inserted,', ...base.slice(100)].map((p, i) => (i === 2_999 ? '' : p)),
      base.map((p) => p), // the same texts in a new array
      base.map((p, i) => (i === 0 ? `${p}\u{1F600}` : p)),
      base.map((p, i) => (i % 20 === 0 ? `changed ${i},` : p)), // changed all over: more chunks than are kept apart
      base.map((p, i) => (i % 20 === 0 ? `changed ${i},` : i === 1_501 ? '“one more”,' : p)),
      base.map((p, i) => (i === 1_501 ? '“one more”,' : p)),
    ];
    for (const parts of versions) {
      writeOutput(out, [partsFile(path, parts)], state);
      assert.equal(readFileSync(join(out, path), 'utf8'), parts.join(''));
    }
    // What a cold run compares: the same bytes.
    assert.ok(isUpToDate(diffOutput(out, [{ path, content: versions.at(-1)!.join('') }])));
  });

  test('one parts array behind two files: a write of one does not reuse bytes the other has since written over', () => {
    // An emitter may hand the same parts to two files (or keep a file's parts across runs). The
    // bytes kept for an array sit in a buffer that the file's write after next reuses as its
    // spare; a file whose last parts are that array must not copy them from there any more.
    const out = join(tmp('write-parts-shared'), 'generated');
    const state = newWriteState();
    const shared = ['aa', 'b', 'cc'];
    const runs: Array<[string[], string[]]> = [
      [shared, shared],
      [shared, ['aa', 'X', 'cc']],
      [shared, ['Y', 'b', 'cc']],
      [['aa', 'b', 'Z'], ['Y', 'b', 'cc']],
    ];
    for (const [a, b] of runs) {
      writeOutput(out, [partsFile('a.txt', a), partsFile('b.txt', b)], state);
      assert.deepEqual([readFileSync(join(out, 'a.txt'), 'utf8'), readFileSync(join(out, 'b.txt'), 'utf8')], [a.join(''), b.join('')]);
    }
  });
});

describe('a pending journal, as the CLI sees it', () => {
  const BIN = join(REPO, 'bin/kgen.js');
  const kgen = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: REPO, encoding: 'utf8', timeout: 120_000 });

  test('generate --check and serve refuse it naming the fix; generate finishes it', () => {
    const out = join(tmp('write-pending'), 'generated');
    const apis = relative(REPO, fixtureApis('names'));
    const o = relative(REPO, out);
    assert.equal(kgen('generate', apis, '--out', o).status, 0);
    const files = snapshotTree(out);
    const real = Object.fromEntries(Object.entries(files).map(([p, f]) => [p, f.content]));
    const edited = { ...real, 'index.ts': `${real['index.ts']}// half-way\n` };
    // The steps of this commit, counted on a copy; then the real one is killed right after its commit point.
    const probe = join(tmp('write-pending-steps'), 'generated');
    writeOutput(probe, asEmitted(real));
    const probeSteps = writeInChild(probe, edited, -1).steps!;
    assert.equal(writeInChild(out, edited, probeSteps.indexOf('journal-committed')).killed, true);
    const journal = pendingJournal(out);
    assert.ok(journal);

    const check = kgen('generate', apis, '--out', o, '--check');
    assert.equal(check.status, 1);
    assert.match(check.stderr, new RegExp(`^${o}/ holds an unfinished write \\(journal .*\\.generated\\.kgen-journal-[^)]+\\); run kgen generate to finish it$`, 'm'));
    assert.match(check.stderr, new RegExp(`^${o}/ is out of date; run: kgen generate ${apis} --out ${o}$`, 'm'));

    const serve = kgen('serve', o, '--port', '0');
    assert.equal(serve.status, 1);
    assert.match(serve.stderr, /^kgen serve: .* holds an unfinished write \(journal .*\); run kgen generate to finish it$/m);

    // generate rolls the journal forward, then writes what the apis make: the edit is undone.
    const gen = kgen('generate', apis, '--out', o);
    assert.equal(gen.status, 0, gen.stderr);
    assert.match(gen.stdout, /wrote 1 changed, removed 0, kept \d+ in /);
    assert.equal(pendingJournal(out), undefined);
    assert.deepEqual(siblings(out), []);
    assert.equal(kgen('generate', apis, '--out', o, '--check').status, 0);
    assert.equal(existsSync(join(out, 'index.ts')), true);
  });
});

const LOCK_CHILD = join(REPO, 'test/generator/write-lock-child.ts');

/** A child process holding `outDir`'s lock for holdMs, once it says so. */
async function holdLock(outDir: string, holdMs: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BUNDLED, LOCK_CHILD, 'hold', outDir, String(holdMs)], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('locked\n')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`lock holder exited (${code}) before taking the lock`)));
  });
  return child;
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.on('exit', (code) => resolve(code))));

/** A pid that is not running: a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('one writer at a time: the output lock', () => {
  /** n files in a few folders, each naming the variant (every file changes between variants). */
  const variant = (name: string, n: number): Files => Object.fromEntries(Array.from({ length: n }, (_, i) => [`d${i % 6}/f${i}.txt`, `${name} ${i}\n`.repeat(200)]));

  test('two processes writing one output at once both succeed, one after the other, and leave one whole tree', async () => {
    const base = tmp('write-race');
    const out = join(base, 'generated');
    const A = variant('A', 60);
    const B = { ...variant('B', 50), 'only-b/x.txt': 'b\n' };
    writeOutput(out, asEmitted(A));
    const rounds = 40;
    const run = (i: number, variants: Files[]) => {
      const job = join(base, `race-${i}.json`);
      writeFileSync(job, JSON.stringify({ outDir: out, variants: variants.map(asEmitted), rounds, waitMs: 60_000 }));
      const child = spawn(process.execPath, [BUNDLED, LOCK_CHILD, 'race', job], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
      let stdout = '';
      child.stdout!.on('data', (d) => (stdout += d));
      return exited(child).then((code) => ({ code, ...(JSON.parse(stdout) as { written: number; errors: string[] }) }));
    };
    const results = await Promise.all([run(0, [B, A]), run(1, [A, B])]);
    for (const r of results) assert.deepEqual({ code: r.code, written: r.written, errors: r.errors }, { code: 0, written: rounds, errors: [] });
    // Each ended on a different variant; whichever wrote last, the tree is that one, whole.
    const tree = treeOf(out);
    assert.ok([A, B].some((v) => isDeepStrictEqual(tree, expectedTree(v))), 'the tree is one variant, whole');
    assert.deepEqual(siblings(out), []);
  });

  test('a second writer waits for the first and then writes', async () => {
    const out = join(tmp('write-wait'), 'generated');
    writeOutput(out, asEmitted(OLD));
    const holder = await holdLock(out, 700);
    const started = Date.now();
    writeOutput(out, asEmitted(NEW), undefined, undefined, { waitMs: 60_000 });
    assert.ok(Date.now() - started >= 300, 'it waited for the holder');
    assert.deepEqual(treeOf(out), expectedTree(NEW));
    assert.equal(await exited(holder), 0);
    assert.deepEqual(siblings(out), []);
  });

  test('a writer that does not get the lock in time fails before writing anything, naming the lock and its holder', async () => {
    const out = join(tmp('write-locked'), 'generated');
    writeOutput(out, asEmitted(OLD));
    const holder = await holdLock(out, 60_000);
    try {
      assert.throws(
        () => writeOutput(out, asEmitted(NEW), undefined, undefined, { waitMs: 300 }),
        (err: Error) => {
          assert.ok(err instanceof OutputLockedError);
          assert.equal(err.lockPath, lockPathOf(out));
          assert.match(err.message, new RegExp(`^${lockPathOf(out).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is held by pid ${holder.pid}, another kgen writing ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/; waited 0\\.\\d s and wrote nothing\\. `));
          return true;
        },
      );
      assert.deepEqual(treeOf(out), expectedTree(OLD));
      assert.deepEqual(siblings(out), ['.generated.kgen-lock']);
    } finally {
      holder.kill();
    }
  });

  test('a stale lock is taken over with a message: its pid not running, or no pid and old', () => {
    const out = join(tmp('write-stale'), 'generated');
    writeOutput(out, asEmitted(OLD));
    const lock = lockPathOf(out);
    const pid = deadPid();
    writeFileSync(lock, `${pid} ${hostname()}\n`);
    const messages: string[] = [];
    writeOutput(out, asEmitted(NEW), undefined, undefined, { waitMs: 60_000, onTakeOver: (m) => messages.push(m) });
    assert.deepEqual(messages, [`took over the stale lock ${lock} (pid ${pid} is not running)`]);
    assert.deepEqual(treeOf(out), expectedTree(NEW));
    assert.equal(existsSync(lock), false);

    // No pid in it (a writer between its open and its write): waited for while young, taken over when old.
    writeFileSync(lock, '');
    assert.throws(() => writeOutput(out, asEmitted(OLD), undefined, undefined, { waitMs: 200, onTakeOver: (m) => messages.push(m) }), OutputLockedError);
    assert.deepEqual(treeOf(out), expectedTree(NEW));
    const old = new Date(Date.now() - 3 * 60_000);
    utimesSync(lock, old, old);
    writeOutput(out, asEmitted(OLD), undefined, undefined, { waitMs: 200, onTakeOver: (m) => messages.push(m) });
    assert.match(messages[1]!, /^took over the stale lock .*\.generated\.kgen-lock \(a writer that has not written its pid, 3 minutes old\)$/);
    assert.deepEqual(treeOf(out), expectedTree(OLD));
    assert.equal(existsSync(lock), false);
  });

  test('a waiter that judged a lock stale does not remove the lock another waiter made after taking it over, even on the same inode', () => {
    // Two waiters see one dead writer's lock. The first takes it over and makes its own lock, which
    // ext4 gives the inode just freed; the second, acting on what it read before, must leave it.
    const out = join(tmp('write-stale-reused'), 'generated');
    writeOutput(out, asEmitted(OLD));
    const lock = lockPathOf(out);
    writeFileSync(lock, `${deadPid()} ${hostname()}\n`);
    const seen = readLockHolder(lock)!;
    rmSync(lock);
    const live = `${process.ppid} ${hostname()}\n`;
    writeFileSync(lock, live);
    // The inode reused (as ext4 does; made certain here), the holder line and mtime those of the new lock.
    const judged = { ...seen, ino: statSync(lock).ino };
    assert.equal(takeOver(lock, judged), false, 'not the lock judged stale');
    assert.equal(readFileSync(lock, 'utf8'), live, 'the other waiter still holds its lock');
    assert.deepEqual(siblings(out), ['.generated.kgen-lock']);
    // The lock judged stale itself is still taken over.
    assert.equal(takeOver(lock, readLockHolder(lock)!), true);
    assert.equal(existsSync(lock), false);
    assert.deepEqual(siblings(out), []);
  });

  test("a waiter with a stale view leaves another's lock in place, not even moved for a moment, and a takeover in progress is not a leftover", () => {
    // Moved aside and put back, the lock was missing for a moment, in which a third waiter took
    // one; and the writer whose lock was moved went on writing beside that one.
    const out = join(tmp('write-stale-unmoved'), 'generated');
    writeOutput(out, asEmitted(OLD));
    const lock = lockPathOf(out);
    writeFileSync(lock, `${process.ppid} ${hostname()}\n`);
    const live = statSync(lock, { bigint: true });
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20); // a later change would show in ctime
    const staleView = { pid: deadPid(), host: hostname(), ino: Number(live.ino), mtimeMs: Number(live.mtimeMs) };
    assert.equal(takeOver(lock, staleView), false);
    const after = statSync(lock, { bigint: true });
    assert.deepEqual([after.ino, after.ctimeNs], [live.ino, live.ctimeNs], 'the same file, never renamed or linked');
    assert.deepEqual(siblings(out), ['.generated.kgen-lock']);
    // While one waiter takes a stale lock over (under its guard), another does not, and the
    // writer holding the output (recovering it) leaves the guard alone.
    const guard = `${lock}.takeover`;
    writeFileSync(guard, '');
    assert.equal(takeOver(lock, readLockHolder(lock)!), false, 'another waiter is taking it over');
    assert.equal(readFileSync(lock, 'utf8'), `${process.ppid} ${hostname()}\n`);
    recoverOutput(out);
    assert.equal(existsSync(guard), true, 'not an interrupted write');
    rmSync(guard);
    assert.equal(takeOver(lock, readLockHolder(lock)!), true);
    assert.deepEqual(siblings(out), []);
  });

  test('kgen generate: --check reports a write in progress; two one-shot runs at once both succeed', async () => {
    const BIN = join(REPO, 'bin/kgen.js');
    const kgen = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: REPO, encoding: 'utf8', timeout: 120_000 });
    const out = join(tmp('write-lock-cli'), 'generated');
    const apis = relative(REPO, fixtureApis('names'));
    const o = relative(REPO, out);
    assert.equal(kgen('generate', apis, '--out', o).status, 0);
    // A write stopped at its commit point, while another process holds the lock: being written.
    const real = Object.fromEntries(Object.entries(snapshotTree(out)).map(([p, f]) => [p, f.content]));
    const edited = { ...real, 'index.ts': `${real['index.ts']}// half-way\n` };
    const probe = join(tmp('write-lock-cli-steps'), 'generated');
    writeOutput(probe, asEmitted(real));
    const probeSteps = writeInChild(probe, edited, -1).steps!;
    assert.equal(writeInChild(out, edited, probeSteps.indexOf('journal-committed')).killed, true);
    const holder = await holdLock(out, 60_000);
    try {
      const check = kgen('generate', apis, '--out', o, '--check');
      assert.equal(check.status, 1);
      assert.match(check.stderr, new RegExp(`^${o}/ is being written by pid ${holder.pid} \\(lock .*\\.generated\\.kgen-lock\\); check again when it is done$`, 'm'));
    } finally {
      holder.kill();
    }
    await exited(holder);
    // The killed holder left its lock: the next generate takes it over, says so, and finishes the write.
    const gen = kgen('generate', apis, '--out', o);
    assert.equal(gen.status, 0, gen.stderr);
    assert.match(gen.stderr, new RegExp(`^warning: took over the stale lock .*\\.generated\\.kgen-lock \\(pid ${holder.pid} is not running\\)$`, 'm'));
    // Two one-shot runs over an edited output at once: both succeed, the tree is whole and current.
    writeFileSync(join(out, 'index.ts'), 'edited\n');
    const both = await Promise.all(
      [0, 1].map(() => {
        const child = spawn(process.execPath, [BIN, 'generate', apis, '--out', o], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
        let stderr = '';
        child.stderr!.on('data', (d) => (stderr += d));
        return exited(child).then((code) => ({ code, stderr }));
      }),
    );
    for (const r of both) assert.deepEqual(r, { code: 0, stderr: '' });
    assert.equal(kgen('generate', apis, '--out', o, '--check').status, 0);
    assert.deepEqual(siblings(out), []);
  });
});

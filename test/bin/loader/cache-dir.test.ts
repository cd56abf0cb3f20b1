/**
 * kgen imports and runs bundles from its cache directory, so a directory someone else can write
 * must never be used (issue 12, item 2). The probe: with node_modules/.cache/kgen not writable
 * (a root-owned install), kgen fell back to <tmpdir>/kgen-cache-<uid> and accepted it when merely
 * writable, so another local user could pre-create it world-writable and plant a bundle.
 *
 * The same holds for tsx's compile cache (<tmpdir>/tsx-<uid>), which kgen's unbundled commands use.
 *
 * The tests that switch users need root (CI runs as root): the child runs as uid 65534 and the
 * "other user" is uid 65533.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { checkCacheDir } from '../../../bin/loader/cache-dir.js';

const CACHE_DIR_JS = fileURLToPath(new URL('../../../bin/loader/cache-dir.js', import.meta.url));
const KGEN = fileURLToPath(new URL('../../../bin/kgen.js', import.meta.url));
const IS_ROOT = process.getuid?.() === 0;
const VICTIM = 65534;
const ATTACKER = 65533;

const work = mkdtempSync(join(tmpdir(), 'kgen-cache-dir-'));
chmodSync(work, 0o755); // the victim (another uid) must be able to reach its tmpdir below
after(() => rmSync(work, { recursive: true, force: true }));

let n = 0;
function fresh(): string {
  const dir = join(work, `case-${n++}`);
  mkdirSync(dir, { mode: 0o755 });
  chmodSync(dir, 0o755);
  return dir;
}

/** Runs cacheDir() in a fresh process; resolves to what it chose and what it said on stderr. */
function chooseIn(env: Record<string, string | undefined>, asUid?: number): { dir: string | null; stderr: string } {
  const script = `import(${JSON.stringify(CACHE_DIR_JS)}).then((m) => console.log(JSON.stringify(m.cacheDir() ?? null)))`;
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, KGEN_NO_CACHE: undefined, KGEN_CACHE_DIR: undefined, ...env })) if (v !== undefined) childEnv[k] = v;
  const res = spawnSync(process.execPath, ['-e', script], { env: childEnv, encoding: 'utf8', timeout: 60_000, ...(asUid === undefined ? {} : { uid: asUid, gid: asUid }) });
  assert.equal(res.status, 0, `child failed: ${res.stderr}`);
  return { dir: JSON.parse(res.stdout.trim()) as string | null, stderr: res.stderr };
}

describe('loader cache directory (issue 12, item 2)', () => {
  it('refuses a <tmpdir>/kgen-cache-<uid> that another user pre-created world-writable, and runs without a cache', () => {
    const tmp = fresh();
    chmodSync(tmp, 0o1777);
    const planted = join(tmp, `kgen-cache-${IS_ROOT ? VICTIM : process.getuid!()}`);
    mkdirSync(planted);
    chmodSync(planted, 0o777);
    writeFileSync(join(planted, 'bundle-planted.mjs'), 'process.exit(42)');
    if (IS_ROOT) {
      chownSync(planted, ATTACKER, ATTACKER);
      // As the victim, node_modules/.cache/kgen (root's) is not writable: the probe's fallback.
      const { dir, stderr } = chooseIn({ TMPDIR: tmp }, VICTIM);
      assert.equal(dir, null, 'a directory another user owns and anyone can write is never used');
      assert.match(stderr, /not using cache directory .*kgen-cache-65534: .*owned by uid 65533/);
    } else {
      const { dir, stderr } = chooseIn({ KGEN_CACHE_DIR: planted, TMPDIR: tmp });
      assert.notEqual(dir, planted);
      assert.match(stderr, /writable by others/);
    }
    assert.deepEqual(readdirSync(planted), ['bundle-planted.mjs'], 'nothing was written to (or read from) the planted directory');
  });

  it('still falls back to a private <tmpdir>/kgen-cache-<uid> it creates itself, mode 0700', () => {
    const tmp = fresh();
    chmodSync(tmp, 0o1777); // like /tmp: anyone may create, no one may replace another's entry
    const { dir } = chooseIn({ TMPDIR: tmp }, VICTIM);
    assert.equal(dir, join(tmp, `kgen-cache-${VICTIM}`));
    const st = lstatSync(dir!);
    assert.equal(st.uid, VICTIM);
    assert.equal(st.mode & 0o777, 0o700);
  });

  it('refuses a KGEN_CACHE_DIR owned by someone else, even one only they can write', () => {
    const dir = join(fresh(), 'cache');
    mkdirSync(dir, { mode: 0o700 });
    if (IS_ROOT) chownSync(dir, ATTACKER, ATTACKER);
    const verdict = IS_ROOT ? checkCacheDir(dir) : checkCacheDir('/');
    assert.equal(verdict.ok, false);
    assert.match((verdict as { reason: string }).reason, /owned by uid/);
    if (IS_ROOT) assert.notEqual(chooseIn({ KGEN_CACHE_DIR: dir }).dir, dir);
  });

  it('refuses a directory of ours that group or others can write', () => {
    for (const mode of [0o777, 0o770, 0o702]) {
      const dir = join(fresh(), 'cache');
      mkdirSync(dir);
      chmodSync(dir, mode);
      const verdict = checkCacheDir(dir, { create: true });
      assert.equal(verdict.ok, false, `mode ${mode.toString(8)}`);
      assert.match((verdict as { reason: string }).reason, /writable by others/);
    }
  });

  it('refuses a directory inside a parent others can write (no sticky bit): they could swap it', () => {
    const parent = fresh();
    chmodSync(parent, 0o777);
    const verdict = checkCacheDir(join(parent, 'cache'), { create: true });
    assert.equal(verdict.ok, false);
    assert.match((verdict as { reason: string }).reason, /writable by others \(mode 777\)/);
    assert.deepEqual(readdirSync(parent), [], 'nothing was created there');
  });

  it('does not follow a symlink someone else planted, but follows one of ours', () => {
    const sticky = fresh();
    chmodSync(sticky, 0o1777);
    const target = join(fresh(), 'real');
    mkdirSync(target, { mode: 0o700 });
    const link = join(sticky, 'kgen-cache');
    symlinkSync(target, link);
    assert.deepEqual(checkCacheDir(link), { ok: true, dir: target }, 'our own symlink to our own private directory is fine');
    spawnSync('chown', ['-h', `${ATTACKER}:${ATTACKER}`, link]);
    assert.equal(lstatSync(link).uid, ATTACKER);
    const verdict = checkCacheDir(link, { create: true });
    assert.equal(verdict.ok, false);
    assert.match((verdict as { reason: string }).reason, /symlink owned by uid 65533/);
  });

  it("keeps tsx's compile cache out of a <tmpdir>/tsx-<uid> another user planted (kgen commands that run through tsx)", () => {
    // tsx caches compiled code in <tmpdir>/tsx-<euid> and runs it from there; in a checkout,
    // `kgen migrate-storage` runs through tsx (`kgen --help` runs the CLI's cached bundle).
    const tmp = fresh();
    chmodSync(tmp, 0o1777);
    const planted = join(tmp, `tsx-${VICTIM}`);
    mkdirSync(planted);
    chmodSync(planted, 0o777);
    chownSync(planted, ATTACKER, ATTACKER);
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'TSX_DISABLE_CACHE' && k !== 'NODE_OPTIONS') env[k] = v;
    const res = spawnSync(process.execPath, [KGEN, 'migrate-storage', '--help'], { env: { ...env, TMPDIR: tmp }, encoding: 'utf8', timeout: 120_000, uid: VICTIM, gid: VICTIM });
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stdout, /migrate-storage/);
    assert.match(res.stderr, /not using tsx's cache .*tsx-65534: .*owned by uid 65533/);
    assert.deepEqual(readdirSync(planted), [], 'tsx wrote (and would have run) nothing there');
    // Without a planted directory, tsx gets a private one and caches as before.
    const clean = fresh();
    chmodSync(clean, 0o1777);
    const ok = spawnSync(process.execPath, [KGEN, 'migrate-storage', '--help'], { env: { ...env, TMPDIR: clean }, encoding: 'utf8', timeout: 120_000, uid: VICTIM, gid: VICTIM });
    assert.equal(ok.status, 0, ok.stderr);
    assert.equal(lstatSync(join(clean, `tsx-${VICTIM}`)).mode & 0o777, 0o700);
    assert.ok(readdirSync(join(clean, `tsx-${VICTIM}`)).length > 0, 'tsx caches in its private directory');
  });

  it('creates a missing directory (and missing parents) with mode 0700 and accepts it', () => {
    const dir = join(fresh(), 'a', 'b');
    assert.deepEqual(checkCacheDir(dir, { create: true }), { ok: true, dir });
    assert.equal(lstatSync(dir).mode & 0o777, 0o700);
    assert.equal(lstatSync(join(dir, '..')).mode & 0o777, 0o700);
  });
});

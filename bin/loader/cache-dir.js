/**
 * Where kgen keeps what it derives from its own code (bundles of its TypeScript, V8 code caches):
 * never anything derived from a user's input. Every entry is written to a temporary name and
 * renamed into place, so concurrent processes see either nothing or a whole file; readers treat a
 * missing or unreadable entry as a miss.
 *
 * kgen imports and runs what it finds here, so a directory is used only when no one but the
 * current user (and root) can change what is in it (see `checkCacheDir`): a directory another local
 * user pre-created in a shared tmp directory, one that anyone can write, or one reached through a
 * path or symlink someone else controls is refused, and kgen then runs without a cache.
 */
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readlinkSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, parse, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The kgen package root (this file is bin/loader/cache-dir.js). */
export const KGEN_ROOT = fileURLToPath(new URL('../../', import.meta.url)).replace(/[\\/]$/, '');

let chosen;

/**
 * tsx, which runs kgen's TypeScript whenever it is not bundled (every command but `generate` and
 * `serve`, `serve --admission`, KGEN_NO_BUNDLE=1, a failed bundle), caches the code it compiles in
 * <tmpdir>/tsx-<euid> and runs it from there without checking who owns that directory: the same
 * planting as above. Its cache is turned off (TSX_DISABLE_CACHE, read once when tsx loads, so this
 * runs when this module is imported, before bin/kgen.js loads tsx) unless that directory passes
 * checkCacheDir; kgen creates it 0700 itself when missing. Processes kgen starts inherit the setting.
 */
export function guardTsxCache() {
  if (process.env.TSX_DISABLE_CACHE || typeof process.geteuid !== 'function') return;
  const dir = join(tmpdir(), `tsx-${process.geteuid()}`);
  const verdict = checkCacheDir(dir, { create: true });
  if (verdict.ok) return;
  process.env.TSX_DISABLE_CACHE = '1';
  if (verdict.unsafe) process.stderr.write(`kgen: not using tsx's cache ${dir}: ${verdict.reason}\n`);
}

/**
 * The cache directory: $KGEN_CACHE_DIR, else <kgen>/node_modules/.cache/kgen, else
 * <tmpdir>/kgen-cache-<uid>, the first that is (or can be created) private to the current user;
 * undefined when none is, or KGEN_NO_CACHE is set. A candidate that exists but is not safe is
 * reported on stderr when it was $KGEN_CACHE_DIR or when kgen ends up without a cache.
 */
export function cacheDir() {
  if (chosen !== undefined) return chosen ?? undefined;
  chosen = null;
  if (process.env.KGEN_NO_CACHE) return undefined;
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  const candidates = [process.env.KGEN_CACHE_DIR, join(KGEN_ROOT, 'node_modules', '.cache', 'kgen'), join(tmpdir(), `kgen-cache-${uid}`)];
  const refused = [];
  for (const dir of candidates) {
    if (!dir) continue;
    const verdict = checkCacheDir(dir, { create: true });
    if (verdict.ok) {
      chosen = verdict.dir;
      break;
    }
    if (verdict.unsafe) refused.push({ dir, reason: verdict.reason, explicit: dir === process.env.KGEN_CACHE_DIR });
  }
  // Said when it matters: the directory asked for is refused, or kgen runs without a cache.
  for (const { dir, reason, explicit } of refused) {
    if (explicit || chosen === null) process.stderr.write(`kgen: not using cache directory ${dir}: ${reason}\n`);
  }
  return chosen ?? undefined;
}

/**
 * Whether `dir` may hold code kgen will run: { ok: true, dir } or { ok: false, reason, unsafe }.
 * `unsafe` is set when the directory exists (or a path to it does) but others could change it;
 * unset when it merely cannot be created or written (a read-only install).
 *
 * The rule: the directory is owned by the current user and no group or other user can write it;
 * every directory above it is owned by the current user or root and is not writable by group or
 * others, unless it has the sticky bit (like /tmp), where others cannot rename or remove what we
 * own in it. A symlink on the way is followed only when it is owned by the current user or root
 * (it lives in a directory checked as above, so no one else can replace it). Checked with lstat,
 * component by component from the root, so nothing someone else controls is followed. With
 * `create`, a missing directory is created with mode 0700 (its missing parents too). Without
 * POSIX ownership (Windows), only writability is required, as before.
 */
export function checkCacheDir(dir, { create = false } = {}) {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const abs = resolve(dir);
  if (uid === undefined) {
    try {
      if (create) mkdirSync(abs, { recursive: true });
      writeFileSync(join(abs, `.probe-${process.pid}`), '');
      rmSync(join(abs, `.probe-${process.pid}`), { force: true });
      return { ok: true, dir: abs };
    } catch (err) {
      return { ok: false, reason: String(err?.message ?? err) };
    }
  }
  return walk(abs, uid, create, 0);
}

const MAX_LINKS = 32;

function walk(abs, uid, create, links) {
  const { root } = parse(abs);
  const parts = abs.slice(root.length).split(sep).filter(Boolean);
  let current = root;
  let st = lstatSync(root);
  let problem = checkAncestor(root, st, uid);
  if (problem) return { ok: false, unsafe: true, reason: problem };
  for (let i = 0; i < parts.length; i++) {
    const next = join(current, parts[i]);
    const last = i === parts.length - 1;
    try {
      st = lstatSync(next);
    } catch (err) {
      if (err?.code !== 'ENOENT' || !create) return { ok: false, reason: `${next}: ${err?.code ?? err}` };
      try {
        mkdirSync(next, { mode: 0o700 });
        st = lstatSync(next);
      } catch (mkErr) {
        return { ok: false, reason: `cannot create ${next}: ${mkErr?.code ?? mkErr}` };
      }
    }
    if (st.isSymbolicLink()) {
      if (st.uid !== uid && st.uid !== 0) return { ok: false, unsafe: true, reason: `${next} is a symlink owned by uid ${st.uid}` };
      if (links >= MAX_LINKS) return { ok: false, unsafe: true, reason: `too many symlinks under ${abs}` };
      const target = readlinkSync(next);
      const rest = parts.slice(i + 1);
      const resolved = resolve(isAbsolute(target) ? target : join(dirname(next), target), ...rest);
      return walk(resolved, uid, create, links + 1);
    }
    if (!st.isDirectory()) return { ok: false, unsafe: true, reason: `${next} is not a directory` };
    if (last) {
      const own = checkOwn(next, st, uid);
      if (own) return own;
    } else {
      problem = checkAncestor(next, st, uid);
      if (problem) return { ok: false, unsafe: true, reason: problem };
    }
    current = next;
  }
  if (parts.length === 0) {
    const own = checkOwn(current, st, uid);
    if (own) return own;
  }
  // Owned by us, so we can make it writable for ourselves (a directory left read-only by hand).
  if ((st.mode & 0o200) === 0) {
    try {
      chmodSync(current, st.mode | 0o700);
    } catch {
      return { ok: false, reason: `${current} is not writable` };
    }
  }
  return { ok: true, dir: current };
}

function checkAncestor(path, st, uid) {
  if (st.uid !== uid && st.uid !== 0) return `${path} is owned by uid ${st.uid}`;
  if ((st.mode & 0o022) !== 0 && (st.mode & 0o1000) === 0) return `${path} is writable by others (mode ${(st.mode & 0o7777).toString(8)})`;
  return undefined;
}

/**
 * The cache directory itself: ours and writable by no one else. One owned by root and closed to
 * others is only unusable (a read-only install), not a warning.
 */
function checkOwn(path, st, uid) {
  const othersWrite = (st.mode & 0o022) !== 0;
  if (st.uid !== uid) return { ok: false, unsafe: othersWrite || st.uid !== 0, reason: `${path} is owned by uid ${st.uid}, not by this user (uid ${uid})` };
  if (othersWrite) return { ok: false, unsafe: true, reason: `${path} is writable by others (mode ${(st.mode & 0o7777).toString(8)})` };
  return undefined;
}

/** Writes `path` whole or not at all (temporary file + rename). Returns false on failure. */
export function writeAtomic(path, data) {
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
    return true;
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
}

export function sha1(...parts) {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex');
}

guardTsxCache();

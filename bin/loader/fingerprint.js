/**
 * What the loaders' manifests (./bundle.js, ./shared.js) record of a source file, and the check
 * that a file still is what a cached bundle was built from.
 *
 * A fingerprint is `<sha1 of the content> <size>:<mtime>:<ctime>:<inode>`, the identity taken
 * before the content is read: a file whose identity is unchanged has not been written since (any
 * write changes ctime), so it matches without being read; another is compared by content.
 * Two races would leave a stale bundle in use, as they would for git's index ("racy git"):
 * - on a filesystem with coarse timestamps a same-size rewrite within the same tick keeps every
 *   field of the identity: a file changed less than RACY_MS before it is fingerprinted is
 *   recorded by content only, so the next run reads it (and, once the file has settled, records
 *   the identity it confirmed: `verifyContent`);
 * - a file changed while esbuild bundles it is hashed after the build, so the new content's hash
 *   would stand beside a bundle of the old: `changedSince` tells the builders not to keep such a
 *   manifest (the next run builds again).
 *
 * The files of installed packages are not recorded one by one (`recordInputs`).
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sha1 } from './cache-dir.js';

/** How recent a change must be for a file's identity not to be trusted. */
export const RACY_MS = 2000;

export function hashFile(path) {
  try {
    return sha1(readFileSync(path));
  } catch {
    return 'missing';
  }
}

function statOf(path) {
  try {
    return statSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

const identityOf = (st) => `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}`;
const ctimeMs = (st) => Number(st.ctimeNs / 1_000_000n);

/** The file's fingerprint (see above); the content hash alone for a missing or just-changed file. */
export function contentFingerprint(path, now = Date.now()) {
  const st = statOf(path);
  const hash = hashFile(path);
  if (st === undefined || now - ctimeMs(st) < RACY_MS) return hash;
  return `${hash} ${identityOf(st)}`;
}

/**
 * Does `path` still match `recorded` (a contentFingerprint)? false when not; true when it does;
 * or, for a file recorded by content only that has settled since (changed RACY_MS ago or more),
 * the record to keep instead: the same hash with the identity the file had when its content was
 * confirmed, so later runs need not read it.
 */
export function verifyContent(path, recorded, now = Date.now()) {
  const [hash, id] = recorded.split(' ');
  const st = statOf(path);
  if (id !== undefined && st !== undefined && identityOf(st) === id) return true;
  if (hashFile(path) !== hash) return false;
  if (id !== undefined || st === undefined || now - ctimeMs(st) < RACY_MS) return true;
  const after = statOf(path);
  return after !== undefined && identityOf(after) === identityOf(st) ? `${hash} ${identityOf(st)}` : true;
}

/**
 * A manifest's `[path, record]` inputs checked with `verify` (verifyContent, or a loader's own
 * check that may defer to it): undefined when one no longer matches; else the inputs to keep and
 * whether any changed (a settled file's identity, to write back).
 */
export function verifyInputs(inputs, verify = verifyContent) {
  let settled = false;
  const kept = [];
  for (const entry of inputs) {
    const [path, recorded] = Array.isArray(entry) ? entry : [];
    const verdict = typeof path === 'string' && typeof recorded === 'string' ? verify(path, recorded) : false;
    if (verdict === false) return undefined;
    if (typeof verdict === 'string') settled = true;
    kept.push([path, typeof verdict === 'string' ? verdict : recorded]);
  }
  return { inputs: kept, settled };
}

export function matchesContent(path, recorded) {
  return verifyContent(path, recorded) !== false;
}

/** Whether any of `paths` changed (ctime) at or after `sinceMs`: it may have changed while bundled. */
export function changedSince(paths, sinceMs) {
  for (const path of paths) {
    const st = statOf(path);
    if (st !== undefined && Number(st.ctimeNs / 1_000_000n) >= sinceMs) return true;
  }
  return false;
}

const NODE_MODULES = /[\\/]node_modules[\\/]/;
/** npm's hidden lockfile: npm rewrites it whenever an install changes node_modules. */
const NPM_HIDDEN_LOCKFILE = '.package-lock.json';

/** `stat:<size>:<mtime>:<ctime>:<inode>` of a file, or `missing`. */
export function statIdentity(path) {
  let st;
  try {
    st = statSync(path, { throwIfNoEntry: false });
  } catch {
    // Not a directory on the way, or not readable: as missing.
  }
  return st === undefined ? 'missing' : `stat:${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
}

/**
 * For a file inside node_modules: its package's package.json (of the innermost
 * `node_modules/<name>` or `node_modules/@scope/<name>`) and npm's hidden lockfile (of the
 * outermost node_modules, the only one npm writes).
 */
function packageOf(path) {
  const outer = /^(.*?[\\/]node_modules)[\\/]/.exec(path);
  const inner = /^(.*[\\/]node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(path);
  if (!outer || !inner) return undefined;
  return { packageJson: join(inner[1], 'package.json'), lockfile: join(outer[1], NPM_HIDDEN_LOCKFILE) };
}

/**
 * The `[path, record]` inputs a manifest lists for the files `paths` a bundle was built from.
 * kgen's own sources and generated code: each file's `contentFingerprint` (they are edited).
 * The files of an installed package: the package as a whole, by the `statIdentity` of its
 * package.json and of npm's hidden lockfile (node_modules/.package-lock.json), ~25 stats for the
 * ~150 files the serve bundle inlines (each stat costs a start ~25 µs here). An install or
 * upgrade with npm rewrites both (npm extracts a package's files anew and rewrites the hidden
 * lockfile whenever it changes node_modules, a nested package included), so either is seen; a
 * file of a package edited by hand is not (touch its package.json, or set KGEN_NO_BUNDLE=1).
 * Without a hidden lockfile (another package manager) or a package.json, each file by its own
 * identity, as before.
 */
export function recordInputs(paths) {
  const records = new Map();
  for (const path of paths) {
    if (!NODE_MODULES.test(path)) {
      records.set(path, contentFingerprint(path));
      continue;
    }
    const pkg = packageOf(path);
    const lock = pkg ? statIdentity(pkg.lockfile) : 'missing';
    const manifest = pkg ? statIdentity(pkg.packageJson) : 'missing';
    if (lock === 'missing' || manifest === 'missing') {
      records.set(path, statIdentity(path));
      continue;
    }
    records.set(pkg.lockfile, lock);
    records.set(pkg.packageJson, manifest);
  }
  return [...records].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Does `path` still match `recorded` (from recordInputs)? As verifyContent. */
export function verifyInput(path, recorded) {
  if (recorded.startsWith('stat:')) return statIdentity(path) === recorded;
  return verifyContent(path, recorded);
}

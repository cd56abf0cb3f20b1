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
 */
import { readFileSync, statSync } from 'node:fs';
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
    return statSync(path, { bigint: true });
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

/**
 * The up-to-date check of kgen's own builds (build.js, packages/client/build.js): a build whose
 * inputs and outputs are exactly as the last build of the same options left them does nothing.
 * `npm pack` runs `prepare` (the whole build) right after `npm install` ran it, and the tests pack.
 *
 * The stamp (a JSON file beside dist/, never inside it: dist/ ships) records
 * - the build's options (the Node version, the command line);
 * - every input file by its identity `size:mtime:ctime:inode` (nanoseconds): the build's sources,
 *   walked afresh on every check so that an added or removed file changes the list, its own
 *   scripts and configs, and installed packages as a whole (npm's hidden lockfile and the tools'
 *   package.json files, which npm rewrites on every install that changes node_modules);
 * - every output file under dist/, by the same identity.
 * Any difference (a touched, edited, added or removed input; a touched, removed or added output;
 * other options; no stamp) builds. A write always changes a file's ctime, which no one can set
 * back, so an unchanged identity is an unchanged file; content is compared only for the files
 * recorded by content (below), so a touch alone rebuilds too.
 *
 * Races, as for git's index: inputs are recorded before the build reads them. A file whose ctime
 * is within RACY_MS of that moment (or later) is recorded by the SHA-1 of its content instead,
 * since a coarse clock could give a rewrite in the same tick the same identity (@kgen/client's
 * .d.ts files, which kgen's build reads, are such files when `npm run build` just built the
 * client). The stamp is written only when every input still matches its record after the build
 * (none changed while it ran). Outputs are recorded after dist/ is swapped in; a concurrent build
 * that swaps in its own dist/ afterwards leaves outputs that no longer match, so the next check
 * builds.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const STAMP_VERSION = 1;
/** How recent a change must be for a file's identity not to be trusted. */
export const RACY_MS = 2000;

const posix = (p) => p.split(sep).join('/');

function statOf(path) {
  try {
    return statSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** `size:mtime:ctime:inode` of a file (nanoseconds), or `missing`. */
export function identityOf(path) {
  const st = statOf(path);
  return st === undefined ? 'missing' : `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}`;
}

/** Every file under `dir` (absolute paths, sorted); none when it does not exist. `skip(rel)` leaves a path out. */
export function walkFiles(dir, skip = () => false, base = dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out = [];
  for (const ent of entries) {
    const path = join(dir, ent.name);
    if (skip(posix(relative(base, path)))) continue;
    if (ent.isDirectory()) out.push(...walkFiles(path, skip, base));
    else out.push(path);
  }
  return out.sort();
}

/** `[path relative to root, identity]` of each file, in the given order (outputs). */
export function recordFiles(root, files) {
  return files.map((file) => [posix(relative(root, file)), identityOf(file)]);
}

function contentOf(path) {
  try {
    return `sha1:${createHash('sha1').update(readFileSync(path)).digest('hex')}`;
  } catch {
    return 'missing';
  }
}

/** `[path relative to root, record]` of each input: its identity, or its content when it changed within RACY_MS of `nowMs`. */
export function recordInputs(root, files, nowMs = Date.now()) {
  const recent = BigInt(Math.floor(nowMs - RACY_MS)) * 1_000_000n;
  return files.map((file) => {
    const st = statOf(file);
    const record = st !== undefined && st.ctimeNs >= recent ? contentOf(file) : identityOf(file);
    return [posix(relative(root, file)), record];
  });
}

/** Does the file still match its record (recordInputs or recordFiles)? */
function matches(path, record) {
  return record.startsWith('sha1:') ? contentOf(path) === record : identityOf(path) === record;
}

/** The first difference between a record and the files now listed, worded; undefined when none. */
function differs(what, root, recorded, files) {
  if (!Array.isArray(recorded)) return `no record of its ${what}`;
  const before = new Map(recorded);
  for (const file of files) {
    const path = posix(relative(root, file));
    const record = before.get(path);
    if (typeof record !== 'string') return `${what} ${path} is new`;
    if (!matches(file, record)) return `${what} ${path} changed`;
    before.delete(path);
  }
  const [gone] = before.keys();
  return gone === undefined ? undefined : `${what} ${gone} is gone`;
}

/**
 * Why the build must run (a short phrase), or undefined when the stamp says the outputs were
 * built from exactly these inputs with these options and are untouched since.
 * `spec`: { root, inputs: absolute paths, outputs: the output directory, options: plain JSON }.
 */
export function staleReason(stampFile, spec) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return 'no stamp of a previous build';
  }
  if (stamp?.version !== STAMP_VERSION) return 'the stamp is of another format';
  if (JSON.stringify(stamp.options) !== JSON.stringify(spec.options)) return 'other build options';
  return differs('input', spec.root, stamp.inputs, spec.inputs) ?? differs('output', spec.root, stamp.outputs, walkFiles(spec.outputs));
}

/**
 * Writes the stamp of a build whose inputs were recorded (recordInputs) before it read them, or
 * removes the stamp when an input no longer matches its record (it changed while the build ran:
 * the next run builds again). Returns whether a stamp was written.
 */
export function writeStamp(stampFile, { root, inputs, outputs, options }) {
  if (!inputs.every(([path, record]) => matches(join(root, path), record))) {
    rmSync(stampFile, { force: true });
    return false;
  }
  const stamp = { version: STAMP_VERSION, options, inputs, outputs: recordFiles(root, walkFiles(outputs)) };
  const tmp = `${stampFile}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(stamp)}\n`);
  renameSync(tmp, stampFile);
  return true;
}

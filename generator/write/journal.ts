/**
 * The journaled commit of an output directory that already exists: only what changed is touched,
 * and a crash still leaves either the old tree or the new one for every later reader.
 *
 * A commit of `generated/`, in this order:
 *   1. each changed or new file is written to `.generated.kgen-new-<stamp>/<n>` (beside the output
 *      directory, so on the same file system: a rename from there is atomic);
 *   2. the journal (which staged file goes where, which files and folders go away) is written to
 *      `.generated.kgen-journal-<stamp>.tmp`, then renamed to `.generated.kgen-journal-<stamp>`.
 *      That rename is the commit point; the journal ends with a checksum of its body, so a
 *      journal that does not verify is never acted on;
 *   3. files and folders no longer generated are removed, then each staged file is moved to its
 *      place (the old file removed, the staged one renamed there);
 *   4. the journal is removed, then the (now empty) staging folder.
 *
 * Recovery (the start of every write): a complete journal is rolled forward (step 3 again: it is
 * idempotent, a staged file that is gone has been renamed already), then removed; staging folders
 * and journals that never reached their final name are removed with what they hold, so the old
 * tree stays as it was. Until then `generate --check` reports the output as not up to date and
 * `kgen serve` refuses it (pendingJournal). Like the rest of the writer, nothing is fsynced.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize } from 'node:path';
import type { EmittedFile } from '../emit/emitted.js';
import { writeEmitted, type Scratch } from './file.js';

/** Called after every step of a commit; tests kill the process there to check recovery. */
export type CommitStepHook = (step: string) => void;

export interface Journal {
  /** The staging folder's name, beside the output directory. */
  staging: string;
  /** [name in the staging folder, path in the output directory], in the order they are renamed. */
  write: [string, string][];
  /** Files to remove (paths in the output directory); a folder found there is left alone. */
  remove: string[];
  /** Folders to remove with what they hold, parents before children; a file found there is left alone. */
  removeDirs: string[];
}

const FORMAT = 'kgen-journal/1';
let commits = 0;

/**
 * The folder an output path names, symbolic links resolved: the journal and the staged files go
 * beside the real folder, on its file system (a rename does not cross file systems).
 */
export function physicalPath(outDir: string): string {
  try {
    return realpathSync(outDir);
  } catch {
    return outDir;
  }
}

/** The names kgen gives to what it keeps beside `outDir` while writing it. */
export function siblingPrefix(outDir: string): string {
  return `.${basename(outDir)}.kgen-`;
}

/** The output's lock (lock.ts): not a leftover of an interrupted write; recovery leaves it alone. */
export function lockName(outDir: string): string {
  return `${siblingPrefix(outDir)}lock`;
}

export function newStamp(): string {
  return `${process.pid}-${Date.now()}-${commits++}`;
}

/**
 * Replaces the changed files of an existing `outDir` through a journal (see the top of this file).
 * `changed` are the files to write (`previous`: the parts a file was last written from, whose bytes
 * its encoding may reuse; `scratch`: the one buffer to encode them into when nothing is kept;
 * file.ts). An error before the commit point removes what was staged (the old tree is untouched);
 * after it, the journal is left for the next write to finish.
 */
export function commitWithJournal(
  outDir: string,
  changed: EmittedFile[],
  remove: string[],
  removeDirs: string[],
  step?: CommitStepHook,
  previous?: (path: string) => readonly string[] | undefined,
  scratch?: Scratch,
): void {
  const parent = dirname(outDir);
  const prefix = siblingPrefix(outDir);
  const stamp = newStamp();
  const staging = `${prefix}new-${stamp}`;
  const journalPath = join(parent, `${prefix}journal-${stamp}`);
  const journalTmp = `${journalPath}.tmp`;
  const journal: Journal = { staging, write: [], remove, removeDirs };
  let committed = false;
  try {
    mkdirSync(join(parent, staging));
    // A mount point (a bind-mounted output folder): nothing could be renamed into it from beside it.
    if (statSync(join(parent, staging)).dev !== statSync(outDir).dev) {
      throw new Error(`cannot write ${outDir} all or nothing: it is a mount point (its parent folder is on another file system); write to a folder inside it`);
    }
    step?.('staging-made');
    for (let i = 0; i < changed.length; i++) {
      const file = changed[i]!;
      const name = String(i);
      writeEmitted(join(parent, staging, name), file, previous?.(file.path), scratch);
      journal.write.push([name, file.path]);
      step?.(`staged:${file.path}`);
    }
    writeFileSync(journalTmp, serialise(journal));
    step?.('journal-written');
    renameSync(journalTmp, journalPath);
    committed = true;
    step?.('journal-committed');
    apply(outDir, journal, step);
    rmSync(journalPath);
    step?.('journal-removed');
    rmSync(join(parent, staging), { recursive: true, force: true });
    step?.('staging-removed');
  } catch (err) {
    if (!committed) {
      rmSync(journalTmp, { force: true });
      rmSync(join(parent, staging), { recursive: true, force: true });
    }
    throw err;
  }
}

/** Step 3: idempotent, so that recovery can run it again after a crash part-way through. */
function apply(outDir: string, journal: Journal, step?: CommitStepHook): void {
  const staging = join(dirname(outDir), journal.staging);
  for (const path of journal.remove) {
    const target = join(outDir, path);
    if (kind(target) === 'file') rmSync(target, { force: true });
    step?.(`removed:${path}`);
  }
  for (const path of journal.removeDirs) {
    const target = join(outDir, path);
    if (kind(target) === 'dir') rmSync(target, { recursive: true, force: true });
    step?.(`removed-dir:${path}`);
  }
  for (const [name, path] of journal.write) {
    const from = join(staging, name);
    const to = join(outDir, path);
    if (!existsSync(from)) continue; // Renamed before a crash.
    // Not renamed over the old file: on ext4 (auto_da_alloc) a rename that replaces a file starts
    // writing the new one's data back to disk before it returns (3-9 ms for swagger.json).
    if (kind(to) === 'file') rmSync(to);
    else mkdirSync(dirname(to), { recursive: true });
    renameSync(from, to);
    step?.(`renamed:${path}`);
  }
}

function kind(path: string): 'file' | 'dir' | undefined {
  try {
    return lstatSync(path).isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
}

function serialise(journal: Journal): string {
  const body = JSON.stringify({ format: FORMAT, ...journal });
  return `${body}\n${digest(body)}\n`;
}

function digest(body: string): string {
  return `sha256:${createHash('sha256').update(body).digest('hex')}`;
}

/** The journal in `text`, or undefined when it is not one whole journal of this format. */
function parse(text: string, outDir: string): Journal | undefined {
  const lines = text.split('\n');
  if (lines.length !== 3 || lines[2] !== '' || lines[1] !== digest(lines[0])) return undefined;
  try {
    const j = JSON.parse(lines[0]);
    if (j.format !== FORMAT) return undefined;
    const journal: Journal = { staging: j.staging, write: j.write, remove: j.remove, removeDirs: j.removeDirs };
    return wellFormed(journal, outDir) ? journal : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The checksum only tells a whole journal from a torn one; anyone can write one that verifies
 * (one committed into a repository beside its generated/, say). So a journal is acted on only
 * when every move stays inside the output directory and its own staging folder: a staging
 * folder named as kgen names them, staged names without separators, and output paths that are
 * relative and never climb out.
 */
function wellFormed(j: Journal, outDir: string): boolean {
  const plainName = (name: unknown) => typeof name === 'string' && name !== '' && name !== '.' && name !== '..' && !/[\\/]/.test(name);
  const inside = (path: unknown) => typeof path === 'string' && !isAbsolute(path) && normalize(path) !== '.' && !normalize(path).split(/[\\/]/).includes('..');
  return (
    plainName(j.staging) &&
    j.staging.startsWith(`${siblingPrefix(outDir)}new-`) &&
    Array.isArray(j.write) &&
    j.write.every((entry) => Array.isArray(entry) && plainName(entry[0]) && inside(entry[1])) &&
    Array.isArray(j.remove) &&
    j.remove.every(inside) &&
    Array.isArray(j.removeDirs) &&
    j.removeDirs.every(inside)
  );
}

function siblings(outDir: string): string[] {
  try {
    // The lock and its takeover guard (lock.ts) belong to the writers, not to an interrupted write.
    const lock = lockName(outDir);
    return readdirSync(dirname(outDir)).filter((name) => name.startsWith(siblingPrefix(outDir)) && name !== lock && !name.startsWith(`${lock}.`));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

function isJournalName(outDir: string, name: string): boolean {
  return name.startsWith(`${siblingPrefix(outDir)}journal-`) && !name.endsWith('.tmp');
}

/**
 * The name of a committed journal beside `outDir` that has not been rolled forward yet (the
 * output is part old, part new until the next `kgen generate` finishes it), or undefined.
 */
export function pendingJournal(outDir: string): string | undefined {
  const real = physicalPath(outDir);
  return siblings(real).find((name) => isJournalName(real, name));
}

/** The message for a reader that finds a pending journal (kgen generate --check, kgen serve). */
export function pendingJournalMessage(outDir: string, journal: string): string {
  return `${outDir}/ holds an unfinished write (journal ${join(dirname(outDir), journal)}); run kgen generate to finish it`;
}

/**
 * Finishes or discards what an interrupted write left beside `outDir`: committed journals are
 * rolled forward; staging folders and unfinished journals are removed; a tree moved aside by a
 * whole-tree swap of an earlier kgen that died between its two renames is put back.
 */
export function recoverOutput(outDir: string): void {
  const parent = dirname(outDir);
  const names = siblings(outDir);
  if (names.length === 0) return;
  const prefix = siblingPrefix(outDir);
  const left = new Set(names);
  for (const name of names.filter((n) => isJournalName(outDir, n)).sort()) {
    const path = join(parent, name);
    const journal = parse(readFileSync(path, 'utf8'), outDir);
    if (journal && existsSync(outDir)) {
      apply(outDir, journal, undefined);
      rmSync(path);
      rmSync(join(parent, journal.staging), { recursive: true, force: true });
      left.delete(journal.staging);
    } else rmSync(path, { force: true });
    left.delete(name);
  }
  for (const name of left) {
    const path = join(parent, name);
    if (name.startsWith(`${prefix}old-`) && !existsSync(outDir)) renameSync(path, outDir);
    else rmSync(path, { recursive: true, force: true });
  }
}

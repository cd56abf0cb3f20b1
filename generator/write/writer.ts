/**
 * The only stage that touches the file system. It compares emitted files with what is on disk and
 * writes the output directory all or nothing: a crash leaves either the old tree or the new one
 * for every later reader. A new output directory is built beside its final name and renamed into
 * place; an existing one gets only its changed files, through a journal (journal.ts), so the cost
 * of a write follows what changed and unchanged files keep their inode and timestamps.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import type { EmittedFile } from '../emit/emitted.js';
import { sameOnDisk, Scratch, writeEmitted } from './file.js';
import { lockOutput, type LockOptions } from './lock.js';
import { commitWithJournal, newStamp, physicalPath, recoverOutput, siblingPrefix, type CommitStepHook } from './journal.js';

export interface OutputDiff {
  /** In the output but different on disk. */
  stale: string[];
  /** In the output but absent on disk. */
  missing: string[];
  /** On disk but no longer generated. */
  extra: string[];
  unchanged: string[];
}

/**
 * What a long-lived writer (`kgen generate --watch`) remembers of the files it wrote last: their
 * content and the identity of the file holding it. A file whose inode, size and mtime are still
 * those recorded is compared in memory instead of being read back; any other file is read.
 */
export interface WriteState {
  outDir?: string;
  files: Map<string, WrittenFile>;
  /** Folders' listings, by absolute path, while their stat identity is the recorded one (see KnownFolder). */
  folders?: Map<string, KnownFolder>;
}

/**
 * A folder's entries and the identity it had when they were listed. An entry added, removed or
 * renamed changes the folder's mtime and ctime, so a folder whose identity is the recorded one
 * holds the recorded entries. As for sources (parse/files.ts, Stamp), the identity is recorded
 * only when the folder's ctime is older than FOLDER_MARGIN_MS before the stat: a file system
 * stamps times from a clock up to a tick behind, so a change made after the stat gets a newer
 * ctime, while one made within the margin could share its ctime with a later one. The folders a
 * regeneration writes into are therefore listed again on the next one; the others are statted.
 */
interface KnownFolder {
  dev: number;
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
  entries: { name: string; folder: boolean }[];
}

const FOLDER_MARGIN_MS = 1000;

/**
 * A file as written: its content, or the parts it was written from (EmittedFile.parts; a
 * difference in how the same content is split then counts as a change, and the file is written
 * again with the same bytes), and the identity of the file holding it.
 */
export interface WrittenFile {
  content?: string;
  parts?: readonly string[];
  ino: number;
  size: number;
  mtimeMs: number;
}

export function newWriteState(): WriteState {
  return { files: new Map(), folders: new Map() };
}

/**
 * Files (and, into `dirs`, folders) under dir, as paths relative to it with `/`. With `folders`
 * (a session's), a folder whose identity is the recorded one is not listed again (KnownFolder).
 */
function listFiles(dir: string, prefix = '', out: string[] = [], dirs?: string[], folders?: Map<string, KnownFolder>): string[] {
  let entries: { name: string; folder: boolean }[];
  try {
    entries = folders ? folderEntries(dir, folders) : readdirSync(dir, { withFileTypes: true }).map((e) => ({ name: e.name, folder: e.isDirectory() }));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return out;
    throw err;
  }
  for (const entry of entries) {
    const rel = prefix + entry.name;
    if (entry.folder) {
      dirs?.push(rel);
      listFiles(join(dir, entry.name), `${rel}/`, out, dirs, folders);
    } else out.push(rel);
  }
  return out;
}

function folderEntries(dir: string, folders: Map<string, KnownFolder>): { name: string; folder: boolean }[] {
  const began = Date.now();
  const st = statSync(dir);
  const known = folders.get(dir);
  if (known && known.dev === st.dev && known.ino === st.ino && known.mtimeMs === st.mtimeMs && known.ctimeMs === st.ctimeMs) return known.entries;
  // Listed after the stat: a change between the two leaves an identity that no longer matches.
  const entries = readdirSync(dir, { withFileTypes: true }).map((e) => ({ name: e.name, folder: e.isDirectory() }));
  if (st.isDirectory() && st.ctimeMs < began - FOLDER_MARGIN_MS) folders.set(dir, { dev: st.dev, ino: st.ino, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, entries });
  else folders.delete(dir);
  return entries;
}

/** The file at `path` still holds `content`, as recorded by `state` (no read needed)? */
function knownContent(state: WriteState | undefined, outDir: string, file: EmittedFile): boolean | undefined {
  const known = state?.outDir === outDir ? state.files.get(file.path) : undefined;
  if (!known) return undefined;
  try {
    const st = statSync(join(outDir, file.path));
    if (st.ino !== known.ino || st.size !== known.size || st.mtimeMs !== known.mtimeMs) return undefined;
  } catch {
    return undefined;
  }
  return sameAs(known, file);
}

/** The record is of `file`'s content (compared part by part when both have parts). */
function sameAs(known: WrittenFile, file: EmittedFile): boolean {
  if (file.parts && known.parts) return sameParts(known.parts, file.parts);
  return (known.content ?? known.parts!.join('')) === file.content;
}

function sameParts(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** What a record keeps of a file's content: its parts when it has them (no join). */
function recorded(file: EmittedFile): Pick<WrittenFile, 'content' | 'parts'> {
  return file.parts ? { parts: file.parts } : { content: file.content };
}

/** Compares without writing anything. */
export function diffOutput(outDir: string, files: EmittedFile[], state?: WriteState, dirsOnDisk?: string[]): OutputDiff {
  const onDisk = new Set(listFiles(outDir, '', [], dirsOnDisk, state?.folders).map((f) => f.split('/').join(sep)));
  const diff: OutputDiff = { stale: [], missing: [], extra: [], unchanged: [] };
  for (const file of files) {
    if (!onDisk.has(file.path)) diff.missing.push(file.path);
    else if (!(knownContent(state, outDir, file) ?? sameOnDisk(join(outDir, file.path), file))) diff.stale.push(file.path);
    else diff.unchanged.push(file.path);
    onDisk.delete(file.path);
  }
  diff.extra = [...onDisk].sort();
  return diff;
}

export function isUpToDate(diff: OutputDiff): boolean {
  return diff.stale.length === 0 && diff.missing.length === 0 && diff.extra.length === 0;
}

/**
 * Writes the output directory so that it holds exactly `files`, all or nothing. Returns what
 * changed. With a `state`, remembers what it wrote so that the next call can skip reading
 * unchanged files back. `step` is called after each step of a journaled commit (tests). Another
 * kgen writing the same output is waited for (lock.ts); one that keeps it past the wait makes this
 * throw OutputLockedError before anything is written.
 */
export function writeOutput(path: string, files: EmittedFile[], state?: WriteState, step?: CommitStepHook, lock?: LockOptions): OutputDiff {
  const outDir = physicalPath(path);
  // One writer at a time (lock.ts): held from the recovery to the commit's end, released on error too.
  const held = lockOutput(outDir, lock);
  try {
    return writeLocked(outDir, files, state, step);
  } finally {
    held.release();
  }
}

function writeLocked(outDir: string, files: EmittedFile[], state?: WriteState, step?: CommitStepHook): OutputDiff {
  recoverOutput(outDir);
  const dirsOnDisk: string[] = [];
  const diff = diffOutput(outDir, files, state, dirsOnDisk);
  refuseForeignDirectory(outDir, diff);
  if (isUpToDate(diff)) {
    if (state && state.outDir !== outDir) remember(state, outDir, files);
    return diff;
  }
  const unchanged = new Set(diff.unchanged);
  // The journal also when most files change: all 432 files of the 100-kind output stale, it took
  // 116 ms of CPU (156 wall) where building a whole new tree and swapping it in took 175 (456).
  const before = state?.outDir === outDir ? state.files : undefined;
  // Without a state nothing will reuse a file's encoding: the files go through one scratch buffer.
  const scratch = state ? undefined : new Scratch();
  if (existsSync(outDir)) commitChanges(outDir, files, diff, dirsOnDisk, step, before && ((path) => before.get(path)?.parts), scratch);
  else buildNewTree(outDir, files, scratch);
  if (state) remember(state, outDir, files, unchanged);
  return diff;
}

/**
 * Thrown before anything is written when the output directory holds files but none of the output
 * (not a previous kgen output): replacing it as a whole would delete them. `kgen generate ./apis
 * -o .` (or a mistyped `-o src`) deleted the project, apis/ and .git/ included.
 */
export class ForeignOutputError extends Error {
  constructor(readonly outDir: string, readonly found: string[]) {
    const shown = found.slice(0, 3).join(', ') + (found.length > 3 ? `, … (${found.length} files)` : '');
    super(`refusing to write ${outDir}: it holds files that are not kgen output (${shown}), and the output replaces the folder as a whole; choose a new or empty folder, or remove it first`);
    this.name = 'ForeignOutputError';
  }
}

/** A folder holding files of which none has an output file's path is not an earlier output of this kind. */
function refuseForeignDirectory(outDir: string, diff: OutputDiff): void {
  if (diff.extra.length > 0 && diff.stale.length === 0 && diff.unchanged.length === 0) throw new ForeignOutputError(outDir, diff.extra);
}

/** An existing output directory: only the changed files, through a journal (journal.ts). */
function commitChanges(
  outDir: string,
  files: EmittedFile[],
  diff: OutputDiff,
  dirsOnDisk: string[],
  step?: CommitStepHook,
  previous?: (path: string) => readonly string[] | undefined,
  scratch?: Scratch,
): void {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const changed = [...diff.stale, ...diff.missing].map((path) => byPath.get(path)!);
  // Folders that hold no generated file any more go, each with what it holds (all extra files).
  const kept = new Set<string>();
  for (const file of files) {
    for (let dir = dirname(file.path); dir !== '.' && !kept.has(dir); dir = dirname(dir)) kept.add(dir);
  }
  const removedDirs = new Set<string>();
  const removeDirs: string[] = [];
  for (const dir of dirsOnDisk.map((d) => d.split('/').join(sep))) {
    if (kept.has(dir)) continue;
    removedDirs.add(dir);
    // Listed parents first: a folder inside one already removed goes with it.
    if (!removedDirs.has(dirname(dir))) removeDirs.push(dir);
  }
  const remove = diff.extra.filter((path) => !removedDirs.has(dirname(path)));
  commitWithJournal(outDir, changed, remove, removeDirs, step, previous, scratch);
}

/** A new output directory: built beside its final name, then renamed into place. */
function buildNewTree(outDir: string, files: EmittedFile[], scratch?: Scratch): void {
  const next = join(dirname(outDir), `${siblingPrefix(outDir)}new-${newStamp()}`);
  const made = new Set<string>();
  try {
    for (const file of files) {
      const target = join(next, file.path);
      const dir = dirname(target);
      if (!made.has(dir)) {
        mkdirSync(dir, { recursive: true });
        made.add(dir);
      }
      writeEmitted(target, file, undefined, scratch);
    }
    renameSync(next, outDir);
  } catch (err) {
    rmSync(next, { recursive: true, force: true });
    throw err;
  }
}

/** Records what `outDir` now holds; files linked unchanged keep their record (same inode and times). */
function remember(state: WriteState, outDir: string, files: EmittedFile[], unchanged = new Set<string>()): void {
  const before = state.outDir === outDir ? state.files : new Map();
  state.outDir = outDir;
  state.files = new Map();
  for (const file of files) {
    const kept = unchanged.has(file.path) ? before.get(file.path) : undefined;
    if (kept && sameAs(kept, file)) {
      state.files.set(file.path, kept);
      continue;
    }
    try {
      const st = statSync(join(outDir, file.path));
      state.files.set(file.path, { ...recorded(file), ino: st.ino, size: st.size, mtimeMs: st.mtimeMs });
    } catch {
      // Not recorded: the next diff reads it.
    }
  }
}

/**
 * The only stage that touches the file system. It compares emitted files with what is on disk and
 * replaces the output directory in one step: the new tree is built beside the old one (unchanged
 * files hard-linked, so they keep their timestamps), then swapped in with renames. A crash leaves
 * either the old tree or the new one, never a mix.
 */
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import type { EmittedFile } from '../emit/emitted.js';

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
  files: Map<string, { content: string; ino: number; size: number; mtimeMs: number }>;
  /**
   * Replaced trees still being removed in the background: with a state, the old tree is removed
   * after writeOutput returns (the swap itself is complete), so a regeneration does not wait for it.
   */
  removing: Set<string>;
}

export function newWriteState(): WriteState {
  return { files: new Map(), removing: new Set() };
}

function listFiles(dir: string, prefix = '', out: string[] = []): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return out;
    throw err;
  }
  for (const entry of entries) {
    const rel = prefix + entry.name;
    if (entry.isDirectory()) listFiles(join(dir, entry.name), `${rel}/`, out);
    else out.push(rel);
  }
  return out;
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
  return known.content === file.content;
}

/** Compares without writing anything. */
export function diffOutput(outDir: string, files: EmittedFile[], state?: WriteState): OutputDiff {
  const onDisk = new Set(listFiles(outDir).map((f) => f.split('/').join(sep)));
  const diff: OutputDiff = { stale: [], missing: [], extra: [], unchanged: [] };
  for (const file of files) {
    if (!onDisk.has(file.path)) diff.missing.push(file.path);
    else if (!(knownContent(state, outDir, file) ?? readFileSync(join(outDir, file.path), 'utf8') === file.content)) diff.stale.push(file.path);
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
 * Writes the output directory so that it holds exactly `files`. Returns what changed. With a
 * `state`, remembers what it wrote so that the next call can skip reading unchanged files back.
 */
export function writeOutput(outDir: string, files: EmittedFile[], state?: WriteState): OutputDiff {
  recoverInterruptedSwap(outDir, state);
  const diff = diffOutput(outDir, files, state);
  if (isUpToDate(diff)) {
    if (state && state.outDir !== outDir) remember(state, outDir, files);
    return diff;
  }
  const stamp = `${process.pid}-${Date.now()}`;
  const next = join(dirname(outDir), `.${basename(outDir)}.kgen-new-${stamp}`);
  const old = join(dirname(outDir), `.${basename(outDir)}.kgen-old-${stamp}`);
  const unchanged = new Set(diff.unchanged);
  const made = new Set<string>();
  try {
    for (const file of files) {
      const target = join(next, file.path);
      const dir = dirname(target);
      if (!made.has(dir)) {
        mkdirSync(dir, { recursive: true });
        made.add(dir);
      }
      if (unchanged.has(file.path)) linkOrCopy(join(outDir, file.path), target);
      else writeFileSync(target, file.content);
    }
    const hadOld = existsSync(outDir);
    if (hadOld) renameSync(outDir, old);
    renameSync(next, outDir);
    if (hadOld && state) removeInBackground(state, old);
    else if (hadOld) rmSync(old, { recursive: true, force: true });
  } catch (err) {
    rmSync(next, { recursive: true, force: true });
    if (!existsSync(outDir) && existsSync(old)) renameSync(old, outDir);
    throw err;
  }
  if (state) remember(state, outDir, files, unchanged);
  return diff;
}

/** Records what `outDir` now holds; files linked unchanged keep their record (same inode and times). */
function remember(state: WriteState, outDir: string, files: EmittedFile[], unchanged = new Set<string>()): void {
  const before = state.outDir === outDir ? state.files : new Map();
  state.outDir = outDir;
  state.files = new Map();
  for (const file of files) {
    const kept = unchanged.has(file.path) ? before.get(file.path) : undefined;
    if (kept && kept.content === file.content) {
      state.files.set(file.path, kept);
      continue;
    }
    try {
      const st = statSync(join(outDir, file.path));
      state.files.set(file.path, { content: file.content, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs });
    } catch {
      // Not recorded: the next diff reads it.
    }
  }
}

function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

function removeInBackground(state: WriteState, path: string): void {
  state.removing.add(path);
  rm(path, { recursive: true, force: true })
    .catch(() => undefined)
    .finally(() => state.removing.delete(path));
}

/** If a previous run died between the two renames, put the old tree back. */
function recoverInterruptedSwap(outDir: string, state?: WriteState): void {
  const parent = dirname(outDir);
  if (!existsSync(parent)) return;
  const prefix = `.${basename(outDir)}.kgen-`;
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(prefix)) continue;
    const path = join(parent, name);
    if (state?.removing.has(path)) continue;
    if (name.startsWith(`${prefix}old-`) && !existsSync(outDir)) renameSync(path, outDir);
    else rmSync(path, { recursive: true, force: true });
  }
}

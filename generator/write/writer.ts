/**
 * The only stage that touches the file system. It compares emitted files with what is on disk and
 * replaces the output directory in one step: the new tree is built beside the old one (unchanged
 * files hard-linked, so they keep their timestamps), then swapped in with renames. A crash leaves
 * either the old tree or the new one, never a mix.
 */
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
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

function listFiles(dir: string, root = dir): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listFiles(path, root));
    else out.push(relative(root, path));
  }
  return out.sort();
}

/** Compares without writing anything. */
export function diffOutput(outDir: string, files: EmittedFile[]): OutputDiff {
  const onDisk = new Set(listFiles(outDir));
  const diff: OutputDiff = { stale: [], missing: [], extra: [], unchanged: [] };
  for (const file of files) {
    if (!onDisk.has(file.path)) diff.missing.push(file.path);
    else if (readFileSync(join(outDir, file.path), 'utf8') !== file.content) diff.stale.push(file.path);
    else diff.unchanged.push(file.path);
    onDisk.delete(file.path);
  }
  diff.extra = [...onDisk].sort();
  return diff;
}

export function isUpToDate(diff: OutputDiff): boolean {
  return diff.stale.length === 0 && diff.missing.length === 0 && diff.extra.length === 0;
}

/** Writes the output directory so that it holds exactly `files`. Returns what changed. */
export function writeOutput(outDir: string, files: EmittedFile[]): OutputDiff {
  recoverInterruptedSwap(outDir);
  const diff = diffOutput(outDir, files);
  if (isUpToDate(diff)) return diff;
  const stamp = `${process.pid}-${Date.now()}`;
  const next = join(dirname(outDir), `.${basename(outDir)}.kgen-new-${stamp}`);
  const old = join(dirname(outDir), `.${basename(outDir)}.kgen-old-${stamp}`);
  const unchanged = new Set(diff.unchanged);
  try {
    for (const file of files) {
      const target = join(next, file.path);
      mkdirSync(dirname(target), { recursive: true });
      if (unchanged.has(file.path)) linkOrCopy(join(outDir, file.path), target);
      else writeFileSync(target, file.content);
    }
    const hadOld = existsSync(outDir);
    if (hadOld) renameSync(outDir, old);
    renameSync(next, outDir);
    if (hadOld) rmSync(old, { recursive: true, force: true });
  } catch (err) {
    rmSync(next, { recursive: true, force: true });
    if (!existsSync(outDir) && existsSync(old)) renameSync(old, outDir);
    throw err;
  }
  return diff;
}

function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/** If a previous run died between the two renames, put the old tree back. */
function recoverInterruptedSwap(outDir: string): void {
  const parent = dirname(outDir);
  if (!existsSync(parent)) return;
  const prefix = `.${basename(outDir)}.kgen-`;
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(prefix)) continue;
    const path = join(parent, name);
    if (name.startsWith(`${prefix}old-`) && !existsSync(outDir)) renameSync(path, outDir);
    else rmSync(path, { recursive: true, force: true });
  }
}

/**
 * Reads the baseline snapshot `kgen diff` and `kgen generate --check --against` compare with:
 * from a directory (a copy of an earlier generated/ folder) or from a git ref (the generated
 * folder as committed there). This is the only part of generator/evolve that touches the disk.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { SNAPSHOT_FILE, SNAPSHOT_VERSION } from '../emit/snapshot.js';
import type { Baseline } from './model-diff.js';

export class BaselineError extends Error {}

export interface LoadedBaseline {
  baseline: Baseline;
  /** Where it was read from, for messages: `generated/api-snapshot.json`, `origin/main:generated/api-snapshot.json`. */
  source: string;
}

function parse(text: string, source: string): Baseline {
  let value: { snapshotVersion?: number; groups?: Baseline['groups'] };
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new BaselineError(`${source} is not valid JSON: ${(err as Error).message}`);
  }
  if (value.snapshotVersion !== SNAPSHOT_VERSION || !Array.isArray(value.groups)) {
    throw new BaselineError(`${source} is not a kgen API snapshot (version ${SNAPSHOT_VERSION}); regenerate the baseline with this kgen`);
  }
  return { groups: value.groups };
}

/** The snapshot in `dir` (a generated/ folder), or undefined when it has none. */
export function readSnapshotDir(dir: string): LoadedBaseline | undefined {
  const file = join(dir, SNAPSHOT_FILE);
  if (!existsSync(file)) return undefined;
  return { baseline: parse(readFileSync(file, 'utf8'), file), source: file };
}

/**
 * `against` is a directory (holding api-snapshot.json) or a git ref; for a ref, the snapshot is
 * read from `generatedDir` as committed at that ref (`git show <ref>:<path>`).
 */
export function loadBaseline(against: string, generatedDir: string): LoadedBaseline {
  if (existsSync(against) && statSync(against).isDirectory()) {
    const loaded = readSnapshotDir(against);
    if (!loaded) throw new BaselineError(`${against} has no ${SNAPSHOT_FILE}: it is not a generated/ folder of this kgen version`);
    return loaded;
  }
  // git reads an argument starting with "-" as an option (`--output=<file>` writes a file), and no
  // ref or revision expression starts with one: refused before git runs.
  if (against.startsWith('-')) throw new BaselineError(`"${against}" is neither a directory nor a git ref: a ref cannot start with "-"`);
  const dir = resolve(generatedDir);
  let top: string;
  try {
    top = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: existsSync(dir) ? dir : process.cwd(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch {
    throw new BaselineError(`"${against}" is neither a directory nor usable as a git ref: ${dir} is not in a git repository`);
  }
  const path = [relative(top, dir), SNAPSHOT_FILE].filter(Boolean).join('/');
  const source = `${against}:${path}`;
  let text: string;
  try {
    text = execFileSync('git', ['show', '--end-of-options', source], { cwd: top, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
  } catch (err) {
    const stderr = String((err as { stderr?: string }).stderr ?? '').trim();
    throw new BaselineError(`cannot read ${source} from git: ${stderr || (err as Error).message}`);
  }
  return { baseline: parse(text, source), source };
}

/**
 * Where the benchmarks keep things. Work files live under bench/.work (inside the repository) so
 * the generated code's `kgen/...` imports resolve to this package, as test/server's fixture does.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const BENCH = join(REPO, 'bench');
export const KGEN_BIN = join(REPO, 'bin', 'kgen.js');
export const WORK = join(BENCH, '.work');
export const DEFAULT_RESULTS = join(BENCH, 'results');
/** tmpfs when there is one: for stores whose fsync cost is not what a benchmark measures. */
export const SHM = '/dev/shm';

const made = new Set<string>();

/** A fresh directory under bench/.work (or under `base`), removed by removeWorkDirs(). */
export function workDir(prefix: string, base: string = WORK): string {
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, `kgen-bench-${prefix}-`));
  made.add(dir);
  return dir;
}

/** Removes every directory workDir() made (set KGEN_BENCH_KEEP=1 to keep them for inspection). */
export function removeWorkDirs(): void {
  if (process.env.KGEN_BENCH_KEEP) return;
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}

/**
 * Writes the cache entries earlier stages proposed (generator/cache.ts): each to a temporary name
 * renamed into place, so a concurrent kgen sees either nothing or a whole file (readers treat a
 * missing or unreadable entry as a miss), then removes the entries they replace that have not
 * been written or read for an hour (another kgen of another template state may share the
 * directory). Failures are ignored: the cache only saves time.
 */
import { readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DerivedCache } from '../cache.js';

const PRUNE_AFTER_MS = 60 * 60 * 1000;

export function writeProposedEntries(cache: DerivedCache | undefined): void {
  if (!cache?.dir) return;
  for (const [name, { data, replaces }] of cache.proposed) {
    const path = join(cache.dir, name);
    const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      writeFileSync(tmp, data);
      renameSync(tmp, path);
    } catch {
      rmSync(tmp, { force: true });
      continue;
    }
    prune(cache.dir, name, replaces);
  }
  cache.proposed.clear();
}

function prune(dir: string, keep: string, prefix: string): void {
  try {
    const now = Date.now();
    for (const name of readdirSync(dir)) {
      if (!name.startsWith(prefix) || name === keep) continue;
      const path = join(dir, name);
      const st = statSync(path);
      if (now - Math.max(st.mtimeMs, st.atimeMs) > PRUNE_AFTER_MS) rmSync(path, { force: true });
    }
  } catch {
    // Pruning is housekeeping only.
  }
}

/**
 * Where kgen keeps what it derives from its own code (bundles of its TypeScript, V8 code caches):
 * never anything derived from a user's input. Every entry is written to a temporary name and
 * renamed into place, so concurrent processes see either nothing or a whole file; readers treat a
 * missing or unreadable entry as a miss.
 */
import { createHash } from 'node:crypto';
import { accessSync, constants, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The kgen package root (this file is bin/loader/cache-dir.js). */
export const KGEN_ROOT = fileURLToPath(new URL('../../', import.meta.url)).replace(/[\\/]$/, '');

let chosen;

/**
 * The cache directory: $KGEN_CACHE_DIR, else <kgen>/node_modules/.cache/kgen, else
 * <tmpdir>/kgen-cache-<uid>; undefined when none is writable or KGEN_NO_CACHE is set.
 */
export function cacheDir() {
  if (chosen !== undefined) return chosen ?? undefined;
  chosen = null;
  if (process.env.KGEN_NO_CACHE) return undefined;
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  const candidates = [process.env.KGEN_CACHE_DIR, join(KGEN_ROOT, 'node_modules', '.cache', 'kgen'), join(tmpdir(), `kgen-cache-${uid}`)];
  for (const dir of candidates) {
    if (!dir) continue;
    try {
      mkdirSync(dir, { recursive: true });
      accessSync(dir, constants.W_OK);
      chosen = dir;
      break;
    } catch {
      // Not writable (a read-only install): try the next place.
    }
  }
  return chosen ?? undefined;
}

/** Writes `path` whole or not at all (temporary file + rename). Returns false on failure. */
export function writeAtomic(path, data) {
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
    return true;
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
}

export function sha1(...parts) {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex');
}

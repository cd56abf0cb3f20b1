/**
 * kgen's cache of what it derives from its own code (the precompiled templates), as the generator
 * sees it: a directory the caller chose, entries read by name, and new entries proposed by the
 * stage that derived them. Nothing here writes: write/cache.ts writes the proposed entries when
 * the output is written, so write/ stays the only stage that touches the file system's contents.
 *
 * The directory comes from the caller, never from here: the CLI passes bin/loader/cache-dir.js's
 * `cacheDir()`, which uses a directory only when no one but the current user (and root) can change
 * what is in it (issue 12), because kgen runs what it finds there. Without a directory, nothing is
 * read or written, and the derived data is rebuilt in each process.
 */
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';

export interface DerivedCache {
  /** Undefined: no cache (every read misses, nothing is written). */
  readonly dir?: string;
  /** Entries to write, by file name, with the prefix of the older entries they replace. */
  readonly proposed: Map<string, { data: string; replaces: string }>;
}

export function derivedCache(dir?: string): DerivedCache {
  return { dir, proposed: new Map() };
}

/** The entry's text, or undefined when there is no cache or the entry is missing or unreadable. */
export function readEntry(cache: DerivedCache | undefined, name: string): string | undefined {
  if (!cache?.dir) return undefined;
  try {
    return readFileSync(join(cache.dir, name), 'utf8');
  } catch {
    return undefined;
  }
}

/** The entry's bytes, or undefined when there is no cache or the entry is missing or unreadable. */
export function readEntryBytes(cache: DerivedCache | undefined, name: string): Buffer | undefined {
  if (!cache?.dir) return undefined;
  try {
    return readFileSync(join(cache.dir, name));
  } catch {
    return undefined;
  }
}

/** Asks write/ to store an entry; older entries whose names start with `replaces` may then be pruned. */
export function proposeEntry(cache: DerivedCache | undefined, name: string, data: string, replaces: string): void {
  if (cache?.dir) cache.proposed.set(name, { data, replaces });
}

export function entryKey(...parts: string[]): string {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex');
}

/**
 * openStorage: the one place a storage URL becomes a backend.
 *
 *   memory:            MemoryStorage (nothing persists; for tests)
 *   sqlite:<path>      SqliteStorage at <path>, relative to the working directory
 *   sqlite: | sqlite://  SqliteStorage at <dataDir>/kgen.db
 */
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Storage } from './interface.js';
import { MemoryStorage } from './memory.js';
import { SqliteStorage } from './sqlite.js';

export interface OpenStorageOptions {
  /** Where default-located data lives (created if missing). */
  dataDir: string;
}

export const DEFAULT_SQLITE_FILE = 'kgen.db';

const ACCEPTED_FORMS = "'memory:', 'sqlite:' (or 'sqlite://') for <dataDir>/kgen.db, or 'sqlite:<path>'";

export async function openStorage(url: string, opts: OpenStorageOptions): Promise<Storage> {
  if (url === 'memory:') return new MemoryStorage();
  const path = sqlitePath(url, opts.dataDir);
  if (path !== undefined) {
    mkdirSync(dirname(path), { recursive: true });
    return new SqliteStorage(path);
  }
  throw new Error(`unsupported storage URL ${JSON.stringify(url)}: expected ${ACCEPTED_FORMS}`);
}

/** The database file a sqlite: URL names (absolute), or undefined for any other URL. */
export function sqlitePath(url: string, dataDir: string): string | undefined {
  if (!url.startsWith('sqlite:')) return undefined;
  let rest = url.slice('sqlite:'.length);
  if (rest === '' || rest === '//') return resolve(join(dataDir, DEFAULT_SQLITE_FILE));
  // sqlite:///abs/path and sqlite://rel/path read as the path after the scheme's slashes.
  if (rest.startsWith('//')) rest = rest.slice(2);
  return resolve(rest);
}

/** Reading the generated JSON documents the server serves verbatim (discovery, OpenAPI). */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function readJSONFile<T = unknown>(path: string): T {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (err) {
    throw new Error(`cannot read ${path}: ${(err as Error).message}`);
  }
}

export function readOptionalJSON<T = unknown>(dir: string, relative: string): T | undefined {
  const path = join(dir, relative);
  return existsSync(path) ? readJSONFile<T>(path) : undefined;
}

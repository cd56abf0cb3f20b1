/**
 * The yaml package, loaded on first use: it is ~70 CommonJS modules, and a server that never reads
 * or writes YAML (most requests are JSON) should not load them at start-up.
 */
import { createRequire } from 'node:module';
import type * as YAML from 'yaml';

let loaded: typeof YAML | undefined;

export function yaml(): typeof YAML {
  return (loaded ??= createRequire(import.meta.url)('yaml') as typeof YAML);
}

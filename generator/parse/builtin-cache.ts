/**
 * kgen's built-in APIs (generator/builtin/, ~40 files and a third of a 100-kind project's source
 * text) parsed once, not on every run: they are kgen's own code, so their parse is derived data
 * of the same kind as the precompiled templates (../emit/templates.ts), kept in kgen's cache
 * (../cache.ts) and written by write/.
 *
 * The entry is keyed by a hash of everything the parse depends on: the entry's format, the
 * TypeScript version, the root's path, the name and text of every built-in source, and the text of
 * the parse stage's code (every file of this folder, and the modules outside it that the parse
 * stage imports: PARSE_IMPORTS, kept complete by test/generator/parse/builtin-cache.test.ts). Any
 * change to one of them is a miss: the root is parsed again and a new entry proposed.
 *
 * A hit and a miss give the same data: the parse is always used through its JSON text (a miss
 * parses, prints and reads back what it proposes), so a run never depends on whether the cache
 * held it. The model is plain data; its objects are not shared once read back, which no reader
 * depends on (the emitters never change the model, and the checker changes kinds only).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { entryKey, proposeEntry, readEntry, type DerivedCache } from '../cache.js';
import { parseRoot, type ParsedRoot } from './parser.js';
import { typescript } from './typescript.js';

/** Bumped when the entry's layout changes. */
const FORMAT = 1;
const ENTRY_PREFIX = 'builtin-parse-';

const PARSE_DIR = fileURLToPath(new URL('./', import.meta.url));
/** The modules outside this folder that the parse stage imports (without extension, from this folder). */
export const PARSE_IMPORTS = ['../model', '../diagnostics', '../names', '../../runtime/endpoints/openapi/names', '../../runtime/api/kube-groups', '../../runtime/api/resource', '../../runtime/api/json-integers'];

/** Module files (.ts in a checkout, .js in dist/) of a folder, sorted. */
function moduleFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => /\.(ts|js)$/.test(n) && !n.endsWith('.d.ts'))
    .sort()
    .map((n) => join(dir, n));
}

function firstExisting(base: string): string | undefined {
  for (const ext of ['.ts', '.js']) {
    try {
      if (statSync(base + ext).isFile()) return base + ext;
    } catch {
      // Try the next extension.
    }
  }
  return undefined;
}

function sourcesUnder(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourcesUnder(path, out);
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** The cache entry's name for `root` as it is now. */
function entryName(root: string): string {
  const code = [...moduleFiles(PARSE_DIR), ...PARSE_IMPORTS.map((m) => firstExisting(join(PARSE_DIR, m)) ?? m)];
  const parts = [String(FORMAT), typescript().version, root];
  for (const file of [...code, ...sourcesUnder(root)]) parts.push(file, readFileSync(file, 'utf8'));
  return `${ENTRY_PREFIX}${entryKey(...parts)}.json`;
}

/**
 * The parse of the built-in root (a root of kube's own groups: `apps` is a group there): read from
 * `cache` when it holds this state's entry, else parsed (and the entry proposed to `cache`).
 */
export function builtinParse(root: string, cache?: DerivedCache): ParsedRoot {
  const name = entryName(root);
  const text = readEntry(cache, name);
  if (text !== undefined) {
    try {
      const parsed = JSON.parse(text) as ParsedRoot;
      if (parsed.root === root && Array.isArray(parsed.groups)) return parsed;
    } catch {
      // A damaged entry is a miss.
    }
  }
  const printed = JSON.stringify(parseRoot(root, new Set([resolve(root)])));
  proposeEntry(cache, name, printed, ENTRY_PREFIX);
  return JSON.parse(printed) as ParsedRoot;
}

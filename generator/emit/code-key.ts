/**
 * A hash of the kgen code an emitter runs, for keys of output kept in kgen's cache
 * (generator/cache.ts) across runs. Not an emitter: it emits nothing.
 *
 * The code is found, not listed: starting from the emitter's module, every relative import
 * (static ones, type-only ones too, and dynamic import()s of a literal path) is followed to its file (.ts in a
 * checkout, .js in dist/), and each file's path and text is hashed, with every template under
 * templates/ and the version of each package the closure imports (handlebars renders the text). A
 * module an emitter starts to import is thereby covered without anyone updating a list; a package
 * it starts to import must be named in KEYED_PACKAGES, which test/generator/builtin-emit-cache.test.ts
 * checks against the closure, so that its version is part of the key too.
 *
 * Reading the closure (~20 files, ~130 KB) costs a few ms; it is computed once per process and
 * start module.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { entryKey } from '../cache.js';

const TEMPLATES = fileURLToPath(new URL('../../templates/', import.meta.url));
const require = createRequire(import.meta.url);

/**
 * Packages the emitters' code may import, by import specifier: their versions are part of the key.
 * Type-only packages (openapi-types) change no emitted text, but are keyed all the same.
 */
export const KEYED_PACKAGES: Record<string, string> = {
  handlebars: 'handlebars',
  'handlebars/runtime.js': 'handlebars',
  'openapi-types': 'openapi-types',
};

/** Module specifiers in a module's text: static imports and re-exports, and dynamic import()s. */
export function importSpecifiers(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^;'"]*?\bfrom\s*'([^']+)'/gm)) found.push(m[1]!);
  for (const m of text.matchAll(/^\s*import\s*'([^']+)'/gm)) found.push(m[1]!);
  for (const m of text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) found.push(m[1]!);
  return found;
}

function moduleFile(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier).replace(/\.(js|ts)$/, '');
  for (const ext of ['.ts', '.js']) {
    try {
      if (statSync(base + ext).isFile()) return base + ext;
    } catch {
      // Try the next extension.
    }
  }
  return undefined;
}

/** The module files `start` reaches through relative imports (itself first, then in visit order), and the packages it imports. */
export function importClosure(start: string): { files: string[]; texts: string[]; packages: string[] } {
  const files: string[] = [];
  const texts: string[] = [];
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.includes(file)) return;
    const text = readFileSync(file, 'utf8');
    files.push(file);
    texts.push(text);
    for (const specifier of importSpecifiers(text)) {
      if (specifier.startsWith('.')) {
        const target = moduleFile(file, specifier);
        // An unresolvable import is keyed by its name (the key must still change when it appears).
        if (target) visit(target);
        else packages.add(`missing:${resolve(dirname(file), specifier)}`);
      } else if (!specifier.startsWith('node:')) packages.add(specifier);
    }
  };
  visit(resolve(start));
  return { files, texts, packages: [...packages].sort() };
}

function packageVersion(name: string): string {
  try {
    return String((require(`${name}/package.json`) as { version?: string }).version);
  } catch {
    return 'unknown';
  }
}

/**
 * The hash of the code `start` (a module file) runs: its import closure's files, every template,
 * and the versions of the packages it imports. `templatesDir` is for tests.
 */
export function computeCodeKey(start: string, templatesDir = TEMPLATES): string {
  const { files, texts, packages } = importClosure(start);
  const parts: string[] = [];
  files.forEach((file, i) => parts.push(file, texts[i]!));
  for (const name of readdirSync(templatesDir).sort()) parts.push(name, readFileSync(join(templatesDir, name), 'utf8'));
  for (const specifier of packages) parts.push(specifier, KEYED_PACKAGES[specifier] ? packageVersion(KEYED_PACKAGES[specifier]) : 'unkeyed');
  return entryKey(...parts);
}

const keys = new Map<string, string>();

/**
 * computeCodeKey, once per process and start module: the code a process runs does not change under
 * it, and the templates it renders with are loaded once per process too (./templates.ts).
 */
export function codeKey(start: string): string {
  let key = keys.get(start);
  if (key === undefined) keys.set(start, (key = computeCodeKey(start)));
  return key;
}

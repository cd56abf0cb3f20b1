/**
 * The TypeScript compiler API (its parser only: the parse stage never builds a program), loaded
 * only when a file needs it. Most API files are read by ./fast-parser.ts, which builds the same
 * syntax nodes without TypeScript; loading TypeScript (9 MB of JavaScript, even from the V8 code
 * cache) and running its parser cold is the larger part of parsing them otherwise.
 *
 * It is loaded with require(), not `import ts from 'typescript'`: when kgen runs bundled
 * (bin/loader), an import of a CommonJS package is wrapped in esbuild's __toESM, which defines a
 * getter for each of TypeScript's ~2,200 exports; require() hands over the module as it is (and
 * lets the V8 code cache of bin/loader/code-cache.js apply).
 *
 * `SyntaxKind` is TypeScript's enum of node kinds, which both parsers' nodes carry. Its numbers
 * change between TypeScript versions, so they are read from TypeScript once per installed version
 * and kept in kgen's cache directory (bin/loader/cache-dir.js).
 *
 * Types come from `import type ts from 'typescript'`, values from here.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type ts from 'typescript';
import { cacheDir, sha1, writeAtomic } from '../../bin/loader/cache-dir.js';

const require = createRequire(import.meta.url);
let loaded: typeof ts | undefined;

/** The TypeScript module, loaded on first use. */
export function typescript(): typeof ts {
  if (!loaded) {
    loaded = require('typescript') as typeof ts;
    for (const [name, kind] of Object.entries(SyntaxKind)) {
      if ((loaded.SyntaxKind as unknown as Record<string, number>)[name] !== kind) {
        throw new Error(`kgen: cached TypeScript SyntaxKind.${name} (${kind}) differs from the installed TypeScript; remove ${cacheDir() ?? 'the cache'}`);
      }
    }
  }
  return loaded;
}

export const SyntaxKind: typeof ts.SyntaxKind = syntaxKinds();

/** name → number of ts.SyntaxKind, from the cache or from TypeScript itself (then cached). */
function syntaxKinds(): typeof ts.SyntaxKind {
  let entry: string | undefined;
  try {
    const pkg = require.resolve('typescript/package.json');
    const { version } = JSON.parse(readFileSync(pkg, 'utf8')) as { version: string };
    const dir = cacheDir();
    entry = dir && join(dir, `ts-syntaxkind-${sha1(pkg, version)}.json`);
    if (entry) return JSON.parse(readFileSync(entry, 'utf8')) as typeof ts.SyntaxKind;
  } catch {
    // Not cached yet (or unreadable): read them from TypeScript.
  }
  const all = (loaded ??= require('typescript') as typeof ts).SyntaxKind as unknown as Record<string, string | number>;
  const kinds = Object.fromEntries(Object.entries(all).filter(([, v]) => typeof v === 'number'));
  if (entry) writeAtomic(entry, JSON.stringify(kinds));
  return kinds as unknown as typeof ts.SyntaxKind;
}

/**
 * The TypeScript compiler API (its parser only: the parse stage never builds a program), loaded
 * when the parse stage is.
 *
 * It is loaded with require(), not `import ts from 'typescript'`: when kgen runs bundled
 * (bin/loader), an import of a CommonJS package is wrapped in esbuild's __toESM, which defines a
 * getter for each of TypeScript's ~2,200 exports; require() hands over the module as it is (and
 * lets the V8 code cache of bin/loader/code-cache.js apply).
 *
 * kgen once had a second, faster reader for the plain subset API files use (fast-parser.ts, ~550
 * lines imitating TypeScript's nodes). Measured on the 100-kind bench set it saved about 10 % of
 * a cold `generate`'s CPU time (bench/README.md), under the 15 % that would pay for keeping two
 * parsers in step, so it was removed (issue 14).
 *
 * Types come from `import type ts from 'typescript'`, values from here.
 */
import { createRequire } from 'node:module';
import type ts from 'typescript';

const require = createRequire(import.meta.url);
const loaded = require('typescript') as typeof ts;

/** The TypeScript module. */
export function typescript(): typeof ts {
  return loaded;
}

export const SyntaxKind: typeof ts.SyntaxKind = loaded.SyntaxKind;

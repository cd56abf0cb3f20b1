/**
 * What both bundlers (./bundle.js for kgen's own code, ./shared.js for generated code bound to the
 * running kgen) share: loading esbuild, its common options, and whether a file runs as CommonJS.
 * A module of its own so that neither bundler imports the other.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { KGEN_ROOT } from './cache-dir.js';

export async function loadEsbuild() {
  // esbuild comes with tsx; resolve it from tsx's location so nested installs work too.
  for (const from of [join(KGEN_ROOT, 'package.json')]) {
    const req = createRequire(from);
    try {
      return req(createRequire(req.resolve('tsx/package.json')).resolve('esbuild'));
    } catch {
      try {
        return req('esbuild');
      } catch {
        // fall through
      }
    }
  }
  return undefined;
}

/** The esbuild options every kgen bundle shares: one ESM file for this Node, in memory, with its inputs listed. */
export function bundleOptions() {
  return {
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node.split('.')[0]}`,
    metafile: true,
    logLevel: 'silent',
    legalComments: 'none',
  };
}

/** Does `file` run as CommonJS under Node? */
export function isCommonJs(file) {
  if (file.endsWith('.cjs') || file.endsWith('.json') || file.endsWith('.node')) return true;
  if (file.endsWith('.mjs')) return false;
  for (let d = dirname(file); ; d = dirname(d)) {
    const pkg = join(d, 'package.json');
    if (existsSync(pkg)) {
      try {
        return JSON.parse(readFileSync(pkg, 'utf8')).type !== 'module';
      } catch {
        return true;
      }
    }
    if (dirname(d) === d) return true;
  }
}

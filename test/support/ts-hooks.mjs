/**
 * ES module hooks (module.register, from ./ts-loader.mjs) that run this repository's TypeScript in
 * test processes, compiled as tsx compiles it: esbuild's transform with tsx's options (format esm,
 * target this Node, whitespace minified, names kept, an inline source map without the sources) and
 * tsconfig.json's compilerOptions, so type-only imports are elided and enums compiled the same way.
 *
 * - resolve: `./x.js` (or `../x.js`, an absolute path, a file: URL) imported by any file outside
 *   node_modules is `./x.ts` when that exists and `./x.js` does not (NodeNext's spelling of a .ts import);
 *   everything else is Node's own resolution, with the process's --conditions (kgen:source).
 * - load: a file: URL ending in .ts is the module compiled from it; its URL stays the source's,
 *   so import.meta.url is the .ts file's. Every other URL is Node's own load.
 *
 * Compiled modules are cached in kgen's cache directory (bin/loader/cache-dir.js: private to the
 * user) as `ts-<sha1>.mjs`, keyed by the file's name (not its directory), its text, the options and
 * esbuild's version; a missing or unreadable entry is compiled again. The source map names the
 * source by its file name alone, which Node resolves against the module's URL, so stack traces
 * name the right path while one entry serves every copy of a file: the server fixture is written
 * to a new directory by every run (test/run.js), and tests copy and generate directories of their
 * own. Entries are not pruned (tsx's cache is not either). Without a cache directory every load
 * compiles.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir, sha1, writeAtomic } from '../../bin/loader/cache-dir.js';

const ROOT = new URL('../../', import.meta.url);
const require = createRequire(import.meta.url);
const esbuildPath = createRequire(require.resolve('tsx/package.json')).resolve('esbuild');
const OPTIONS = {
  loader: 'ts',
  format: 'esm',
  target: `node${process.versions.node}`,
  sourcemap: 'inline',
  sourcesContent: false,
  minifyWhitespace: true,
  keepNames: true,
  tsconfigRaw: { compilerOptions: JSON.parse(readFileSync(new URL('tsconfig.json', ROOT), 'utf8')).compilerOptions },
};
const ESBUILD_VERSION = JSON.parse(readFileSync(join(esbuildPath, '..', '..', 'package.json'), 'utf8')).version;
const OPTIONS_KEY = sha1('ts-hooks 1', ESBUILD_VERSION, JSON.stringify(OPTIONS));
const dir = cacheDir();
let esbuild;

/** A relative or absolute path, or a file: URL (what may name a TypeScript file by its .js name). */
function isPath(specifier) {
  return specifier.startsWith('./') || specifier.startsWith('../') || specifier.startsWith('/') || specifier.startsWith('file:');
}

export async function resolve(specifier, context, next) {
  const parent = context.parentURL;
  const ours = parent?.startsWith('file:') && !parent.includes('/node_modules/') && isPath(specifier);
  if (ours && specifier.endsWith('.js')) {
    const ts = new URL(`${specifier.slice(0, -3)}.ts`, parent);
    if (existsSync(ts) && !existsSync(new URL(specifier, parent))) return { url: ts.href, format: 'module', shortCircuit: true };
  }
  try {
    return await next(specifier, context);
  } catch (err) {
    // tsx also resolves `./x` and `./dir` (no extension) to x.ts and dir/index.ts; NodeNext code
    // never writes them, but TypeScript outside tsconfig.json's check (fixtures) might.
    if (ours && !/\.[cm]?[jt]s$/.test(specifier) && (err?.code === 'ERR_MODULE_NOT_FOUND' || err?.code === 'ERR_UNSUPPORTED_DIR_IMPORT')) {
      for (const candidate of [`${specifier}.ts`, `${specifier}/index.ts`]) {
        const url = new URL(candidate, parent);
        if (existsSync(url)) return { url: url.href, format: 'module', shortCircuit: true };
      }
    }
    throw err;
  }
}

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const text = readFileSync(new URL(url), 'utf8');
  const name = basename(fileURLToPath(url));
  const entry = dir && join(dir, `ts-${sha1(OPTIONS_KEY, name, text)}.mjs`);
  let source;
  try {
    source = entry && readFileSync(entry, 'utf8');
  } catch {
    source = undefined;
  }
  if (!source) {
    esbuild ??= require(esbuildPath);
    source = esbuild.transformSync(text, { ...OPTIONS, sourcefile: name }).code;
    if (entry) writeAtomic(entry, source);
  }
  return { format: 'module', source, shortCircuit: true };
}

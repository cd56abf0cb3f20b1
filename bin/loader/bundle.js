/**
 * Runs one of kgen's own TypeScript entry modules without tsx's loader hooks: the entry and the
 * kgen sources it imports are bundled once with esbuild (tsx's own dependency) into one ES module
 * in the cache directory, and later runs import that file.
 *
 * Staleness: the manifest beside each bundle lists every source esbuild read (plus tsconfig.json,
 * package.json and this loader) with a SHA-1 of its content and the file's identity when hashed
 * (size, mtime, ctime, inode); a run re-hashes only the files whose identity changed (every write
 * changes a file's ctime, which no one can set back) and rebuilds on any difference in content, so
 * an edited source is never run from an old bundle. The bundle and its chunks are inputs too (by
 * content, as the sources), so a damaged file is rebuilt, not run.
 *
 * Inside the bundle:
 * - `import.meta.url` in each source is that source's own file URL, so paths relative to a source
 *   (templates/, builtin/) resolve as they do under tsx;
 * - CommonJS packages are loaded with require() (no cjs-module-lexer pass, and the V8 code cache
 *   of ./code-cache.js applies), except those `options.inline(name)` names, which are bundled
 *   (one file instead of dozens to resolve and read: `yaml` alone is 72); ES-module packages stay
 *   `import`s; all resolve from the entry's folder, as they would under tsx. A bundled package is
 *   checked for staleness as a whole, by its package.json and npm's hidden lockfile (they change
 *   on every install: ./fingerprint.js's recordInputs), not file by file;
 * - a dynamic import() of a kgen source is bundled only when `options.dynamic(path)` says so;
 *   otherwise it stays an import() of the .ts file, which needs tsx registered when it runs;
 * - a dynamic import() that `options.chunk(path)` names (among those bundled) becomes a bundle of
 *   its own in CommonJS form (`chunk-….cjs`, same rules, listed in the entry's manifest) that the
 *   import loads with require(): Node 20 keeps no V8 code cache for ES modules, and the code cache
 *   of ./code-cache.js then spares a large module's parsing and compiling on every later run.
 *
 * Any failure to bundle (esbuild missing, a write error, an unsupported construct) falls back to
 * importing the entry through tsx, the way kgen ran before this loader existed.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { changedSince, contentFingerprint, recordInputs, verifyInput, verifyInputs } from './fingerprint.js';
import { cacheDir, KGEN_ROOT, sha1, writeAtomic } from './cache-dir.js';
import { bundleOptions, isCommonJs, loadEsbuild } from './esbuild.js';

const LOADER_FILES = ['bin/loader/bundle.js', 'bin/loader/fingerprint.js', 'bin/loader/esbuild.js'];
const EXTRA_INPUTS = ['tsconfig.json', 'package.json'];
/** Bundles of other source states are removed once they are this old (another process may be loading one). */
const PRUNE_AFTER_MS = 60 * 60 * 1000;

let tsxRegistered = false;

/** Registers tsx's ESM hooks once (needed to import TypeScript that is not bundled). */
export async function registerTsx() {
  if (tsxRegistered) return;
  tsxRegistered = true;
  const { register } = await import('tsx/esm/api');
  register();
}

/**
 * Imports the TypeScript module `entry` (a path or file URL inside the kgen package) as a cached
 * bundle; resolves to its namespace. `options.dynamic(absPath)` chooses which dynamic imports of
 * kgen sources are bundled (default: none); `options.inline(packageName)` which CommonJS packages
 * are bundled rather than required (default: none); `options.lazyBuiltin(name)` which built-in
 * modules (name without `node:`) the inlined packages get as a stand-in that requires the module on
 * its first property access. KGEN_NO_BUNDLE=1 imports through tsx instead.
 */
export async function importBundled(entry, options = {}) {
  const entryPath = resolve(entry instanceof URL || String(entry).startsWith('file:') ? fileURLToPath(entry) : String(entry));
  const dir = process.env.KGEN_NO_BUNDLE ? undefined : cacheDir();
  const bundle = dir && (cachedBundle(dir, entryPath, options) ?? (await buildBundle(dir, entryPath, options)));
  if (!bundle) {
    await registerTsx();
    return import(pathToFileURL(entryPath).href);
  }
  // kgen's code now runs bundled: TypeScript it imports at run time (generated code) must come
  // through ./shared.js, bound to this bundle's runtime modules (see runtime/controlplane/load-generated.ts).
  globalThis[Symbol.for('kgen.loader')] ??= { importShared: async (...args) => (await import('./shared.js')).importShared(...args) };
  return import(pathToFileURL(bundle).href);
}

function bundleKey(entryPath, options) {
  return sha1(entryPath, process.version, String(options.dynamic ?? ''), String(options.inline ?? ''), String(options.chunk ?? ''), String(options.lazyBuiltin ?? ''), ...LOADER_FILES.map((f) => readFileSync(join(KGEN_ROOT, f))));
}

const IN_PACKAGE = /[\\/]node_modules[\\/]/;

/** The bundle file when its manifest matches every input's current content. */
function cachedBundle(dir, entryPath, options) {
  const key = bundleKey(entryPath, options);
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, `bundle-${key}.json`), 'utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(manifest.inputs) || typeof manifest.bundle !== 'string') return undefined;
  // The inputs include the bundle and its chunks (by content), so a damaged one is rebuilt, not run.
  const checked = verifyInputs(manifest.inputs, verifyInput);
  if (!checked) return undefined;
  const bundle = join(dir, manifest.bundle);
  if (checked.settled) writeAtomic(join(dir, `bundle-${key}.json`), JSON.stringify({ ...manifest, inputs: checked.inputs }, null, 1));
  return bundle;
}

async function buildBundle(dir, entryPath, options) {
  try {
    const esbuild = await loadEsbuild();
    if (!esbuild) return undefined;
    const entryUrl = pathToFileURL(entryPath).href;
    const key = bundleKey(entryPath, options);
    const chunks = { dir, key, esbuild, inputs: [], files: [] };
    const buildStart = Date.now();
    const result = await esbuild.build({
      ...bundleOptions(),
      entryPoints: [entryPath],
      absWorkingDir: KGEN_ROOT,
      tsconfig: existsSync(join(KGEN_ROOT, 'tsconfig.json')) ? join(KGEN_ROOT, 'tsconfig.json') : undefined,
      banner: {
        js: `import { createRequire as __kgenCreateRequire } from 'node:module';\nconst require = __kgenCreateRequire(${JSON.stringify(entryUrl)});`,
      },
      plugins: [kgenPlugin(entryPath, options, chunks)],
    });
    const text = asciiOnly(result.outputFiles[0].text);
    const inputs = [...metafileInputs(result), ...chunks.inputs, ...chunks.files];
    for (const f of [...EXTRA_INPUTS, ...LOADER_FILES]) inputs.push(join(KGEN_ROOT, f));
    const bundleHash = sha1(text);
    const name = `bundle-${key}-${bundleHash.slice(0, 16)}.mjs`;
    if (!writeAtomic(join(dir, name), text)) return undefined;
    const sources = [...new Set(inputs)].sort();
    // A source changed while it was bundled: use this bundle once, but keep no manifest for it.
    // (The chunks are this build's own outputs, written during it.)
    if (changedSince(sources.filter((p) => !chunks.files.includes(p)), buildStart)) return join(dir, name);
    const outputs = [join(dir, name), ...chunks.files];
    const records = [...recordInputs(sources.filter((p) => !chunks.files.includes(p))), ...outputs.map((p) => [p, contentFingerprint(p)])];
    const manifest = { entry: entryPath, bundle: name, bundleHash, inputs: records };
    if (!writeAtomic(join(dir, `bundle-${key}.json`), JSON.stringify(manifest, null, 1))) return undefined;
    prune(dir, key, [name, ...chunks.files.map((f) => relative(dir, f))]);
    return join(dir, name);
  } catch (err) {
    if (process.env.KGEN_DEBUG_LOADER) console.error(`kgen: bundling ${relative(process.cwd(), entryPath)} failed, using tsx:`, err);
    return undefined;
  }
}

function metafileInputs(result) {
  return Object.keys(result.metafile.inputs)
    .filter((p) => !p.includes(':'))
    .map((p) => (isAbsolute(p) ? p : join(KGEN_ROOT, p)));
}

/**
 * Builds the CommonJS bundle of the kgen source `path` (see `options.chunk`), writes it to the
 * cache directory and returns its file; its inputs and file join the entry's manifest.
 */
async function buildChunk(path, entryPath, options, chunks) {
  const result = await chunks.esbuild.build({
    ...bundleOptions(),
    format: 'cjs',
    entryPoints: [path],
    absWorkingDir: KGEN_ROOT,
    tsconfig: existsSync(join(KGEN_ROOT, 'tsconfig.json')) ? join(KGEN_ROOT, 'tsconfig.json') : undefined,
    // Packages resolve from the entry, wherever the cache directory is (`require` is this module's own parameter).
    // Strict, as the ES modules it is made of (the directive must come first).
    banner: { js: `'use strict';\nrequire = require('node:module').createRequire(${JSON.stringify(pathToFileURL(entryPath).href)});` },
    plugins: [kgenPlugin(entryPath, { ...options, chunk: undefined }, chunks)],
  });
  const text = asciiOnly(result.outputFiles[0].text);
  const file = join(chunks.dir, `bundle-${chunks.key}-chunk-${sha1(path).slice(0, 8)}-${sha1(text).slice(0, 16)}.cjs`);
  if (!writeAtomic(file, text)) throw new Error(`cannot write ${file}`);
  chunks.inputs.push(...metafileInputs(result));
  chunks.files.push(file);
  return file;
}

/**
 * `text` with every non-ASCII character of its comment lines written as a `\u` escape. esbuild
 * escapes non-ASCII characters in strings, untagged templates and identifiers (its default ASCII
 * charset), but not in the comments it keeps (doc comments before class members: kgen's have `≤`,
 * `→`, `…`), nor in tagged templates (`String.raw`) and regular expression literals, where an
 * escape would change the value or `.source`. A single non-ASCII character makes V8 hold the whole
 * file as a two-byte string: the runtime chunk (1.9 M characters) took 3.9 MB twice (the text read,
 * and the wrapped copy V8 compiles and keeps) instead of 1.9 MB each, and decoding it cost ~3 ms
 * more of every `kgen serve` start. So the text is escaped only when every line holding such a
 * character is a comment line (starting, after blanks, with `//`, `/*` or `*`); otherwise it is
 * kept as it is, a two-byte string but the same program. U+2028/U+2029 end a line comment, so they
 * stay.
 */
export function asciiOnly(text) {
  const NON_ASCII = /[^\x00-\x7f\u2028\u2029]/;
  if (!NON_ASCII.test(text)) return text;
  const lines = text.split('\n');
  for (const line of lines) {
    if (NON_ASCII.test(line) && !/^\s*(\/\/|\/\*|\*)/.test(line)) return text;
  }
  return text.replace(/[^\x00-\x7f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Removes old bundles of the same entry (their sources have changed since). */
function prune(dir, key, keep) {
  try {
    const now = Date.now();
    for (const name of readdirSync(dir)) {
      if (!name.startsWith(`bundle-${key}-`) || keep.includes(name)) continue;
      const path = join(dir, name);
      if (now - statSync(path).mtimeMs > PRUNE_AFTER_MS) rmSync(path, { force: true });
    }
  } catch {
    // Pruning is housekeeping only.
  }
}

const BUILTINS = new Set(builtinModules);

/** `pkg` of `pkg/sub/path`, `@scope/pkg` of `@scope/pkg/sub`. */
function packageName(spec) {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function isBare(spec) {
  return !spec.startsWith('.') && !isAbsolute(spec) && !spec.startsWith('file:');
}

function kgenPlugin(entryPath, options, chunks) {
  const requireFromEntry = createRequire(entryPath);
  return {
    name: 'kgen-loader',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === 'entry-point' || args.pluginData?.kgenResolving) return undefined;
        const spec = args.path;
        if (spec.startsWith('node:') || BUILTINS.has(spec)) {
          if (args.namespace === 'file' && IN_PACKAGE.test(args.importer) && options.lazyBuiltin?.(spec.replace(/^node:/, ''))) return { path: spec, namespace: 'kgen-lazy-builtin' };
          return { path: spec, external: true };
        }
        if (args.namespace === 'kgen-cjs' || args.namespace === 'kgen-chunk') return { path: spec, external: true };
        if (isBare(spec)) {
          let file;
          try {
            // A bundled (inlined) package's own imports resolve from its file, as Node would (a
            // nested node_modules version); kgen's sources' from the entry's folder.
            file = (args.importer && IN_PACKAGE.test(args.importer) ? createRequire(args.importer) : requireFromEntry).resolve(spec);
          } catch {
            return { path: spec, external: true };
          }
          // An ES-module package is imported by its file URL: the bundle may live outside the package
          // (KGEN_CACHE_DIR, the tmpdir fallback), where a bare specifier would not resolve.
          if (!isCommonJs(file)) return { path: pathToFileURL(file).href, external: true };
          return options.inline?.(packageName(spec)) ? { path: file } : { path: spec, namespace: 'kgen-cjs' };
        }
        if (args.kind === 'dynamic-import') {
          const resolved = await build.resolve(spec, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { kgenResolving: true } });
          if (resolved.errors.length > 0) return { errors: resolved.errors };
          if (options.chunk?.(resolved.path)) return { path: resolved.path, namespace: 'kgen-chunk' };
          if (options.dynamic?.(resolved.path)) return { path: resolved.path };
          return { path: pathToFileURL(resolved.path).href, external: true };
        }
        return undefined;
      });
      build.onLoad({ filter: /.*/, namespace: 'kgen-cjs' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(args.path)});`,
        loader: 'js',
      }));
      // A built-in module an inlined package requires at its top but uses only in some
      // configurations (fastify's node:http2, for HTTP/2 servers): loaded on its first use.
      build.onLoad({ filter: /.*/, namespace: 'kgen-lazy-builtin' }, (args) => ({
        contents: [
          'let loaded;',
          `const load = () => (loaded ??= require(${JSON.stringify(args.path)}));`,
          'module.exports = new Proxy({}, {',
          '  get: (_, key) => load()[key],',
          '  has: (_, key) => key in load(),',
          '  ownKeys: () => Reflect.ownKeys(load()),',
          '  getOwnPropertyDescriptor: (_, key) => {',
          '    const d = Reflect.getOwnPropertyDescriptor(load(), key);',
          '    return d && { ...d, configurable: true };',
          '  },',
          '});',
        ].join('\n'),
        loader: 'js',
      }));
      build.onLoad({ filter: /.*/, namespace: 'kgen-chunk' }, async (args) => ({
        contents: `module.exports = require(${JSON.stringify(await buildChunk(args.path, entryPath, options, chunks))});`,
        loader: 'js',
      }));
      build.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
        let text = readFileSync(args.path, 'utf8');
        if (text.includes('import.meta')) {
          text = text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href));
          if (/\bimport\.meta\b/.test(text)) throw new Error(`${args.path}: only import.meta.url is supported in bundled sources`);
        }
        return { contents: text, loader: args.path.endsWith('js') ? 'js' : 'ts' };
      });
    },
  };
}

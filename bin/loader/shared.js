/**
 * Imports TypeScript that is not kgen's own (a generated directory's index.ts, and what it
 * imports) into a process whose kgen code runs as a bundle (./bundle.js), without tsx: the modules
 * are bundled with esbuild into one ES module, and every `kgen` / `kgen/<subpath>` import in them
 * is bound to the namespace the running kgen provides for it, so the process holds one copy of
 * each runtime module (one defineResource, one StatusError class) whichever way it was reached.
 *
 * The bundle is cached like kgen's own (cache directory of ./cache-dir.js, named `shared-…`):
 * the manifest beside it lists every source esbuild read with a SHA-1 of its content and the
 * file's identity when hashed (size, mtime, ctime, inode); a run re-hashes the files whose identity
 * changed (every write changes ctime), so an edited or regenerated file is never run from an old bundle. These bundles hold
 * derived user code, so every one unused for PRUNE_AFTER_MS is removed when another is written.
 *
 * Errors in the sources (syntax, an unresolvable import) are thrown with esbuild's locations.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleOptions, isCommonJs, loadEsbuild } from './esbuild.js';
import { cacheDir, KGEN_ROOT, sha1, writeAtomic } from './cache-dir.js';
import { changedSince, contentFingerprint, verifyContent, verifyInputs } from './fingerprint.js';

const LOADER_FILES = ['bin/loader/shared.js', 'bin/loader/esbuild.js', 'bin/loader/fingerprint.js'];
const PRUNE_AFTER_MS = 24 * 60 * 60 * 1000;
/** Where the bridge modules find the namespaces the running kgen provided. */
const SHARED = Symbol.for('kgen.loader.shared');
const BUILTINS = new Set(builtinModules);

function isKgenSpecifier(spec) {
  return spec === 'kgen' || spec.startsWith('kgen/');
}

/**
 * Imports each module of `paths` (absolute .ts/.js files), in order, from one bundle; resolves to
 * their namespaces. `provide(specifier)` resolves to the namespace for a `kgen…` specifier they
 * import (undefined: not available, an error). Resolves to undefined when no bundle can be made
 * for a reason other than the sources (no cache directory, esbuild missing).
 */
export async function importShared(paths, provide) {
  const entries = paths.map((p) => resolve(p));
  const dir = cacheDir();
  if (!dir) return undefined;
  const key = sha1('shared', process.version, ...entries, ...LOADER_FILES.map((f) => readFileSync(join(KGEN_ROOT, f))));
  const namespaces = new Map();
  const namespaceOf = async (spec) => {
    if (!namespaces.has(spec)) namespaces.set(spec, await provide(spec));
    return namespaces.get(spec);
  };
  let built = cached(dir, key);
  // A cached bundle binds the export names the running kgen had when it was built: another kgen
  // (other names) rebuilds it.
  if (built) {
    for (const spec of built.shared) {
      if (exportNames(await namespaceOf(spec)) !== built.exportNames?.[spec]) {
        built = undefined;
        break;
      }
    }
  }
  built ??= await build(dir, key, entries, namespaceOf);
  if (!built) return undefined;
  const table = (globalThis[SHARED] ??= Object.create(null));
  for (const spec of built.shared) {
    const ns = await namespaceOf(spec);
    if (!ns) throw new Error(`${spec} cannot be imported by generated or user code here`);
    table[spec] = ns;
  }
  const mod = await import(pathToFileURL(built.bundle).href);
  return entries.map((_, i) => mod[`m${i}`]);
}

/** A namespace's export names as recorded in the manifest (undefined: no namespace). */
function exportNames(ns) {
  return ns ? Object.keys(ns).join(',') : undefined;
}

const IDENTIFIER_NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * The bridge module of a `kgen…` specifier. An ES module exporting the namespace's names, each
 * bound once when the bundle is evaluated: a CommonJS bridge made esbuild copy the whole namespace
 * into a getter object in every module that imports it (126 generated modules import kgen/registry:
 * ~4 ms of each start). The default import stays the namespace itself when it has no default
 * export, as the CommonJS bridge gave it. Without a namespace (or with a name that cannot be an
 * export), the CommonJS bridge, so importShared reports the specifier as before.
 */
function bridgeSource(spec, ns) {
  const lookup = `globalThis[Symbol.for('kgen.loader.shared')][${JSON.stringify(spec)}]`;
  const names = ns ? Object.keys(ns) : [];
  if (!ns || !names.every((n) => IDENTIFIER_NAME.test(n))) return { contents: `module.exports = ${lookup};`, loader: 'js' };
  const lines = [`const ns = ${lookup};`];
  names.forEach((name, i) => lines.push(`const v${i} = ns[${JSON.stringify(name)}];`, `export { v${i} as ${name} };`));
  if (!names.includes('default')) lines.push('export default ns;');
  return { contents: lines.join('\n'), loader: 'js' };
}

function cached(dir, key) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, `shared-${key}.json`), 'utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(manifest.inputs) || !Array.isArray(manifest.shared) || typeof manifest.bundle !== 'string') return undefined;
  // The inputs include the bundle (by content, as the sources), so a damaged one is rebuilt, not run.
  const checked = verifyInputs(manifest.inputs, verifyContent);
  if (!checked) return undefined;
  const bundle = join(dir, manifest.bundle);
  // Files recorded by content only that have settled keep their identity from now on (fingerprint.js).
  if (checked.settled) writeAtomic(join(dir, `shared-${key}.json`), JSON.stringify({ ...manifest, inputs: checked.inputs }, null, 1));
  return { bundle, shared: manifest.shared, exportNames: manifest.exportNames };
}

async function build(dir, key, entries, namespaceOf) {
  const esbuild = await loadEsbuild();
  if (!esbuild) return undefined;
  const shared = new Set();
  const buildStart = Date.now();
  let result;
  try {
    result = await esbuild.build({
      ...bundleOptions(),
      stdin: { contents: entries.map((p, i) => `export * as m${i} from ${JSON.stringify(p)};`).join('\n'), resolveDir: dirname(entries[0]), sourcefile: 'kgen-shared-entry.js', loader: 'js' },
      banner: { js: `import { createRequire as __kgenCreateRequire } from 'node:module';\nconst require = __kgenCreateRequire(import.meta.url);` },
      plugins: [sharedPlugin(shared, namespaceOf)],
    });
  } catch (err) {
    const messages = (err.errors ?? []).map((e) => (e.location ? `${e.location.file}:${e.location.line}:${e.location.column + 1}: ${e.text}` : e.text));
    throw new Error(messages.length > 0 ? messages.join('\n') : err.message);
  }
  const text = result.outputFiles[0].text;
  // The entry is esbuild's stdin, named after a file beside the first module that does not exist.
  const stdinEntry = join(dirname(entries[0]), 'kgen-shared-entry.js');
  const inputs = Object.keys(result.metafile.inputs)
    .filter((p) => !p.includes(':') && p !== '<stdin>')
    .map((p) => (isAbsolute(p) ? p : resolve(p)))
    .filter((p) => p !== stdinEntry);
  const bundleHash = sha1(text);
  const name = `shared-${key}-${bundleHash.slice(0, 16)}.mjs`;
  const exportNamesBySpec = {};
  for (const spec of shared) exportNamesBySpec[spec] = exportNames(await namespaceOf(spec));
  const sources = [...new Set(inputs)].sort();
  if (!writeAtomic(join(dir, name), text)) return undefined;
  const records = [...sources, join(dir, name)].map((p) => [p, contentFingerprint(p)]);
  const manifest = { entries, bundle: name, bundleHash, shared: [...shared].sort(), exportNames: exportNamesBySpec, inputs: records };
  // A source changed while it was bundled: use this bundle once, but keep no manifest for it.
  if (!changedSince(sources, buildStart) && !writeAtomic(join(dir, `shared-${key}.json`), JSON.stringify(manifest, null, 1))) return undefined;
  prune(dir, name);
  return { bundle: join(dir, name), shared: manifest.shared, exportNames: exportNamesBySpec };
}

/** Removes shared bundles and manifests not written or read for a day (their directories may be gone). */
function prune(dir, keep) {
  try {
    const now = Date.now();
    for (const name of readdirSync(dir)) {
      if (!name.startsWith('shared-') || name === keep) continue;
      const path = join(dir, name);
      const st = statSync(path);
      if (now - Math.max(st.mtimeMs, st.atimeMs) > PRUNE_AFTER_MS) rmSync(path, { force: true });
    }
  } catch {
    // Pruning is housekeeping only.
  }
}

function sharedPlugin(shared, namespaceOf) {
  return {
    name: 'kgen-shared',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.pluginData?.kgenResolving) return undefined;
        const spec = args.path;
        if (args.namespace === 'kgen-cjs' || args.namespace === 'kgen-shared') return { path: spec, external: true };
        if (spec.startsWith('node:') || BUILTINS.has(spec)) return { path: spec, external: true };
        if (isKgenSpecifier(spec)) {
          shared.add(spec);
          return { path: spec, namespace: 'kgen-shared' };
        }
        if (spec.startsWith('.') || isAbsolute(spec) || spec.startsWith('file:')) return undefined;
        // An npm package, resolved from the importing file as Node would.
        let file;
        try {
          file = createRequire(args.importer && isAbsolute(args.importer) ? args.importer : join(args.resolveDir, 'x.js')).resolve(spec);
        } catch {
          return { path: spec, external: true };
        }
        return isCommonJs(file) ? { path: file, namespace: 'kgen-cjs' } : { path: pathToFileURL(file).href, external: true };
      });
      build.onLoad({ filter: /.*/, namespace: 'kgen-shared' }, async (args) => bridgeSource(args.path, await namespaceOf(args.path)));
      build.onLoad({ filter: /.*/, namespace: 'kgen-cjs' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
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

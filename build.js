#!/usr/bin/env node
// Builds kgen's own package into dist/: cli/, generator/ and runtime/ as ES modules (one .js file
// and source map per source, written by esbuild, no bundling) plus the .d.ts files and declaration
// maps tsc writes for them (tsconfig.build.json). The package's "exports" name these files, and
// bin/kgen.js runs dist/cli/index.js in an installed package. Runs on `prepare` (npm install or
// npm ci in the repository, npm pack, installs from git) after @kgen/client's build, whose .d.ts
// files kgen's own refer to.
//
// Sources find files beside them through import.meta.url (templates/, generator/builtin/,
// package.json, createRequire). In dist/ each module's import.meta.url is replaced by the URL of
// its source (dist/runtime/x/y.js → runtime/x/y.ts, which the package ships), so those paths
// resolve as they do from the sources.
//
// Written beside dist/ and swapped in whole, so that a process reading dist/ (tests running in
// parallel; npm pack) never sees a half-written tree.
//
// A build of an unchanged tree does nothing: .build-stamp.json records the inputs, options and
// outputs of the last build (bin/loader/build-stamp.js says what counts as a change); `--force`
// builds anyway, `--dry-run` only says whether a build would run (exit 0: up to date, 1: it
// would build) and `--inputs` prints the files the check watches, one a line.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { recordInputs, staleReason, walkFiles, writeStamp } from './bin/loader/build-stamp.js';

const root = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const esbuild = require('esbuild');

const TREES = ['cli', 'generator', 'runtime'];
/** API types the generator parses (generator/builtin/**), not modules that run. */
const SKIP = /^generator[\\/]builtin[\\/]/;

function walk(dir) {
  const out = [];
  for (const ent of readdirSync(join(root, dir), { withFileTypes: true })) {
    const rel = join(dir, ent.name);
    if (ent.isDirectory()) out.push(...walk(rel));
    else if (!SKIP.test(rel)) out.push(rel);
  }
  return out;
}

const posix = (p) => p.split(sep).join('/');

/** Does `file` run as CommonJS under Node (the nearest package.json says so)? */
function isCommonJs(file) {
  if (file.endsWith('.cjs') || file.endsWith('.json') || file.endsWith('.node')) return true;
  if (file.endsWith('.mjs')) return false;
  for (let d = dirname(file); dirname(d) !== d; d = dirname(d)) {
    if (existsSync(join(d, 'package.json'))) return JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')).type !== 'module';
  }
  return true;
}

/**
 * dist/bundle/: the CLI with cli/, generator/ and runtime/ bundled by esbuild (one entry, the
 * commands' lazily imported modules as chunks), which bin/kgen.js runs for every command that
 * imports no module of the user's: one file to load instead of ~250, and the CommonJS packages
 * are require()d, so the V8 code cache (bin/loader/code-cache.js) applies to them. Packages are
 * not bundled; they resolve from the kgen package as they do for dist/'s modules. Each source's
 * import.meta.url is its own URL, as in dist/'s modules.
 */
async function bundleCli(dir) {
  const within = (file) => TREES.some((t) => !relative(join(root, t), file).startsWith('..'));
  await esbuild.build({
    entryPoints: { kgen: join(root, 'cli/index.ts') },
    outdir: dir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'chunk-[hash]',
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    logLevel: 'warning',
    tsconfig: join(root, 'tsconfig.build.json'),
    banner: { js: `import { createRequire as __kgenCreateRequire } from 'node:module';\nconst require = __kgenCreateRequire(import.meta.url);` },
    plugins: [
      {
        name: 'kgen-dist-bundle',
        setup(build) {
          build.onResolve({ filter: /.*/ }, async (args) => {
            if (args.kind === 'entry-point' || args.pluginData?.again) return undefined;
            const spec = args.path;
            if (args.namespace === 'kgen-cjs') return { path: spec, external: true };
            if (spec.startsWith('node:')) return { path: spec, external: true };
            if (!spec.startsWith('.') && !spec.startsWith('/')) {
              let file;
              try {
                file = createRequire(join(root, 'package.json')).resolve(spec);
              } catch {
                return { path: spec, external: true };
              }
              if (!file.includes(sep) || file.startsWith('node:')) return { path: spec, external: true };
              return isCommonJs(file) ? { path: spec, namespace: 'kgen-cjs' } : { path: spec, external: true };
            }
            const resolved = await build.resolve(spec, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { again: true } });
            if (resolved.errors.length > 0) return { errors: resolved.errors };
            // bin/loader/cache-dir.js and the like: imported where the package ships them.
            if (!within(resolved.path)) return { path: posix(relative(dir, resolved.path)).replace(/^(?!\.)/, './'), external: true };
            return { path: resolved.path };
          });
          build.onLoad({ filter: /.*/, namespace: 'kgen-cjs' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
          build.onLoad({ filter: /\.ts$/ }, (args) => {
            let text = readFileSync(args.path, 'utf8');
            if (text.includes('import.meta.url')) {
              const url = `new URL(${JSON.stringify(posix(relative(dir, args.path)))}, import.meta.url).href`;
              text = text.replaceAll('import.meta.url', url);
            }
            return { contents: text, loader: 'ts' };
          });
        },
      },
    ],
  });
}
const quiet = process.env.KGEN_BUILD_QUIET === '1';

/**
 * What the build reads: the compiled trees (every file, walked afresh), generated/, bin/loader/
 * (the bundle and dist/'s modules import files there by path), its own script and configs,
 * @kgen/client's package.json and .d.ts files (which kgen's refer to), and the installed packages
 * as a whole.
 */
function buildInputs() {
  let client = join(root, 'packages/client');
  try {
    client = dirname(require.resolve('@kgen/client/package.json'));
  } catch {
    // Not linked yet: tsc will say so; the workspace's own directory stands in.
  }
  return [
    ...TREES.flatMap((tree) => walkFiles(join(root, tree))),
    // runtime/ imports the types of built-in APIs from generated/models.
    ...walkFiles(join(root, 'generated')),
    ...walkFiles(join(root, 'bin/loader')),
    ...['build.js', 'tsconfig.build.json', 'package.json', 'package-lock.json', 'node_modules/.package-lock.json'].map((f) => join(root, f)),
    join(client, 'package.json'),
    ...walkFiles(join(client, 'dist/types')),
    require.resolve('esbuild/package.json'),
    require.resolve('typescript/package.json'),
  ];
}

/** Flags of the up-to-date check itself, not options of the build. */
const CHECK_FLAGS = ['--force', '--dry-run', '--inputs'];
const stamp = {
  file: join(root, '.build-stamp.json'),
  spec: { root, inputs: buildInputs(), outputs: join(root, 'dist'), options: { node: process.version, args: process.argv.slice(2).filter((a) => !CHECK_FLAGS.includes(a)) } },
};
if (process.argv.includes('--inputs')) {
  console.log(stamp.spec.inputs.join('\n'));
  process.exit(0);
}
const reason = process.argv.includes('--force') ? '--force' : staleReason(stamp.file, stamp.spec);
if (process.argv.includes('--dry-run')) {
  console.log(reason === undefined ? 'kgen: dist/ is up to date' : `kgen: would build dist/ (${reason})`);
  process.exit(reason === undefined ? 0 : 1);
}
if (reason === undefined) {
  if (!quiet) console.log(`kgen: dist/ is up to date (${stamp.spec.inputs.length} inputs as the last build found them; --force builds anyway)`);
  process.exit(0);
}
if (!quiet) console.log(`kgen: building dist/ (${reason})`);
const inputs = recordInputs(root, stamp.spec.inputs);

const out = join(root, `.dist-${process.pid}`);
rmSync(out, { recursive: true, force: true });
try {
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json'), '--declarationDir', out], { stdio: 'inherit', cwd: root });
  let count = 0;
  for (const tree of TREES) {
    for (const rel of walk(tree)) {
      const target = join(out, rel);
      mkdirSync(dirname(target), { recursive: true });
      if (rel.endsWith('.d.ts') || rel.endsWith('.js')) {
        // Hand-written modules (runtime/client/index.js and its .d.ts) ship as they are.
        copyFileSync(join(root, rel), target);
        continue;
      }
      if (!rel.endsWith('.ts')) continue;
      const jsFile = target.replace(/\.ts$/, '.js');
      const sourceFromJs = posix(relative(dirname(jsFile), join(out, '..', rel)));
      let text = readFileSync(join(root, rel), 'utf8');
      // Relative imports of files outside the compiled trees (bin/loader/cache-dir.js) point at
      // those files where the package ships them.
      text = text.replace(/(\bfrom\s*|\bimport\s*\(\s*)(['"])(\.\.?\/[^'"]+)\2/g, (match, head, quote, spec) => {
        const file = join(root, dirname(rel), spec);
        const inside = TREES.some((t) => !relative(join(root, t), file).startsWith('..'));
        if (inside || !existsSync(file)) return match;
        return `${head}${quote}${posix(relative(dirname(jsFile), join(out, '..', relative(root, file))))}${quote}`;
      });
      let banner = '';
      if (/\bimport\.meta\.url\b/.test(text)) {
        text = text.replaceAll('import.meta.url', '__kgenSourceUrl');
        banner = `const __kgenSourceUrl = new URL(${JSON.stringify(sourceFromJs)}, import.meta.url).href;`;
      }
      const result = await esbuild.transform(text, {
        loader: 'ts',
        format: 'esm',
        target: 'node20',
        sourcemap: 'external',
        sourcefile: sourceFromJs,
        sourcesContent: false,
        banner,
        tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: false, useDefineForClassFields: true } },
        logLevel: 'warning',
      });
      const base = jsFile.slice(dirname(jsFile).length + 1);
      writeFileSync(jsFile, `${result.code}//# sourceMappingURL=${base}.map\n`);
      writeFileSync(`${jsFile}.map`, result.map);
      count++;
    }
  }
  await bundleCli(join(out, 'bundle'));
  writeFileSync(join(out, 'README.md'), 'Built by build.js from cli/, generator/ and runtime/ (`npm run build`). Not committed.\n');
  const old = join(root, `.dist-old-${process.pid}`);
  // Another build may swap its own dist/ in between the two renames: then this one moves it aside too.
  for (let attempt = 1; ; attempt++) {
    try {
      renameSync(join(root, 'dist'), old);
    } catch {
      // No dist/ yet, or another build's swap is midway.
    }
    try {
      renameSync(out, join(root, 'dist'));
      break;
    } catch (err) {
      if (attempt >= 10) throw err;
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  }
  writeStamp(stamp.file, { root, inputs, outputs: stamp.spec.outputs, options: stamp.spec.options });
  if (!quiet) console.log(`kgen: built dist/ (${count} modules, .d.ts files and maps)`);
} catch (err) {
  rmSync(out, { recursive: true, force: true });
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}

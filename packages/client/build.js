#!/usr/bin/env node
// Builds @kgen/client: dist/index.js, one ES module bundled by esbuild from src/ and the few
// runtime/api modules it shares with the server, and dist/types/, the .d.ts files and declaration
// maps tsc writes for the same sources. Runs on `prepare` (npm install in the repository, npm pack,
// installs from git) and `npm run build`.
//
// The YAML parser (kubeconfig files) is bundled in, from the `yaml` package's ES module build: as
// an import of its CommonJS build it would break users' ESM bundles (its require('process') cannot
// be bundled into an ES module), and bundled the client has no run-time dependency at all.
//
// A build of an unchanged tree does nothing: .build-stamp.json records the inputs, options and
// outputs of the last build (bin/loader/build-stamp.js says what counts as a change); `--force`
// builds anyway, `--dry-run` only says whether a build would run (exit 0: up to date, 1: it
// would build) and `--inputs` prints the files the check watches, one a line.
import { execFileSync } from 'node:child_process';
import { renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { recordInputs, staleReason, walkFiles, writeStamp } from '../../bin/loader/build-stamp.js';
import { browserPlatform } from './browser-plugin.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '../..');
const require = createRequire(import.meta.url);

/**
 * What the build reads: src/, all of kgen's runtime/ (src/ imports runtime/api and runtime/types;
 * the whole tree, so that an import reaching further is covered too), its own scripts and
 * configs, and the installed packages as a whole (yaml is bundled in).
 */
function buildInputs() {
  return [
    ...walkFiles(join(here, 'src')),
    ...walkFiles(join(repo, 'runtime')),
    ...['build.js', 'browser-plugin.js', 'tsconfig.build.json', 'package.json'].map((f) => join(here, f)),
    ...['bin/loader/build-stamp.js', 'package-lock.json', 'node_modules/.package-lock.json'].map((f) => join(repo, f)),
    require.resolve('esbuild/package.json'),
    require.resolve('typescript/package.json'),
    require.resolve('yaml/package.json'),
  ];
}

const quiet = process.env.KGEN_BUILD_QUIET === '1';
/** Flags of the up-to-date check itself, not options of the build. */
const CHECK_FLAGS = ['--force', '--dry-run', '--inputs'];
const stamp = {
  file: join(here, '.build-stamp.json'),
  spec: { root: here, inputs: buildInputs(), outputs: join(here, 'dist'), options: { node: process.version, args: process.argv.slice(2).filter((a) => !CHECK_FLAGS.includes(a)) } },
};
if (process.argv.includes('--inputs')) {
  console.log(stamp.spec.inputs.join('\n'));
  process.exit(0);
}
const reason = process.argv.includes('--force') ? '--force' : staleReason(stamp.file, stamp.spec);
if (process.argv.includes('--dry-run')) {
  console.log(reason === undefined ? '@kgen/client: dist/ is up to date' : `@kgen/client: would build dist/ (${reason})`);
  process.exit(reason === undefined ? 0 : 1);
}
if (reason === undefined) {
  if (!quiet) console.log(`@kgen/client: dist/ is up to date (${stamp.spec.inputs.length} inputs as the last build found them; --force builds anyway)`);
  process.exit(0);
}
const inputs = recordInputs(here, stamp.spec.inputs);
const esbuild = require('esbuild');

// Built beside dist/ and swapped in whole, so that a build running while another process reads
// dist/ (tests run in parallel; npm pack) never shows it a half-written tree.
const out = join(here, `.dist-${process.pid}`);
rmSync(out, { recursive: true, force: true });
await esbuild.build({
  entryPoints: [join(here, 'src/index.ts')],
  outfile: join(out, 'index.js'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  // ws (CONNECT subresources) is the package's one run-time dependency, installed beside it.
  external: ['ws'],
  target: 'node20',
  legalComments: 'none',
  banner: { js: `// @kgen/client. Bundles the yaml package (ISC license, Copyright Eemeli Aro <eemeli@gmail.com>).` },
  plugins: [
    {
      name: 'yaml-esm',
      setup(build) {
        const yamlDir = dirname(require.resolve('yaml/package.json'));
        build.onResolve({ filter: /^yaml$/ }, () => ({ path: join(yamlDir, 'browser', 'index.js') }));
      },
    },
  ],
  logLevel: 'warning',
});

// The browser build: fetch instead of node:http, and stand-ins for what needs a process.
await esbuild.build({
  entryPoints: [join(here, 'src/index.ts')],
  outfile: join(out, 'browser.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [browserPlatform],
});
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(here, 'tsconfig.build.json'), '--declarationDir', join(out, 'types')], { stdio: 'inherit', cwd: here });
const old = join(here, `.dist-old-${process.pid}`);
// Another build may swap its own dist/ in between our two renames: then ours moves it aside too.
for (let attempt = 1; ; attempt++) {
  try {
    renameSync(join(here, 'dist'), old);
  } catch {
    // No dist/ (a first build, or another build's swap is midway).
  }
  try {
    renameSync(out, join(here, 'dist'));
    break;
  } catch (err) {
    if (attempt >= 10) throw err;
  } finally {
    rmSync(old, { recursive: true, force: true });
  }
}
writeStamp(stamp.file, { root: here, inputs, outputs: stamp.spec.outputs, options: stamp.spec.options });

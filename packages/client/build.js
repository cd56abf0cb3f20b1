#!/usr/bin/env node
// Builds @kgen/client: dist/index.js, one ES module bundled by esbuild from src/ and the few
// runtime/api modules it shares with the server, and dist/types/, the .d.ts files and declaration
// maps tsc writes for the same sources. Runs on `prepare` (npm install in the repository, npm pack,
// installs from git) and `npm run build`.
//
// The YAML parser (kubeconfig files) is bundled in, from the `yaml` package's ES module build: as
// an import of its CommonJS build it would break users' ESM bundles (its require('process') cannot
// be bundled into an ES module), and bundled the client has no run-time dependency at all.
import { execFileSync } from 'node:child_process';
import { renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserPlatform } from './browser-plugin.js';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
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

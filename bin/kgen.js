#!/usr/bin/env node
// kgen has no build step. `kgen generate` (and `kgen diff`, which compiles the same way) runs the CLI and the generator as a cached esbuild
// bundle of their TypeScript (rebuilt whenever a source changes; see loader/bundle.js), with a V8
// code cache for the TypeScript compiler. `kgen serve` runs the CLI and the runtime the same way and
// bundles the generated TypeScript it serves against them (loader/shared.js). `kgen init` and help
// run the CLI's own bundle. Every other command (and `serve --admission`/`--handlers`) runs through tsx as before.
import { relative } from 'node:path';
import { enableCodeCache, importBundled, KGEN_ROOT, registerTsx } from './loader/index.js';

const entry = new URL('../cli/index.ts', import.meta.url);

if (process.argv[2] === 'generate' || process.argv[2] === 'diff') {
  enableCodeCache();
  // Bundle the lazily imported generator (cli/generate.ts), not the server behind `serve`, and the
  // small CommonJS packages it always loads (~100 files to resolve and read otherwise).
  await importBundled(entry, {
    dynamic: (path) => /^(cli|generator)[\\/]/.test(relative(KGEN_ROOT, path)) && !/^cli[\\/]serve/.test(relative(KGEN_ROOT, path)),
    inline: (name) => name === 'yaml' || name === 'handlebars' || name === 'commander',
    // The generator as a CommonJS bundle of its own, so that its V8 code cache is kept.
    chunk: (path) => /^cli[\\/]generate\.ts$/.test(relative(KGEN_ROOT, path)),
  });
} else if (process.argv[2] === 'serve' && !process.argv.some((a) => /^--(admission|handlers)(=|$)/.test(a))) {
  // The CLI and the runtime as one bundle; the generated code is bundled against its runtime
  // modules when the server loads it (loader/shared.js). Admission modules import generated
  // modules themselves, so `--admission` (and `--handlers`) keeps everything on tsx (one copy of each module).
  // Every CommonJS dependency it loads (fastify, semver, yaml, …: ~270 small files) from the V8 code cache.
  enableCodeCache({ minBytes: 0 });
  await importBundled(entry, { dynamic: (path) => /^(cli|runtime)[\\/]/.test(relative(KGEN_ROOT, path)) && !/^cli[\\/]generate\.ts$/.test(relative(KGEN_ROOT, path)) });
} else if (process.argv[2] === 'init' || process.argv.length === 2 || process.argv[2] === '--help' || process.argv[2] === '-h') {
  // The CLI alone (init needs nothing else): no command's module is loaded, so no tsx either.
  enableCodeCache();
  await importBundled(entry);
} else {
  await registerTsx();
  await import(entry.href);
}

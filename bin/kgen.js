#!/usr/bin/env node
// How kgen runs its own code.
//
// An installed package (no .git beside it: npm install of a tarball, a registry version or a git
// URL) runs dist/, what build.js compiled on prepare/prepack, with plain node: dist/bundle/kgen.js
// (the CLI bundled, for start-up), or, for the commands that import a user's module (`serve
// --admission`, `test-conversion`), dist/cli/index.js with tsx registered for that module, so that
// its `kgen/...` imports (package exports → dist/) are the modules the CLI runs. TypeScript that is
// not kgen's own is still compiled at run time: `kgen serve` bundles the generated code it serves
// against the running runtime modules (loader/shared.js).
//
// A checkout (or KGEN_DIST=0) runs the TypeScript sources, so an edit takes effect at once:
// `kgen generate` (and `kgen diff`, which compiles the same way) runs the CLI and the generator as a
// cached esbuild bundle of their TypeScript (rebuilt whenever a source changes; see
// loader/bundle.js), with a V8 code cache for the TypeScript compiler. `kgen serve` runs the CLI
// and the runtime the same way. `kgen init` and help run the CLI's own bundle. Every other command
// (and `serve --admission`/`--handlers`) runs through tsx, with the `kgen:source` export condition so that
// `kgen/...` imported by generated code is the same source module. KGEN_DIST=1 runs a built dist/
// in a checkout too.
import { existsSync } from 'node:fs';
import { register } from 'node:module';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { enableCodeCache, importBundled, KGEN_ROOT, registerTsx } from './loader/index.js';

const entry = new URL('../cli/index.ts', import.meta.url);
const built = join(KGEN_ROOT, 'dist', 'cli', 'index.js');
const useDist = process.env.KGEN_DIST === '1' || (process.env.KGEN_DIST !== '0' && !existsSync(join(KGEN_ROOT, '.git')) && existsSync(built));
// Modules of the user's (--admission, --handlers) import generated code: those runs stay on tsx.
const admission = process.argv.some((a) => /^--(admission|handlers)(=|$)/.test(a));

if (useDist) {
  // CommonJS dependencies from the V8 code cache: for `serve` every one (fastify, semver, yaml, …:
  // ~270 small files), otherwise the large ones (the TypeScript compiler).
  enableCodeCache(process.argv[2] === 'serve' ? { minBytes: 0 } : { readLarge: true });
  if ((process.argv[2] === 'serve' && admission) || process.argv[2] === 'test-conversion') {
    // These import a user's TypeScript module, which imports generated code: all through tsx, whose
    // `kgen/...` imports resolve (package exports) to the dist/ modules this process runs.
    await registerTsx();
    await import(pathToFileURL(built).href);
  } else {
    // The CLI as one bundle (dist/bundle/, written by build.js next to dist/'s modules). `kgen serve`
    // bundles the generated code against this process's runtime modules (runtime/controlplane/load-generated.ts).
    globalThis[Symbol.for('kgen.loader')] ??= { importShared: async (...args) => (await import('./loader/shared.js')).importShared(...args) };
    const bundled = join(KGEN_ROOT, 'dist', 'bundle', 'kgen.js');
    await import(pathToFileURL(existsSync(bundled) ? bundled : built).href);
  }
} else if (process.argv[2] === 'generate' || process.argv[2] === 'diff') {
  enableCodeCache({ readLarge: true });
  // Bundle the lazily imported generator (cli/generate.ts), not the server behind `serve`, and the
  // small CommonJS packages it always loads (~100 files to resolve and read otherwise). `generate`
  // bundles no other command's modules: every dynamically imported module that is bundled is
  // parsed on every run (the entry is an ES module, which Node 20 keeps no code cache for), and
  // `diff`, `docs` and `validate` pull in most of the generator and runtime/validation a second
  // time (~0.85 MB of the entry); those imports stay .ts imports that a `generate` run never makes.
  // (Two function literals: the bundle's cache key holds the predicate's source text.)
  await importBundled(entry, {
    dynamic:
      process.argv[2] === 'generate'
        ? (path) => /^cli[\\/]generate\.ts$/.test(relative(KGEN_ROOT, path))
        : (path) => /^(cli|generator)[\\/]/.test(relative(KGEN_ROOT, path)) && !/^cli[\\/]serve/.test(relative(KGEN_ROOT, path)),
    inline: (name) => name === 'yaml' || name === 'handlebars' || name === 'commander',
    // The generator as a CommonJS bundle of its own, so that its V8 code cache is kept.
    chunk: (path) => /^cli[\\/]generate\.ts$/.test(relative(KGEN_ROOT, path)),
  });
} else if (process.argv[2] === 'serve' && !admission) {
  // The CLI and the runtime as one bundle; the generated code is bundled against its runtime
  // modules when the server loads it (loader/shared.js). Admission modules import generated
  // modules themselves, so `--admission` (and `--handlers`) keeps everything on tsx (one copy of each module).
  // Every CommonJS dependency it loads (fastify, semver, yaml, …: ~270 small files) from the V8 code cache.
  // Only what `serve` can reach is bundled: the runtime and cli/serve*.ts. The other commands'
  // lazily imported modules (diff, docs, validate, test-conversion: the generator, ~0.3 MB) stay
  // import()s of their sources, never run in this process; V8 parses every byte of an ES module
  // bundle at start (Node 20 keeps no code cache for ES modules).
  // The runtime (everything cli/serve-runtime.ts reaches, ~1 MB) is a CommonJS chunk, so that the
  // V8 code cache spares compiling it on every start.
  // The CommonJS packages every start loads (fastify and what it requires, semver, commander,
  // fast-json-patch: ~140 files) are bundled into it: resolving each file (stats, realpaths,
  // package.json scopes) cost more than compiling it. The packages loaded on first use (yaml, ws,
  // better-sqlite3, prom-client, node-forge) stay require()s, so they still load only then.
  enableCodeCache({ minBytes: 0 });
  await importBundled(entry, {
    dynamic: (path) => /^(runtime[\\/]|cli[\\/]serve)/.test(relative(KGEN_ROOT, path)),
    chunk: (path) => /^cli[\\/]serve-runtime\.ts$/.test(relative(KGEN_ROOT, path)),
    inline: (name) =>
      /^(fastify|@fastify\/(error|proxy-addr|forwarded)|avvio|fastq|reusify|process-warning|toad-cache|rfdc|fast-json-stringify|ipaddr\.js|secure-json-parse|semver|find-my-way|fast-querystring|fast-decode-uri-component|safe-regex2|ret|fast-deep-equal|abstract-logging|fast-json-patch|commander)$/.test(name),
    // fastify requires node:http2 at its top for HTTP/2 servers, which kgen never asks it for
    // (~3 ms of every start to load).
    lazyBuiltin: (name) => name === 'http2',
  });
} else if (process.argv[2] === 'init' || process.argv.length === 2 || process.argv[2] === '--help' || process.argv[2] === '-h') {
  // The CLI alone (init needs nothing else): no command's module is loaded, so no tsx either.
  enableCodeCache();
  await importBundled(entry);
} else {
  register(new URL('./loader/source-conditions.js', import.meta.url));
  await registerTsx();
  await import(entry.href);
}

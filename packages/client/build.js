#!/usr/bin/env node
// Builds @kgen/client: dist/index.js, one ES module bundled by esbuild from src/ and the few
// runtime/api modules it shares with the server (yaml stays an import: the only dependency), and
// dist/types/, the .d.ts files and declaration maps tsc writes for the same sources. Runs on
// `prepare` (npm install in the repository, npm pack, installs from git) and `npm run build`.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const esbuild = require('esbuild');

rmSync(join(here, 'dist'), { recursive: true, force: true });
await esbuild.build({
  entryPoints: [join(here, 'src/index.ts')],
  outfile: join(here, 'dist/index.js'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['yaml'],
  legalComments: 'none',
  logLevel: 'warning',
});
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(here, 'tsconfig.build.json')], { stdio: 'inherit', cwd: here });

/**
 * kgen as a dependency of a real program, the way a user gets it: both packages packed with
 * `npm pack` (whose `prepare` builds @kgen/client and kgen's dist/, or finds them up to date
 * with their sources by build.js's stamp: CI's install has just built them), installed from the
 * tarballs into a new project outside the repository, offline (`npm install --offline`) from this
 * machine's npm cache, then, in order: `npx kgen init`,
 * `npx kgen generate ./apis`, tsc with nodenext and with bundler settings (strict,
 * exactOptionalPropertyTypes, noUncheckedIndexedAccess, isolatedModules, verbatimModuleSyntax),
 * `node dist/src/app.js` creating, listing and watching through the generated client against
 * `kgen serve`, a program using the generated validators (generated/validate/…, which import
 * kgen/validate: compiled JavaScript with .d.ts files, under both tsc settings and plain node),
 * a CommonJS script that require()s the client, and an esbuild bundle of the app.
 * Last, `npm install --omit=dev` of a client-only project installs @kgen/client alone: no native
 * module, no dependency, under 1 MB; the compiled app runs there too.
 *
 * Offline: npm resolves version ranges from registry metadata (packuments), which `npm ci` never
 * fetches, so a cache filled by installing the repository holds the tarballs but not the metadata.
 * Each project here therefore gets a package-lock.json written from the repository's own lockfile
 * (`offlineLock`): kgen's dependencies are exactly the repository's production tree, so every
 * tarball it names is in the cache by its integrity, and npm installs from the lockfile alone.
 * The install log is checked for metadata requests.
 *
 * The kgen install uses --ignore-scripts: better-sqlite3 would otherwise compile from source
 * (no prebuilt binary can be downloaded here), so the server runs with --storage memory:.
 */
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO, startKgen, tempDir, type KgenServer } from './harness.js';

/** The environment without what `npm test` exported for its own run (npm_config_*, KUBECONFIG). */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && k !== 'KUBECONFIG' && k !== 'NODE_OPTIONS' && k !== 'INIT_CWD') env[k] = v;
  return env;
}

function run(cmd: string, args: string[], cwd: string, timeout = 300_000, env: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  const result = spawnSync(cmd, args, { cwd, env: { ...cleanEnv(), ...env }, encoding: 'utf8', timeout });
  if (result.status !== 0) assert.fail(`${cmd} ${args.join(' ')} (in ${cwd}) exited with ${result.status ?? result.signal}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  link?: boolean;
  [key: string]: unknown;
}

/**
 * A package-lock.json for `project` (its package.json as written) whose dependencies are the kgen
 * and @kgen/client tarballs: the two tarballs by path and integrity, and below them every package
 * of the repository's lockfile that kgen needs at run time (the entries not marked dev), flagged
 * dev in the project when kgen is a dev dependency there. npm then needs no registry metadata.
 */
function offlineLock(project: string, tarballs: Record<string, string>): void {
  const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
  const repoLock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const repoRoot = repoLock.packages[''] as LockEntry & { dependencies: Record<string, string>; bin?: unknown; engines?: unknown; license?: string };
  const integrity = (file: string) => `sha512-${createHash('sha512').update(readFileSync(join(project, file))).digest('base64')}`;
  const prod = Object.keys(pkg.dependencies ?? {});
  const kgenIsDev = !prod.includes('kgen');
  const clientDeps = (JSON.parse(readFileSync(join(REPO, 'packages/client/package.json'), 'utf8')).dependencies ?? {}) as Record<string, string>;
  const packages: Record<string, LockEntry> = {
    '': { name: pkg.name, version: pkg.version, dependencies: pkg.dependencies, devDependencies: pkg.devDependencies },
    'node_modules/kgen': {
      version: JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version,
      resolved: `file:${tarballs['kgen']}`,
      integrity: integrity(tarballs['kgen']!),
      license: repoRoot.license,
      dependencies: repoRoot.dependencies,
      bin: repoRoot.bin,
      engines: repoRoot.engines,
      ...(kgenIsDev ? { dev: true } : {}),
    },
    'node_modules/@kgen/client': {
      version: '0.1.0',
      resolved: `file:${tarballs['@kgen/client']}`,
      integrity: integrity(tarballs['@kgen/client']!),
      license: 'Apache-2.0',
      dependencies: clientDeps,
    },
  };
  // What @kgen/client needs at run time (ws) is a production package wherever the client is one.
  const clientNeeds = new Set(Object.keys(clientDeps).map((d) => `node_modules/${d}`));
  for (const [key, entry] of Object.entries(repoLock.packages)) {
    if (!key.startsWith('node_modules/') || entry.dev || entry.link || key === 'node_modules/kgen' || key === 'node_modules/@kgen/client') continue;
    const { devOptional: _ignored, ...rest } = entry;
    // The repository's lockfile omits registry URLs; without one npm takes an entry for an old
    // lockfile's and fetches its metadata to fill it in.
    const name = key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
    rest.resolved ??= `https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${entry.version}.tgz`;
    packages[key] = kgenIsDev && !clientNeeds.has(key) ? { ...rest, dev: true, ...(entry.optional || entry.devOptional ? { optional: true } : {}) } : rest;
  }
  // Only what the project's dependencies reach: a client-only install must not see kgen's tree as prod.
  writeFileSync(join(project, 'package-lock.json'), `${JSON.stringify({ name: pkg.name, version: pkg.version, lockfileVersion: 3, requires: true, packages }, null, 2)}\n`);
}

/** `npm install --offline` from the lockfile; fails on any request for registry metadata. */
function installOffline(project: string, extra: string[] = []): void {
  const result = run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=http', ...extra], project);
  const metadata = `${result.stdout}\n${result.stderr}`.split('\n').filter((l) => /registry\.npmjs\.org\/(@[^/\s]+\/)?[^/\s-][^/\s]*(\s|$)/.test(l) && !/\/-\//.test(l));
  assert.deepEqual(metadata, [], 'npm asked for registry metadata');
}

function sizeOf(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

/** Every file under node_modules that is a native addon or builds one. */
function nativeFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...nativeFiles(path));
    else if (name.endsWith('.node') || name === 'binding.gyp') out.push(path);
  }
  return out;
}

/** A program of the user's using the generated validators (generated/validate/…, which import kgen/validate). */
const CHECK_TS = `import { widgetValidator } from '../generated/validate/demo.example.com/v1.js';
import type { Widget } from '../generated/models/demo.example.com/v1.js';

const widget: Widget = { apiVersion: 'demo.example.com/v1', kind: 'Widget', metadata: { name: 'checked' }, spec: { replicas: -1 } };
const problems = widgetValidator.validate(widget);
console.log('invalid: ' + problems.map((p) => p.field).join(','));
console.log('valid: ' + widgetValidator.validate({ ...widget, spec: { replicas: 3 } }).length);
`;

describe('npm pack, install and use from a new project', () => {
  let root: string;
  let app: string;
  let kgenTgz: string;
  let clientTgz: string;
  let server: KgenServer | undefined;

  before(() => {
    root = tempDir('pack');
    // The root's pack runs `prepare` (npm run build), whose first step is @kgen/client's
    // `node build.js`, the very build its `prepack` runs: the client's pack takes that dist/.
    run('npm', ['pack', '--pack-destination', root], REPO);
    run('npm', ['pack', '--workspace', '@kgen/client', '--ignore-scripts', '--pack-destination', root], REPO);
    kgenTgz = join(root, 'kgen-0.1.0.tgz');
    clientTgz = join(root, 'kgen-client-0.1.0.tgz');
    assert.ok(existsSync(kgenTgz) && existsSync(clientTgz));
    app = join(root, 'app');
    mkdirSync(app);
    // The tarballs by relative path, as `npm install <tarball>` records them.
    const tarballs = { kgen: '../kgen-0.1.0.tgz', '@kgen/client': '../kgen-client-0.1.0.tgz' };
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true, dependencies: { kgen: `file:${tarballs.kgen}`, '@kgen/client': `file:${tarballs['@kgen/client']}` } }));
    offlineLock(app, tarballs);
    installOffline(app, ['--ignore-scripts']);
  });
  after(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('the client tarball holds built ES modules, .d.ts files and declaration maps', () => {
    const pkg = JSON.parse(readFileSync(join(app, 'node_modules/@kgen/client/package.json'), 'utf8'));
    // ws, for CONNECT subresources (loaded only when one is opened), is its one dependency.
    assert.deepEqual(Object.keys(pkg.dependencies ?? {}), ['ws']);
    const entry = pkg.exports['.'];
    assert.ok(entry.types && entry.import, 'exports names types and import');
    for (const file of [entry.types, entry.import, `${entry.types}.map`]) assert.ok(existsSync(join(app, 'node_modules/@kgen/client', file)), file);
  });

  it('1. npx kgen init', () => {
    run('npx', ['kgen', 'init'], app);
    const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
    assert.deepEqual(Object.keys(pkg.dependencies), ['@kgen/client']);
    assert.match(pkg.devDependencies.kgen, /kgen-0\.1\.0\.tgz$/);
    assert.ok(existsSync(join(app, 'apis/demo.example.com/v1/widget.ts')));
    // A second init refuses to overwrite.
    const again = spawnSync('npx', ['kgen', 'init'], { cwd: app, env: cleanEnv(), encoding: 'utf8' });
    assert.equal(again.status, 1);
    assert.match(again.stderr, /would be overwritten \(use --force\)/);
  });

  it('2. npx kgen generate ./apis', () => {
    run('npx', ['kgen', 'generate', './apis'], app);
    assert.match(readFileSync(join(app, 'generated/client/index.ts'), 'utf8'), /from '@kgen\/client'/);
  });

  it('the installed kgen runs its built dist/ with plain node: no bundle of its own sources is made', () => {
    const kgen = join(app, 'node_modules/kgen');
    for (const file of ['dist/cli/index.js', 'dist/runtime/index.js', 'dist/runtime/index.d.ts', 'dist/runtime/index.d.ts.map', 'dist/generator/index.js']) assert.ok(existsSync(join(kgen, file)), file);
    const cache = join(root, 'kgen-cache');
    mkdirSync(cache, { mode: 0o700 });
    for (const args of [['--help'], ['generate', './apis', '--check'], ['migrate-storage', '--help']]) run('npx', ['kgen', ...args], app, 300_000, { KGEN_CACHE_DIR: cache });
    assert.deepEqual(readdirSync(cache).filter((n) => n.startsWith('bundle-')), []);
  });

  it('3. tsc with nodenext, then with bundler settings, strict flags on: no errors', () => {
    const tsconfig = JSON.parse(readFileSync(join(app, 'tsconfig.json'), 'utf8'));
    for (const flag of ['strict', 'exactOptionalPropertyTypes', 'noUncheckedIndexedAccess', 'isolatedModules', 'verbatimModuleSyntax']) assert.equal(tsconfig.compilerOptions[flag], true, flag);
    // The program using the generated validators is compiled with the app: one tsc run per setting
    // (each run is ~4 s of CPU, mostly loading TypeScript and checking kgen's and node's .d.ts files).
    writeFileSync(join(app, 'src/check.ts'), CHECK_TS);
    run('npx', ['tsc', '-p', 'tsconfig.json'], app);
    writeFileSync(join(app, 'tsconfig.bundler.json'), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { module: 'esnext', moduleResolution: 'bundler', noEmit: true } }));
    run('npx', ['tsc', '-p', 'tsconfig.bundler.json'], app);
    assert.ok(existsSync(join(app, 'dist/src/app.js')));
    assert.ok(existsSync(join(app, 'dist/src/check.js')));
  });

  it('4. node dist/src/app.js creates, lists and watches through the generated client against kgen serve', async () => {
    server = await startKgen({ command: ['npx', 'kgen'], cwd: app, args: ['serve', './generated', '--port', '0', '--data-dir', '.kgen', '--storage', 'memory:'] });
    const out = run(process.execPath, ['dist/src/app.js'], app).stdout;
    assert.match(out, /^widgets: hello-\d+$/m);
    assert.match(out, /^watch: ADDED hello-\d+$/m);
  });

  it('generated validators (generated/validate/…, importing kgen/validate) compile under both settings (step 3) and run under plain node', () => {
    // src/check.ts (CHECK_TS) was compiled with the app in step 3, under both settings.
    assert.ok(existsSync(join(app, 'dist/src/check.js')));
    const kgenValidate = JSON.parse(readFileSync(join(app, 'node_modules/kgen/package.json'), 'utf8')).exports['./validate'];
    assert.match(kgenValidate.import, /^\.\/dist\/.*\.js$/);
    assert.match(kgenValidate.types, /^\.\/dist\/.*\.d\.ts$/);
    for (const file of [kgenValidate.import, kgenValidate.types, `${kgenValidate.types}.map`]) assert.ok(existsSync(join(app, 'node_modules/kgen', file)), file);
    const out = run(process.execPath, ['dist/src/check.js'], app).stdout;
    assert.match(out, /^invalid: spec\.replicas$/m);
    assert.match(out, /^valid: 0$/m);
  });

  it('kgen serve --admission runs a TypeScript admission module of the project against the built kgen (one copy of the registrations)', async () => {
    writeFileSync(
      join(app, 'admission.ts'),
      `import { widgets } from './generated/storage/demo.example.com/v1/widgets.js';
widgets.admission({
  mutate({ operation, object }) {
    if (operation === 'CREATE' && object) object.metadata = { ...object.metadata, labels: { ...object.metadata?.labels, admitted: 'yes' } };
  },
});
`,
    );
    const admitted = await startKgen({ command: ['npx', 'kgen'], cwd: app, args: ['serve', './generated', '--port', '0', '--data-dir', '.kgen-admission', '--storage', 'memory:', '--admission', './admission.ts'] });
    try {
      writeFileSync(
        join(app, 'admitted.mjs'),
        `import { Clientset } from './dist/generated/client/index.js';
const cs = Clientset.fromKubeconfig('.kgen-admission/kubeconfig');
const made = await cs.demoExampleComV1.widgets('default').create({ apiVersion: 'demo.example.com/v1', kind: 'Widget', metadata: { name: 'admitted' }, spec: {} });
console.log('label: ' + made.metadata.labels?.admitted);
cs.rest.close();
`,
      );
      assert.match(run(process.execPath, ['admitted.mjs'], app).stdout, /^label: yes$/m);
    } finally {
      await admitted.stop();
    }
  });

  it('5. a CommonJS script require()s the client and the compiled generated client', () => {
    writeFileSync(
      join(app, 'require.cjs'),
      `const client = require('@kgen/client');
const { Clientset } = require('./dist/generated/client/index.js');
const cs = Clientset.fromKubeconfig('.kgen/kubeconfig');
cs.demoExampleComV1.widgets('default').list().then((list) => {
  console.log('cjs: ' + typeof client.RestClient + ' ' + typeof client.isNotFound + ' ' + list.items.length);
  cs.rest.close();
});
`,
    );
    assert.match(run(process.execPath, ['require.cjs'], app).stdout, /^cjs: function function [1-9]\d*$/m);
    // kgen's own entry points are compiled ES modules without top-level await: require() works too.
    assert.equal(run(process.execPath, ['-e', "console.log(typeof require('kgen/validate').kindValidator, typeof require('kgen').StatusError)"], app).stdout.trim(), 'function function');
    // Code generated before @kgen/client imports kgen/client: plain node runs it too.
    assert.equal(run(process.execPath, ['--input-type=module', '-e', "const m = await import('kgen/client'); console.log(typeof m.Clientset, typeof m.RestClient)"], app).stdout.trim(), 'undefined function');
  });

  it('6. an esbuild bundle of the app runs on its own', () => {
    run('npx', ['esbuild', 'src/app.ts', '--bundle', '--platform=node', '--format=esm', '--outfile=bundle/app.mjs', '--log-level=warning'], app);
    const bundle = readFileSync(join(app, 'bundle/app.mjs'), 'utf8');
    assert.doesNotMatch(bundle, /from "@kgen\/client"|require\("yaml"\)/);
    const out = run(process.execPath, ['bundle/app.mjs'], app).stdout;
    assert.match(out, /^watch: ADDED hello-\d+$/m);
  });

  it('npm install --omit=dev of a client-only project: @kgen/client alone, no native module, under 1 MB; the app runs', () => {
    const only = join(root, 'client-only');
    mkdirSync(only);
    writeFileSync(
      join(only, 'package.json'),
      JSON.stringify({ name: 'client-only', version: '1.0.0', private: true, type: 'module', dependencies: { '@kgen/client': 'file:../kgen-client-0.1.0.tgz' }, devDependencies: { kgen: 'file:../kgen-0.1.0.tgz' } }),
    );
    // Install scripts run: nothing here may build anything.
    offlineLock(only, { kgen: '../kgen-0.1.0.tgz', '@kgen/client': '../kgen-client-0.1.0.tgz' });
    installOffline(only, ['--omit=dev']);
    const installed = readdirSync(join(only, 'node_modules')).filter((n) => !n.startsWith('.'));
    assert.deepEqual(installed, ['@kgen', 'ws']);
    assert.deepEqual(readdirSync(join(only, 'node_modules/@kgen')), ['client']);
    assert.deepEqual(nativeFiles(join(only, 'node_modules')), []);
    const size = sizeOf(join(only, 'node_modules/@kgen/client'));
    assert.ok(size < 1024 * 1024, `@kgen/client installs ${size} bytes`);
    cpSync(join(app, 'dist'), join(only, 'dist'), { recursive: true });
    cpSync(join(app, '.kgen'), join(only, '.kgen'), { recursive: true });
    assert.match(run(process.execPath, ['dist/src/app.js'], only).stdout, /^watch: ADDED hello-\d+$/m);
  });
});

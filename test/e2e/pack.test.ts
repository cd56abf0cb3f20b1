/**
 * kgen as a dependency of a real program, the way a user gets it: both packages packed with
 * `npm pack` (which builds @kgen/client), installed from the tarballs into a new project outside
 * the repository (from this machine's npm cache, --prefer-offline), then, in order: `npx kgen init`,
 * `npx kgen generate ./apis`, tsc with nodenext and with bundler settings (strict,
 * exactOptionalPropertyTypes, noUncheckedIndexedAccess, isolatedModules, verbatimModuleSyntax),
 * `node dist/src/app.js` creating, listing and watching through the generated client against
 * `kgen serve`, a CommonJS script that require()s the client, and an esbuild bundle of the app.
 * Last, `npm install --omit=dev` of a client-only project installs @kgen/client alone: no native
 * module, no dependency, under 1 MB; the compiled app runs there too.
 *
 * The kgen install uses --ignore-scripts: better-sqlite3 would otherwise compile from source
 * (no prebuilt binary can be downloaded here), so the server runs with --storage memory:.
 */
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
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

function run(cmd: string, args: string[], cwd: string, timeout = 300_000): SpawnSyncReturns<string> {
  const result = spawnSync(cmd, args, { cwd, env: cleanEnv(), encoding: 'utf8', timeout });
  if (result.status !== 0) assert.fail(`${cmd} ${args.join(' ')} (in ${cwd}) exited with ${result.status ?? result.signal}:\n${result.stdout}\n${result.stderr}`);
  return result;
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

describe('npm pack, install and use from a new project', () => {
  let root: string;
  let app: string;
  let kgenTgz: string;
  let clientTgz: string;
  let server: KgenServer | undefined;

  before(() => {
    root = tempDir('pack');
    run('npm', ['pack', '--pack-destination', root], REPO);
    run('npm', ['pack', '--workspace', '@kgen/client', '--pack-destination', root], REPO);
    kgenTgz = join(root, 'kgen-0.1.0.tgz');
    clientTgz = join(root, 'kgen-client-0.1.0.tgz');
    app = join(root, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', kgenTgz, clientTgz], app);
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

  it('3. tsc with nodenext, then with bundler settings, strict flags on: no errors', () => {
    const tsconfig = JSON.parse(readFileSync(join(app, 'tsconfig.json'), 'utf8'));
    for (const flag of ['strict', 'exactOptionalPropertyTypes', 'noUncheckedIndexedAccess', 'isolatedModules', 'verbatimModuleSyntax']) assert.equal(tsconfig.compilerOptions[flag], true, flag);
    run('npx', ['tsc', '-p', 'tsconfig.json'], app);
    writeFileSync(join(app, 'tsconfig.bundler.json'), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { module: 'esnext', moduleResolution: 'bundler', noEmit: true } }));
    run('npx', ['tsc', '-p', 'tsconfig.bundler.json'], app);
    assert.ok(existsSync(join(app, 'dist/src/app.js')));
  });

  it('4. node dist/src/app.js creates, lists and watches through the generated client against kgen serve', async () => {
    server = await startKgen({ command: ['npx', 'kgen'], cwd: app, args: ['serve', './generated', '--port', '0', '--data-dir', '.kgen', '--storage', 'memory:'] });
    const out = run(process.execPath, ['dist/src/app.js'], app).stdout;
    assert.match(out, /^widgets: hello-\d+$/m);
    assert.match(out, /^watch: ADDED hello-\d+$/m);
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
      JSON.stringify({ name: 'client-only', version: '1.0.0', private: true, type: 'module', dependencies: { '@kgen/client': `file:${clientTgz}` }, devDependencies: { kgen: `file:${kgenTgz}` } }),
    );
    // Install scripts run: nothing here may build anything.
    run('npm', ['install', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], only);
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

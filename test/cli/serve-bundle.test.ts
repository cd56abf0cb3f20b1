/**
 * `kgen serve` runs kgen as a cached bundle (no tsx) and bundles the generated TypeScript against
 * that bundle's runtime modules (bin/loader/shared.js). These tests spawn the real CLI with a
 * private cache directory: it serves, a regenerated or edited file is picked up on the next start,
 * and an error in generated code fails start-up with its location.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIXTURE_DIR, TABLE_ACCEPT, WIDGETS, widget } from '../server/testserver.js';

const KGEN = fileURLToPath(new URL('../../bin/kgen.js', import.meta.url));
const WIDGETS_TS = 'storage/widgets.example.com/v1/widgets.ts';
const work = mkdtempSync(join(tmpdir(), 'kgen-serve-bundle-'));
const cacheDir = join(work, 'cache');
const copies: string[] = [];

after(() => {
  rmSync(work, { recursive: true, force: true });
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the fixture's generated directory inside test/.tmp (so `kgen/...` resolves). */
function generatedCopy(name: string): string {
  const dir = fileURLToPath(new URL(`../.tmp/serve-bundle-${process.pid}-${name}/`, import.meta.url));
  rmSync(dir, { recursive: true, force: true });
  cpSync(FIXTURE_DIR, dir, { recursive: true });
  copies.push(dir);
  return dir;
}

interface Served {
  url?: string;
  code: Promise<number | null>;
  output(): string;
  stop(): Promise<void>;
}

function serve(generatedDir: string): Promise<Served> {
  const proc = spawn(process.execPath, [KGEN, 'serve', generatedDir, '--port', '0', '--storage', 'memory:', '--insecure-dev-mode', '--data-dir', join(work, 'data')], {
    env: { ...process.env, KGEN_CACHE_DIR: cacheDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const code = new Promise<number | null>((resolve) => proc.once('close', (c) => resolve(c)));
  return new Promise((resolve) => {
    const served: Served = {
      code,
      output: () => out,
      stop: async () => {
        proc.kill('SIGTERM');
        await code;
      },
    };
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /kgen API server: (\S+)/.exec(out);
      if (m && !served.url) resolve({ ...served, url: m[1] });
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    void code.then(() => resolve(served));
  });
}

async function tableColumns(url: string): Promise<string[]> {
  const res = await fetch(url + WIDGETS, { headers: { accept: TABLE_ACCEPT } });
  assert.equal(res.status, 200);
  const table = (await res.json()) as { columnDefinitions: { name: string }[] };
  return table.columnDefinitions.map((c) => c.name);
}

describe('kgen serve as a bundle', () => {
  it('serves the generated code, bundled into the cache directory', async () => {
    const s = await serve(FIXTURE_DIR);
    try {
      assert.ok(s.url, s.output());
      const created = await fetch(s.url + WIDGETS, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(widget('w1')) });
      assert.equal(created.status, 201);
      const invalid = await fetch(s.url + WIDGETS, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(widget('w2', { replicas: 'x' })) });
      assert.equal(invalid.status, 422);
      assert.equal(((await invalid.json()) as { reason: string }).reason, 'Invalid');
      assert.ok((await tableColumns(s.url)).includes('Replicas'));
      assert.ok(readdirSync(cacheDir).some((f) => f.startsWith('shared-') && f.endsWith('.mjs')), 'the generated code was bundled');
    } finally {
      await s.stop();
    }
  });

  it('a second start builds nothing: every bundle is taken from the cache as it is', async () => {
    // Runs after the test above, which made the bundles in this cache directory.
    const bundles = () =>
      readdirSync(cacheDir)
        .filter((f) => /\.(mjs|cjs)$/.test(f))
        .sort()
        .map((f) => `${f} ${statSync(join(cacheDir, f)).mtimeMs}`);
    const before = bundles();
    assert.ok(before.length >= 2, before.join(', '));
    const s = await serve(FIXTURE_DIR);
    try {
      assert.ok(s.url, s.output());
    } finally {
      await s.stop();
    }
    assert.deepEqual(bundles(), before, 'no bundle was written again');
  });

  it('bundles the CommonJS packages every start loads into the runtime chunk, not those loaded on first use', () => {
    // Runs after the test above, which made the bundle in this cache directory.
    const chunks = readdirSync(cacheDir).filter((f) => f.startsWith('bundle-') && f.endsWith('.cjs'));
    assert.equal(chunks.length, 1, `one runtime chunk: ${chunks.join(', ')}`);
    const text = readFileSync(join(cacheDir, chunks[0]!), 'utf8');
    // esbuild marks each bundled file with a `// <path>` line.
    for (const file of ['fastify/fastify.js', 'find-my-way/index.js', 'avvio/lib/plugin.js', 'semver/index.js', 'fast-json-patch/index.js']) {
      assert.match(text, new RegExp(`^// \\S*node_modules/${file.replace('.', '\\.')}$`, 'm'), `${file} is bundled`);
    }
    assert.doesNotMatch(text, /require\("fastify"\)/, 'fastify is not required at run time');
    // Those loaded on first use stay out (test/server/lazy-startup.test.ts: not loaded at start).
    for (const pkg of ['prom-client', 'yaml', 'ws', 'better-sqlite3', 'node-forge']) {
      assert.doesNotMatch(text, new RegExp(`^// \\S*node_modules/${pkg}/`, 'm'), `${pkg} is not bundled`);
    }
  });

  it('writes its bundles in ASCII, so V8 holds them as one-byte strings', () => {
    // Runs after the tests above, which made the bundles in this cache directory. kgen's doc
    // comments have non-ASCII characters (≤, →, …) that esbuild keeps in the comments before class
    // members; one of them made the 1.9 M-character runtime chunk a two-byte string (3.9 MB, twice).
    const files = readdirSync(cacheDir).filter((f) => f.startsWith('bundle-') && /\.(mjs|cjs)$/.test(f));
    assert.ok(files.some((f) => f.endsWith('.cjs')), files.join(', '));
    for (const f of files) {
      const text = readFileSync(join(cacheDir, f), 'utf8');
      const at = text.search(/[^\x00-\x7f]/);
      assert.equal(at, -1, `${f} has a non-ASCII character at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 10))}`);
    }
  });

  /**
   * `kgen serve` of the fixture with a preload that writes `<label> <expression's value>` to
   * stderr as the server prints its `kgen API server:` line.
   */
  const serveReportingAtLine = (label: string, expression: string) => {
    const preload = join(work, `${label.toLowerCase()}-at-line.mjs`);
    writeFileSync(
      preload,
      [
        'const write = process.stdout.write.bind(process.stdout);',
        'process.stdout.write = (chunk, ...rest) => {',
        `  if (String(chunk).includes('kgen API server:')) process.stderr.write(\`${label} \${${expression}}\\n\`);`,
        '  return write(chunk, ...rest);',
        '};',
      ].join('\n'),
    );
    return spawn(process.execPath, ['--import', preload, KGEN, 'serve', FIXTURE_DIR, '--port', '0', '--storage', 'memory:', '--insecure-dev-mode', '--data-dir', join(work, 'data')], {
      env: { ...process.env, KGEN_CACHE_DIR: cacheDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  };

  it('does not load node:http2 before listening (fastify requires it only for HTTP/2 servers)', async () => {
    // A preload reports, at the line, which of the built-in modules were loaded.
    const proc = serveReportingAtLine('BUILTINS', "process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)).join(',')");
    let out = '';
    const closed = new Promise((resolve) => proc.once('close', resolve));
    const line = await new Promise<string>((resolve) => {
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        const m = /BUILTINS (\S*)\n/.exec(out);
        if (m) resolve(m[1]!);
      };
      proc.stdout.on('data', onData);
      proc.stderr.on('data', onData);
      void closed.then(() => resolve(''));
    });
    proc.kill('SIGTERM');
    await closed;
    const loaded = line.split(',');
    assert.ok(loaded.includes('http'), `the line was reached: ${out}`);
    assert.ok(!loaded.includes('http2'), 'node:http2 is not loaded at start');
  });

  it('stops gracefully on a SIGTERM sent as soon as the line is read', async () => {
    // A preload reports, as the line is written, how many SIGTERM listeners the process has: the
    // handler must be there already, or a SIGTERM right after the line ends the process at once.
    const proc = serveReportingAtLine('SIGTERM-LISTENERS', "process.listenerCount('SIGTERM')");
    let out = '';
    const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => proc.once('close', (code, signal) => resolve([code, signal])));
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/kgen API server: /.test(out) && proc.exitCode === null && !proc.killed) proc.kill('SIGTERM');
    });
    proc.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const [code, signal] = await closed;
    assert.match(out, /SIGTERM-LISTENERS [1-9]/, `a SIGTERM handler is registered when the line is written: ${out}`);
    assert.deepEqual([code, signal], [0, null], out);
    assert.match(out, /received SIGTERM, shutting down/);
  });

  it('rebuilds the bundle when a generated file changed', async () => {
    const dir = generatedCopy('edit');
    const file = join(dir, WIDGETS_TS);
    // A whole second, which utimes can set back exactly after the edit.
    const mtime = new Date('2026-01-01T00:00:00Z');
    utimesSync(file, mtime, mtime);
    const first = await serve(dir);
    assert.ok(first.url, first.output());
    assert.ok((await tableColumns(first.url)).includes('Replicas'));
    await first.stop();
    // An edit of the same size with its mtime put back: only the content (and ctime) tell.
    const size = statSync(file).size;
    writeFileSync(file, readFileSync(file, 'utf8').replace("name: 'Replicas'", "name: 'Spinners'"));
    utimesSync(file, mtime, mtime);
    assert.equal(statSync(file).size, size);
    assert.equal(statSync(file).mtimeMs, mtime.getTime());
    const second = await serve(dir);
    try {
      assert.ok(second.url, second.output());
      const columns = await tableColumns(second.url);
      assert.ok(columns.includes('Spinners') && !columns.includes('Replicas'), columns.join(','));
    } finally {
      await second.stop();
    }
  });

  it('fails start-up with the location of an error in generated code', async () => {
    const dir = generatedCopy('syntax');
    const file = join(dir, WIDGETS_TS);
    writeFileSync(file, readFileSync(file, 'utf8').replace("kind: 'Widget',", "kind: 'Widget',,"));
    const s = await serve(dir);
    assert.equal(s.url, undefined);
    assert.equal(await s.code, 1);
    assert.match(s.output(), /kgen serve: .*widgets\.ts:\d+:\d+: /);
  });
});

/**
 * bin/loader/code-cache.js under `kgen serve`: the start's V8 code cache is written a moment after
 * the ready line (cli/serve.ts, CODE_CACHE_DELAY_MS), not only at exit. So a server that is killed
 * (SIGKILL, out of memory) still leaves it, and its entries hold what a start compiles, not what
 * hours of traffic compiled (a runtime-chunk entry written at the exit of a server that had run the
 * benchmarks held ~1 MB of code, and every later start paid ~45 ms to read it). The next start
 * reads the entries as they are and writes none of them again (it may add entries for modules that
 * loaded after the first one's write: when they load depends on the machine's load).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { FIXTURE_DIR } from '../../server/testserver.js';

const KGEN = fileURLToPath(new URL('../../../bin/kgen.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'kgen-code-cache-'));
after(() => rmSync(work, { recursive: true, force: true }));
const cache = join(work, 'cache');

function entries(): string[] {
  try {
    return readdirSync(cache).filter((f) => f.startsWith('v8-')).sort();
  } catch {
    return [];
  }
}

/** Each entry's size and modification time. */
function written(): Map<string, string> {
  return new Map(entries().map((f) => {
    const st = statSync(join(cache, f));
    return [f, `${st.size} ${st.mtimeMs}`];
  }));
}

/** Starts `kgen serve`, waits for its line and then until `until` holds or `settle` ms passed, then SIGKILLs it. */
async function startAndKill(name: string, settle: number, until?: () => boolean): Promise<void> {
  const child = spawn(process.execPath, [KGEN, 'serve', FIXTURE_DIR, '--port', '0', '--storage', 'memory:', '--insecure-dev-mode', '--data-dir', join(work, name)], {
    env: { ...process.env, KGEN_CACHE_DIR: cache },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => (out += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const deadline = Date.now() + 120_000;
    while (!out.includes('kgen API server:')) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no ready line:\n${out}`);
      await sleep(20);
    }
    const end = Date.now() + settle;
    while (Date.now() < end && !(until?.() ?? false)) await sleep(50);
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

describe('the V8 code cache of kgen serve', () => {
  it('is written once the server has started, so a killed server leaves it', async () => {
    // The first start builds the bundles into the fresh cache directory; the second is a start as
    // every later one is (bundles cached), and is the one whose code cache is checked.
    await startAndKill('first', 0);
    for (const f of entries()) rmSync(join(cache, f));
    // Killed once its entries have been written: some there, and no more for a second.
    let seen = '';
    let since = Date.now();
    await startAndKill('second', 30_000, () => {
      const now = entries().join();
      if (now !== seen) [seen, since] = [now, Date.now()];
      return now !== '' && Date.now() - since > 1_000;
    });
    assert.ok(entries().length > 0, 'a server killed after its line left its code cache entries');
  });

  it('is read as it is by the next start, which writes none of its entries again', async () => {
    const before = written();
    assert.ok(before.size > 0);
    await startAndKill('third', 4_000);
    const after = written();
    for (const [f, stamp] of before) assert.equal(after.get(f), stamp, `${f} kept as it was`);
  });
});

/**
 * The loader's CommonJS chunks (`.cjs` files in the cache directory) are read in pieces, not by
 * require()'s fs.readFileSync(path, 'utf8'), whose growing C++ buffer raised glibc's mmap
 * threshold to 4 MB for the rest of the server's life (bench/README.md, Memory). Checked in a
 * child process (the handler is process-wide): the text is the file's, also where a multi-byte
 * character straddles two pieces; other `.cjs` files load through Node's own read.
 */
describe('CommonJS chunks in the cache directory', () => {
  it('are read in pieces, to the same text; other .cjs files as before', () => {
    const dir = join(work, 'pieces-cache');
    const outside = join(work, 'pieces-outside');
    const script = `
      import { mkdirSync, writeFileSync } from 'node:fs';
      import fs from 'node:fs';
      import { createRequire } from 'node:module';
      import { join } from 'node:path';
      const { enableCodeCache } = await import(${JSON.stringify(new URL('../../../bin/loader/code-cache.js', import.meta.url).href)});
      const [dir, outside] = process.argv.slice(1);
      mkdirSync(dir, { recursive: true });
      mkdirSync(outside, { recursive: true });
      // 'ü' (2 bytes) and '😀' (4 bytes) around every 64 KiB boundary of the file.
      const filler = 'x'.repeat(65536 - 'module.exports = "'.length - 1);
      const text = filler + 'ü' + 'y'.repeat(65533) + '😀' + 'z'.repeat(70000);
      const source = 'module.exports = ' + JSON.stringify(text) + ';\\n';
      writeFileSync(join(dir, 'bundle-test-chunk-1.cjs'), source);
      writeFileSync(join(outside, 'other.cjs'), source);
      enableCodeCache({ minBytes: 0 });
      const read = [];
      const readFileSync = fs.readFileSync;
      fs.readFileSync = function (path, ...rest) {
        read.push(String(path));
        return readFileSync.call(this, path, ...rest);
      };
      const require = createRequire(import.meta.url);
      const inCache = require(join(dir, 'bundle-test-chunk-1.cjs'));
      const other = require(join(outside, 'other.cjs'));
      console.log(JSON.stringify({
        same: inCache === text && other === text,
        chunkRead: read.some((p) => p.endsWith('bundle-test-chunk-1.cjs')),
        otherRead: read.some((p) => p.endsWith('other.cjs')),
        // No extension registered: require() without one resolves as before.
        extensions: Object.keys(createRequire(import.meta.url).extensions),
      }));
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script, dir, outside], {
      env: { ...process.env, KGEN_CACHE_DIR: dir },
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(child.status, 0, child.stderr);
    assert.deepEqual(JSON.parse(child.stdout.trim().split('\n').pop()!), { same: true, chunkRead: false, otherRead: true, extensions: ['.js', '.json', '.node'] });
  });
});

/**
 * With `readLarge` (generate and diff), a CommonJS file of 1 MiB or more that has a code cache
 * entry is read by the loader, already wrapped, into one flat string (no UTF-8 decode of Node's
 * read, no flattening of Module.wrap's concatenation): the same module. A file that is not ASCII
 * is read by Node as before, and so is any file the first time (its entry is written at exit).
 */
describe('large CommonJS files with a code cache entry', () => {
  it('load from one read of their bytes, to the same module; a non-ASCII file through Node', () => {
    const dir = join(work, 'large-cache');
    const files = join(work, 'large-files');
    const script = `
      import { mkdirSync, writeFileSync } from 'node:fs';
      import fs from 'node:fs';
      import { createRequire } from 'node:module';
      import { join } from 'node:path';
      const { enableCodeCache } = await import(${JSON.stringify(new URL('../../../bin/loader/code-cache.js', import.meta.url).href)});
      const [files, write] = process.argv.slice(1);
      const ascii = 'exports.text = ' + JSON.stringify('a'.repeat(1100000)) + ';\\nexports.add = (a, b) => a + b;\\nexports.self = __filename;\\n';
      const wide = 'exports.text = ' + JSON.stringify('é'.repeat(600000)) + ';\\n';
      if (write === 'write') {
        mkdirSync(files, { recursive: true });
        writeFileSync(join(files, 'ascii.js'), ascii);
        writeFileSync(join(files, 'wide.js'), wide);
      }
      enableCodeCache({ readLarge: true });
      const read = [];
      const readFileSync = fs.readFileSync;
      fs.readFileSync = function (path, ...rest) {
        read.push(String(path));
        return readFileSync.call(this, path, ...rest);
      };
      const require = createRequire(import.meta.url);
      const a = require(join(files, 'ascii.js'));
      const w = require(join(files, 'wide.js'));
      console.log(JSON.stringify({
        same: a.text === 'a'.repeat(1100000) && a.add(2, 3) === 5 && a.self === join(files, 'ascii.js') && w.text === 'é'.repeat(600000),
        asciiReadByNode: read.some((p) => p.endsWith('ascii.js')),
        wideReadByNode: read.some((p) => p.endsWith('wide.js')),
      }));
    `;
    const run = (write: string) => {
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script, files, write], {
        env: { ...process.env, KGEN_CACHE_DIR: dir },
        encoding: 'utf8',
        timeout: 120_000,
      });
      assert.equal(child.status, 0, child.stderr);
      return JSON.parse(child.stdout.trim().split('\n').pop()!);
    };
    assert.deepEqual(run('write'), { same: true, asciiReadByNode: true, wideReadByNode: true });
    assert.deepEqual(run('again'), { same: true, asciiReadByNode: false, wideReadByNode: true });
  });
});

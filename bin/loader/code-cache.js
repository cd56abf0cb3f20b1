/**
 * A V8 code cache for large CommonJS files loaded with require() (the TypeScript compiler is
 * 9 MB; compiling it is ~150 ms of a run that needs it), in the manner of the
 * v8-compile-cache package: Node 20 has no module.enableCompileCache().
 *
 * Each file's cache entry is keyed by its path, size, mtime, ctime and inode, the Node version,
 * architecture and V8 flags; V8 checks the entry again (and rejects one made under other flags).
 * A missing, rejected or corrupt entry only means compiling as usual; the fresh code cache is
 * written at exit, after the run, so it also holds the functions compiled lazily while running,
 * or earlier, when the process calls `globalThis[Symbol.for('kgen.codeCache.flush')]()`: a server
 * does once it has started (cli/serve.ts), so its entries hold what a start compiles whatever the
 * server later served (an entry written after hours of traffic held ~1 MB of code for the
 * runtime chunk, which every later start read and deserialised: ~45 ms more to the line), and are
 * written even when the server never exits normally (SIGKILL, out of memory). An entry is written
 * once; it is read, not written again, while its file is unchanged.
 */
import Module, { createRequire } from 'node:module';
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import vm from 'node:vm';
import { cacheDir, sha1, writeAtomic } from './cache-dir.js';

const require = createRequire(import.meta.url);
let installed = false;

/**
 * Routes require() of CommonJS files of at least `minBytes` through the code cache. Idempotent;
 * does nothing when there is no writable cache directory. Files loaded by import (ESM, or CJS
 * imported from ESM) are not affected: require them (createRequire) to benefit.
 */
export function enableCodeCache({ minBytes = 256 * 1024 } = {}) {
  if (installed) return;
  const dir = cacheDir();
  if (!dir || typeof vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER !== 'symbol') return;
  installed = true;
  const compile = Module.prototype._compile;
  const pending = [];
  const flags = sha1(process.version, process.arch, process.execArgv.join(' '), process.env.NODE_OPTIONS ?? '');
  Module.prototype._compile = function (content, filename, format) {
    if (content.length < minBytes || (format !== undefined && format !== 'commonjs') || content.startsWith('#!')) {
      return compile.call(this, content, filename, format);
    }
    let entry;
    try {
      const st = statSync(filename);
      entry = join(dir, `v8-${sha1(flags, filename, String(st.size), String(st.mtimeMs), String(st.ctimeMs), String(st.ino))}.bin`);
    } catch {
      return compile.call(this, content, filename, format);
    }
    let cachedData;
    try {
      cachedData = readFileSync(entry);
    } catch {
      cachedData = undefined;
    }
    const script = new vm.Script(Module.wrap(content), {
      filename,
      cachedData,
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    if (cachedData === undefined || script.cachedDataRejected) pending.push({ script, entry });
    const fn = script.runInThisContext({ displayErrors: true });
    return fn.call(this.exports, this.exports, makeRequire(this), this, filename, dirname(filename));
  };
  const flush = () => {
    for (const { script, entry } of pending.splice(0)) {
      try {
        writeAtomic(entry, script.createCachedData());
      } catch {
        // A cache that cannot be written is only a slower next run.
      }
    }
  };
  globalThis[Symbol.for('kgen.codeCache.flush')] = flush;
  process.once('exit', flush);
  readChunksInPieces(dir);
}

/**
 * The CommonJS chunks kgen's loader writes into the cache directory (`bundle-…-chunk-….cjs`,
 * ./bundle.js: the server's runtime is 2.2 MB) are read 64 KiB at a time rather than by Node's
 * require(), whose read (fs.readFileSync(path, 'utf8')) grows one C++ buffer to 4 MB, doubling
 * it: glibc serves such blocks with mmap, and freeing one raises its mmap threshold to that size
 * for the rest of the process (twice that for trimming the free top of a heap). A server that
 * then loads 100,000 objects keeps ~4 MB more of freed malloc memory resident (measured with
 * `bench/run.js --only memory`; see bench/README.md, Memory). The text and the compiled module
 * are the same (Node's own handler compiles a `.cjs` file as `_compile(text, filename,
 * 'commonjs')`); every other file loads through Node's handler as before. Node 20 loads `.cjs`
 * files with the `.js` handler, which is wrapped rather than a `.cjs` one registered: a
 * registered extension would also be tried when resolving require() paths without one.
 */
function readChunksInPieces(dir) {
  const extensions = Module._extensions;
  const js = extensions['.js'];
  if (typeof js !== 'function' || extensions['.cjs'] !== undefined) return;
  const inside = dir.endsWith(sep) ? dir : dir + sep;
  extensions['.js'] = function (module, filename) {
    if (!filename.endsWith('.cjs') || !filename.startsWith(inside)) return js.call(this, module, filename);
    module._compile(readTextInPieces(filename), filename, 'commonjs');
  };
}

const PIECE_BYTES = 64 * 1024;

/** A file's UTF-8 text, read PIECE_BYTES at a time into one reused buffer (below glibc's mmap threshold). */
function readTextInPieces(path) {
  const piece = Buffer.allocUnsafe(PIECE_BYTES);
  const decoder = new StringDecoder('utf8');
  const fd = openSync(path, 'r');
  let text = '';
  try {
    for (let n; (n = readSync(fd, piece, 0, PIECE_BYTES, null)) > 0; ) text += decoder.write(piece.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return text + decoder.end();
}

/** The `require` a CommonJS module sees (as Node's own makeRequireFunction builds it). */
function makeRequire(mod) {
  const req = (id) => mod.require(id);
  req.resolve = (request, options) => Module._resolveFilename(request, mod, false, options);
  req.resolve.paths = (request) => Module._resolveLookupPaths(request, mod);
  req.main = require.main;
  req.extensions = Module._extensions;
  req.cache = Module._cache;
  return req;
}

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
import { isAscii } from 'node:buffer';
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import vm from 'node:vm';
import { cacheDir, sha1, writeAtomic } from './cache-dir.js';

const require = createRequire(import.meta.url);
let installed = false;

/**
 * Routes require() of CommonJS files of at least `minBytes` through the code cache. Idempotent;
 * does nothing when there is no writable cache directory. `readLarge`: files of at least
 * FAST_READ_MIN_BYTES that have an entry are read by readWrappedAscii (a stat more per file). Files loaded by import (ESM, or CJS
 * imported from ESM) are not affected: require them (createRequire) to benefit.
 */
export function enableCodeCache({ minBytes = 256 * 1024, readLarge = false } = {}) {
  if (installed) return;
  const dir = cacheDir();
  if (!dir || typeof vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER !== 'symbol') return;
  installed = true;
  const compile = Module.prototype._compile;
  const pending = [];
  const flags = sha1(process.version, process.arch, process.execArgv.join(' '), process.env.NODE_OPTIONS ?? '');
  const entryOf = (filename, st) => join(dir, `v8-${sha1(flags, filename, String(st.size), String(st.mtimeMs), String(st.ctimeMs), String(st.ino))}.bin`);
  /** Compiles and runs `wrapped` (the module's text as Module.wrap makes it) as `module`, with the entry's code cache. */
  const run = (module, filename, wrapped, entry, cachedData) => {
    const script = new vm.Script(wrapped, {
      filename,
      cachedData,
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    if (cachedData === undefined || script.cachedDataRejected) pending.push({ script, entry });
    const fn = script.runInThisContext({ displayErrors: true });
    return fn.call(module.exports, module.exports, makeRequire(module), module, filename, dirname(filename));
  };
  Module.prototype._compile = function (content, filename, format) {
    if (content.length < minBytes || (format !== undefined && format !== 'commonjs') || content.startsWith('#!')) {
      return compile.call(this, content, filename, format);
    }
    let entry;
    try {
      entry = entryOf(filename, statSync(filename));
    } catch {
      return compile.call(this, content, filename, format);
    }
    return run(this, filename, Module.wrap(content), entry, readEntry(entry));
  };
  wrapJsHandler(dir, (module, filename) => {
    if (!readLarge) return false;
    // A file with an entry was compiled through _compile above, as CommonJS, with this identity.
    let st;
    try {
      st = statSync(filename);
    } catch {
      return false;
    }
    if (st.size < Math.max(minBytes, FAST_READ_MIN_BYTES)) return false;
    const entry = entryOf(filename, st);
    const cachedData = readEntry(entry);
    const wrapped = cachedData && readWrappedAscii(filename, st.size);
    if (!wrapped) return false;
    run(module, filename, wrapped, entry, cachedData);
    return true;
  });
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
 * 'commonjs')`); every other file loads through Node's handler as before, or, when it is large
 * and has a code cache entry, through `cached`. Node 20 loads `.cjs` files with the `.js`
 * handler, which is wrapped rather than a `.cjs` one registered: a registered extension would
 * also be tried when resolving require() paths without one.
 */
function wrapJsHandler(dir, cached) {
  const extensions = Module._extensions;
  const js = extensions['.js'];
  if (typeof js !== 'function' || extensions['.cjs'] !== undefined) return;
  const inside = dir.endsWith(sep) ? dir : dir + sep;
  extensions['.js'] = function (module, filename) {
    if (filename.endsWith('.cjs') && filename.startsWith(inside)) module._compile(readTextInPieces(filename), filename, 'commonjs');
    else if (!cached(module, filename)) js.call(this, module, filename);
  };
}

/**
 * The size from which a file with a code cache entry is read by readWrappedAscii (with
 * `readLarge`, which `generate` and `diff` set: the TypeScript compiler, 9 MB). `kgen serve`'s
 * files stay with Node's reader, and its start-up and memory figures as measured.
 */
const FAST_READ_MIN_BYTES = 1024 * 1024;

function readEntry(entry) {
  try {
    return readFileSync(entry);
  } catch {
    return undefined;
  }
}

/**
 * The text of a large file that has a code cache entry, read as Module.wrap would wrap it, or
 * undefined when it is not plain ASCII (or changed size meanwhile): Node's handler then reads it.
 * Node's own read (fs.readFileSync(path, 'utf8')) decodes the 9 MB of the TypeScript compiler
 * as UTF-8 into a string, and Module.wrap's concatenation is one more 9 MB copy when V8 flattens
 * it to compile; here the bytes are read once into a buffer that already holds the wrapper, and
 * copied once into a flat one-byte string. ~3,400 fewer page faults per run (~13 MB), which cost
 * ~10-17 µs of CPU each on this machine since the tenth session.
 */
function readWrappedAscii(path, size) {
  const wrapped = Module.wrap('\0');
  const at = wrapped.indexOf('\0');
  const head = wrapped.slice(0, at);
  const tail = wrapped.slice(at + 1);
  if (!isAscii(Buffer.from(head + tail))) return undefined;
  const bytes = Buffer.allocUnsafeSlow(head.length + size + tail.length);
  bytes.latin1Write(head, 0);
  const fd = openSync(path, 'r');
  let read = 0;
  try {
    for (let n; read < size && (n = readSync(fd, bytes, head.length + read, size - read, read)) > 0; ) read += n;
    // A file that grew meanwhile: Node's handler reads it.
    if (read !== size || readSync(fd, Buffer.allocUnsafe(1), 0, 1, size) !== 0) return undefined;
  } finally {
    closeSync(fd);
  }
  if (bytes[head.length] === 0x23 && bytes[head.length + 1] === 0x21) return undefined; // #!, which _compile leaves to Node.
  bytes.latin1Write(tail, head.length + size);
  return isAscii(bytes) ? bytes.latin1Slice(0, bytes.length) : undefined;
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

/**
 * How kgen loads its own TypeScript: as a cached esbuild bundle (no loader hooks on the path) with
 * a V8 code cache for the large CommonJS dependencies, or through tsx where TypeScript that is not
 * kgen's own (a user's generated code) must be imported. See /bin/loader/bundle.js for the rules.
 */
export { importBundled, registerTsx } from './bundle.js';
export { enableCodeCache } from './code-cache.js';
export { cacheDir, KGEN_ROOT } from './cache-dir.js';

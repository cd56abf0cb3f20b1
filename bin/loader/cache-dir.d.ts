/** Types of ./cache-dir.js for kgen's TypeScript (generator/emit/templates.ts). */
export declare const KGEN_ROOT: string;
/** The cache directory, or undefined when none is writable or KGEN_NO_CACHE is set. */
export declare function cacheDir(): string | undefined;
/** Writes `path` whole or not at all (temporary file + rename). Returns false on failure. */
export declare function writeAtomic(path: string, data: string | NodeJS.ArrayBufferView): boolean;
export declare function sha1(...parts: (string | NodeJS.ArrayBufferView)[]): string;
/** Whether `dir` is private to the current user (see cache-dir.js); `create` makes it 0700 when missing. */
export declare function checkCacheDir(dir: string, options?: { create?: boolean }): { ok: true; dir: string } | { ok: false; reason: string; unsafe?: boolean };
/** Turns tsx's compile cache off unless <tmpdir>/tsx-<euid> is private to this user (runs on import). */
export declare function guardTsxCache(): void;

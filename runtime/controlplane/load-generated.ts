/**
 * How the server imports the generated directory's code. Under tsx (tests, embedders, `kgen serve
 * --admission`) it is a plain import. When bin/kgen.js runs kgen itself as a cached bundle (no tsx
 * hooks: the fast start-up path), the generated TypeScript is bundled by the loader
 * (bin/loader/shared.js) with its `kgen/...` imports bound to this process's runtime modules, so
 * the process still holds one copy of each (one defineResource, one StatusError).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { existsSync } from 'node:fs';
import type { APIInstaller } from '../server/installer.js';

export interface GeneratedModule {
  installAll(installer: APIInstaller): void;
}

/** What bin/loader/bundle.js registers when kgen runs bundled. */
interface BundledLoader {
  importShared(paths: string[], provide: (specifier: string) => Promise<object | undefined>): Promise<Record<string, unknown>[] | undefined>;
}

const LOADER = Symbol.for('kgen.loader');

/** The runtime's package entry points (package.json "exports"), for bundled generated code. */
const RUNTIME_ENTRIES: Record<string, () => Promise<object>> = {
  kgen: () => import('../index.js'),
  'kgen/runtime': () => import('../index.js'),
  // @kgen/client itself (what runtime/client/index.js re-exports): an ES module package, imported
  // dynamically so that the runtime also runs as a CommonJS bundle (cli/serve-runtime.ts).
  'kgen/client': () => import('@kgen/client'),
  'kgen/server': () => import('../server/index.js'),
  'kgen/storage': () => import('../storage/index.js'),
  'kgen/registry': () => import('../registry/index.js'),
  'kgen/types': () => import('../types/index.js'),
  'kgen/conversion': () => import('../conversion/index.js'),
};

async function importModule(path: string): Promise<Record<string, unknown>> {
  const loader = (globalThis as Record<symbol, BundledLoader | undefined>)[LOADER];
  if (loader) {
    const [mod] = (await loader.importShared([path], async (spec) => RUNTIME_ENTRIES[spec]?.())) ?? [];
    if (mod) return mod;
  }
  return (await import(pathToFileURL(path).href)) as Record<string, unknown>;
}

/** Imports `<generatedDir>/index.ts`; a missing or malformed entry is a start-up error. */
export async function loadGenerated(generatedDir: string): Promise<GeneratedModule> {
  const entry = join(generatedDir, 'index.ts');
  if (!existsSync(entry)) throw new Error(`${entry} not found: run \`kgen generate\` first`);
  const mod = (await importModule(entry)) as Partial<GeneratedModule>;
  if (typeof mod.installAll !== 'function') throw new Error(`${entry} does not export installAll(installer)`);
  return mod as GeneratedModule;
}

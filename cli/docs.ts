/** `kgen docs`: compile the APIs and write only the reference (generator/emit/docs.ts). */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cacheDir } from '../bin/loader/cache-dir.js';
import { compile, formatDiagnostic } from '../generator/index.js';

export function writeDocs(apisDir: string, outDir: string): number {
  // kgen's checked cache directory: the precompiled templates `generate` stored there are read.
  const result = compile({ apisDir, cacheDir: cacheDir() });
  for (const d of result.diagnostics) console.error(formatDiagnostic(d));
  if (!result.ok) return 1;
  const out = resolve(outDir);
  mkdirSync(out, { recursive: true });
  // Pages of group/versions that no longer exist go; anything else in the folder stays.
  for (const name of readdirSync(out)) if (/\.html$|^search\.js$|^style\.css$/.test(name)) rmSync(join(out, name));
  const docs = result.files.filter((f) => f.path.startsWith('docs/'));
  for (const f of docs) writeFileSync(join(out, f.path.slice('docs/'.length)), f.content);
  console.log(`wrote ${docs.length} files to ${outDir} (open ${join(outDir, 'index.html')})`);
  return 0;
}

/**
 * `kgen docs [apisDir] [--out docs/]`: writes the HTML API reference of the APIs under apisDir
 * (one page per group/version, an index with a search box; see generator/emit/docs.ts). The same
 * pages are part of `kgen generate`'s output (generated/docs/), which `kgen serve` serves at /docs/.
 */
import type { Command } from 'commander';

export function registerDocs(program: Command): void {
  program
    .command('docs')
    .description('write an HTML reference of the APIs under <apisDir> (no external requests; open index.html)')
    .argument('[apisDir]', 'folder holding <group>/<version>/*.ts', './apis')
    .option('-o, --out <dir>', 'output directory (its .html, search.js and style.css are replaced)', './docs')
    .action(async (apisDir: string, flags: { out: string }) => {
      const { writeDocs } = await import('./docs.js');
      process.exitCode = writeDocs(apisDir, flags.out);
    });
}

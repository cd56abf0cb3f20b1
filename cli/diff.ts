/**
 * `kgen diff [apisDir] --against <git-ref|dir> [--json]`: the API changes between a baseline (a
 * git ref, or a copy of an earlier generated/ folder) and the current apis/. Exits 1 when a
 * breaking change is not accepted by @kgen:allowBreakingChange, 0 otherwise.
 */
import type { Command } from 'commander';

interface Flags {
  against: string;
  json?: boolean;
  generated: string;
  builtins: boolean;
}

export function registerDiff(program: Command): void {
  program
    .command('diff')
    .description('list the API changes (added, removed, tightened) against a baseline; exit 1 on an unaccepted breaking change')
    .argument('[apisDir]', 'folder holding <group>/<version>/*.ts', './apis')
    .requiredOption('--against <git-ref|dir>', 'baseline: a git ref (reads <generated>/api-snapshot.json there) or a generated/ folder')
    .option('--generated <dir>', 'the generated folder, whose committed copy a git ref is read from', './generated')
    .option('--json', 'print the changes as JSON')
    .option('--no-builtins', "leave out kgen's built-in APIs")
    .action(async (apisDir: string, flags: Flags) => {
      const code = await runDiff(apisDir, flags);
      process.exitCode = code;
      // As kgen generate: done once the output is flushed, without waiting for the heap's tear-down.
      if (process.stdout.writableLength === 0 && process.stderr.writableLength === 0) process.exit(code);
    });
}

async function runDiff(apisDir: string, flags: Flags): Promise<number> {
  const { compile, formatDiagnostic } = await import('../generator/index.js');
  const { BaselineError, loadBaseline } = await import('../generator/evolve/index.js');
  const { changesJson, evolutionReport, printChangeList, printFindings } = await import('./evolution.js');
  let loaded;
  try {
    loaded = loadBaseline(flags.against, flags.generated);
  } catch (err) {
    if (err instanceof BaselineError) {
      console.error(`kgen diff: ${err.message}`);
      return 2;
    }
    throw err;
  }
  // kgen's checked cache directory: the precompiled templates `generate` stored there are read.
  const { cacheDir } = await import('../bin/loader/cache-dir.js');
  const result = compile({ apisDir, builtins: flags.builtins, cacheDir: cacheDir() });
  if (!result.ok) {
    for (const d of result.diagnostics) console.error(formatDiagnostic(d) + '\n');
    return 1;
  }
  const report = evolutionReport(loaded.baseline, result.model);
  if (flags.json) {
    console.log(JSON.stringify(changesJson(report.changes, loaded.source), null, 2));
  } else {
    printFindings(report.changes, false);
    printChangeList(report.changes, loaded.source);
    console.log(`\n${report.breaking} breaking, ${report.warnings} warning${report.warnings === 1 ? '' : 's'}, ${report.changes.length} change${report.changes.length === 1 ? '' : 's'}`);
  }
  return report.breaking > 0 ? 1 : 0;
}

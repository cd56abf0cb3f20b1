/**
 * Breaking-change reporting shared by `kgen diff` and `kgen generate`: the current model against
 * a baseline snapshot (generator/evolve), printed as diagnostics or as a change list.
 */
import { formatDiagnostic, type ApiModel } from '../generator/index.js';
import { changeDiagnostics, diffModels, isBreaking, severityOf, type ApiChange, type Baseline } from '../generator/evolve/index.js';
import { relative } from 'node:path';

export interface EvolutionReport {
  changes: ApiChange[];
  breaking: number;
  warnings: number;
}

export function evolutionReport(baseline: Baseline, model: ApiModel): EvolutionReport {
  const changes = diffModels(baseline, model);
  const diagnostics = changeDiagnostics(changes);
  return {
    changes,
    breaking: changes.filter(isBreaking).length,
    warnings: diagnostics.filter((d) => d.severity === 'warning').length,
  };
}

/** Prints the unaccepted findings as diagnostics (errors and warnings, each with its hint). */
export function printFindings(changes: ApiChange[], asWarnings: boolean): void {
  for (const d of changeDiagnostics(changes)) {
    const shown = asWarnings ? { ...d, severity: 'warning' as const } : d;
    console.error(formatDiagnostic(shown) + '\n');
  }
}

const where = (c: ApiChange) => {
  const file = c.loc.file.startsWith('/') ? relative(process.cwd(), c.loc.file) : c.loc.file;
  return `${file}:${c.loc.line}`;
};

const SECTIONS: [string, (c: ApiChange) => boolean][] = [
  ['Breaking', (c) => isBreaking(c)],
  ['Accepted breaking', (c) => severityOf(c) === 'error' && c.accepted !== undefined],
  ['Warnings', (c) => severityOf(c) === 'warning' && c.accepted === undefined],
  ['Removed', (c) => severityOf(c) === 'info' && c.change === 'removed'],
  ['Changed', (c) => severityOf(c) === 'info' && (c.change === 'changed' || c.change === 'tightened' || c.change === 'loosened')],
  ['Added', (c) => severityOf(c) === 'info' && c.change === 'added'],
];

/** The change list of `kgen diff`, grouped for review and release notes. */
export function printChangeList(changes: ApiChange[], source: string): void {
  console.log(`API changes against ${source}:`);
  if (changes.length === 0) console.log('  none');
  for (const [title, test] of SECTIONS) {
    const list = changes.filter(test);
    if (list.length === 0) continue;
    console.log(`\n${title} (${list.length}):`);
    for (const c of list) {
      const code = c.code ? `${c.code} ` : '';
      const accepted = c.accepted !== undefined ? ` (accepted: ${c.accepted})` : '';
      console.log(`  ${where(c)}  ${code}${c.subject}${c.path ? ` ${c.path}` : ''}: ${c.summary}${accepted}`);
    }
  }
}

export function changesJson(changes: ApiChange[], source: string): unknown {
  return {
    baseline: source,
    breaking: changes.filter(isBreaking).length,
    changes: changes.map((c) => ({
      change: c.change,
      severity: severityOf(c),
      ...(c.code ? { code: c.code } : {}),
      subject: c.subject,
      path: c.path,
      summary: c.summary,
      file: c.loc.file.startsWith('/') ? relative(process.cwd(), c.loc.file) : c.loc.file,
      line: c.loc.line,
      col: c.loc.col,
      ...(c.accepted !== undefined ? { accepted: c.accepted } : {}),
    })),
  };
}

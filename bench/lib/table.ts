/** The one table `npm run bench` prints (and bench/README.md records). */
import type { FigureResult, Target } from './harness.js';

function num(x: number): string {
  if (Math.abs(x) >= 100) return Math.round(x).toLocaleString('en-US');
  if (Math.abs(x) >= 10) return x.toFixed(1);
  return x.toFixed(2);
}

function withUnit(x: number, unit: string): string {
  return unit === 'req/s' ? `${num(x)}/s` : `${num(x)} ${unit}`;
}

export function targetText(t: Target, unit: string): string {
  switch (t.kind) {
    case 'ratio-max':
      return `ratio ≤ ${t.limit}`;
    case 'ratio-min':
      return `ratio ≥ ${t.limit}`;
    case 'value-max':
      return `< ${withUnit(t.limit, unit)}`;
    case 'none':
      return '(none)';
  }
}

export function rows(results: FigureResult[]): string[][] {
  return results.map((r) => {
    if (r.na !== undefined) return [r.title, `n/a: ${r.na}`, '', '', targetText(r.target, r.unit), 'n/a'];
    return [
      r.title,
      withUnit(r.value!, r.unit),
      `${withUnit(r.baseline!, r.unit)} (${r.baselineLabel})`,
      r.ratio!.toFixed(2),
      targetText(r.target, r.unit),
      r.met === undefined ? '—' : r.met ? 'yes' : 'NO',
    ];
  });
}

const HEADER = ['figure', 'value', 'baseline', 'ratio', 'target', 'met?'];

/** A plain-text table for the terminal. */
export function formatTable(results: FigureResult[]): string {
  const all = [HEADER, ...rows(results)];
  const widths = HEADER.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(HEADER), widths.map((w) => '-'.repeat(w)).join('  '), ...all.slice(1).map(line)].join('\n');
}

/** The same table in Markdown, for bench/README.md. */
export function formatMarkdown(results: FigureResult[]): string {
  const esc = (c: string) => c.replace(/\|/g, '\\|');
  return [`| ${HEADER.join(' | ')} |`, `| ${HEADER.map(() => '---').join(' | ')} |`, ...rows(results).map((r) => `| ${r.map(esc).join(' | ')} |`)].join('\n');
}

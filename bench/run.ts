/** `npm run bench [-- --quick] [-- --only codegen,http]`: runs the benchmarks and prints one table. */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatMarkdown, formatTable } from './lib/table.js';
import { DEFAULT_RESULTS } from './lib/paths.js';
import { FULL, QUICK } from './lib/profile.js';
import { allBenchmarks } from './all.js';
import { runAll } from './runner.js';

const USAGE = `usage: npm run bench [-- --quick] [--only <part>,...] [--markdown] [--results <dir>]
  --quick       the reduced sizes the test suite uses
  --only        run only these parts: ${allBenchmarks(FULL).map((b) => b.name).join(', ')}
  --markdown    print the table as Markdown
  --results     folder for the raw JSON results (default ${DEFAULT_RESULTS})`;

function usageError(message: string): never {
  console.error(`bench: ${message}\n${USAGE}`);
  process.exit(2);
}

let values: { quick: boolean; only?: string; results?: string; markdown: boolean; help: boolean };
try {
  ({ values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      results: { type: 'string' },
      markdown: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (e) {
  usageError((e as Error).message);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const profile = values.quick ? QUICK : FULL;
const only = values.only?.split(',').map((s) => s.trim()).filter(Boolean);
const known = new Set(allBenchmarks(profile).map((b) => b.name));
const unknown = only?.filter((name) => !known.has(name)) ?? [];
if (unknown.length) usageError(`no benchmark part named ${unknown.map((n) => `"${n}"`).join(', ')}`);

const summary = await runAll({
  profile,
  resultsDir: values.results ? resolve(values.results) : DEFAULT_RESULTS,
  only,
  log: (m) => console.error(`[bench] ${m}`),
});
const m = summary.machine;
console.log(`\nkgen benchmarks (${summary.profile}), ${summary.date}, ${m.cpus} × ${m.cpuModel}, ${m.memTotalGiB} GiB, node ${m.node}, load average ${summary.loadAvgAtStart} at start and ${m.loadAvg1m} at end, ${summary.durationSec} s\n`);
console.log(values.markdown ? formatMarkdown(summary.figures) : formatTable(summary.figures));

/** `npm run bench [-- --quick] [-- --only codegen,http]`: runs the benchmarks and prints one table. */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatMarkdown, formatTable } from './lib/table.js';
import { DEFAULT_RESULTS } from './lib/paths.js';
import { FULL, QUICK } from './lib/profile.js';
import { runAll } from './runner.js';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    results: { type: 'string' },
    markdown: { type: 'boolean', default: false },
  },
});

const summary = await runAll({
  profile: values.quick ? QUICK : FULL,
  resultsDir: values.results ? resolve(values.results) : DEFAULT_RESULTS,
  only: values.only?.split(',').map((s) => s.trim()).filter(Boolean),
  log: (m) => console.error(`[bench] ${m}`),
});
const m = summary.machine;
console.log(`\nkgen benchmarks (${summary.profile}), ${summary.date}, ${m.cpus} × ${m.cpuModel}, ${m.memTotalGiB} GiB, node ${m.node}, load average ${summary.loadAvgAtStart} at start and ${m.loadAvg1m} at end, ${summary.durationSec} s\n`);
console.log(values.markdown ? formatMarkdown(summary.figures) : formatTable(summary.figures));

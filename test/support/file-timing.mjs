// Loaded with --import into every process of a test run (see test/run.js). In a test file's own
// process (node --test sets NODE_TEST_CONTEXT there) it appends one line, "<ms>\t<file>", to the
// file named by KGEN_TEST_TIMINGS when the process exits: the file's wall time from process start,
// so node's and tsx's start-up and module loading are counted. The runner process records nothing.
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';

const out = process.env.KGEN_TEST_TIMINGS;
const file = process.argv[1];
if (out && file && process.env.NODE_TEST_CONTEXT) {
  process.on('exit', () => {
    const ms = Math.round(performance.now());
    try {
      appendFileSync(out, `${ms}\t${relative(process.cwd(), file)}\n`);
    } catch {
      // A timing line is a report, never a reason to fail a test file.
    }
  });
}

// Loaded with --import into every process of a test run (see test/run.js). In a test file's own
// process (node --test sets NODE_TEST_CONTEXT there) it appends one line, "<wall ms>\t<cpu ms>\t<file>",
// to the file named by KGEN_TEST_TIMINGS when the process exits. Wall time counts from process
// start, so node's and tsx's start-up and module loading count. CPU time is the process's own plus
// that of the children it has reaped (servers, kubectl, tsc), from /proc/self/stat; where there is
// no /proc, the process's own. A file whose wall time is far above its CPU time waits rather than
// works. The runner process records nothing.
import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';

const out = process.env.KGEN_TEST_TIMINGS;
const file = process.argv[1];

function cpuMs() {
  try {
    // Fields after the command name (which may hold spaces, so split after its closing paren):
    // utime stime cutime cstime are the 12th to 15th, in clock ticks (100 per second on Linux).
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10;
  } catch {
    const u = process.cpuUsage();
    return Math.round((u.user + u.system) / 1000);
  }
}

if (out && file && process.env.NODE_TEST_CONTEXT) {
  process.on('exit', () => {
    try {
      appendFileSync(out, `${Math.round(performance.now())}\t${cpuMs()}\t${relative(process.cwd(), file)}\n`);
    } catch {
      // A timing line is a report, never a reason to fail a test file.
    }
  });
}

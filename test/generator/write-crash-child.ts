/**
 * A child process for test/generator/write.test.ts: runs writeOutput(outDir, files) and kills
 * itself with SIGKILL right after commit step number `dieAt` (0-based), as a crash or a power cut
 * of the process would stop it. With dieAt = -1 it prints the steps it went through as JSON.
 *
 *   node test/generator/bundled-child.mjs test/generator/write-crash-child.ts <job.json>
 *   job.json: { "outDir": string, "files": [{ "path", "content" }], "dieAt": number }
 */
import { readFileSync } from 'node:fs';
import { writeOutput } from '../../generator/write/writer.js';

const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { outDir: string; files: { path: string; content: string }[]; dieAt: number };
const steps: string[] = [];
writeOutput(job.outDir, job.files, undefined, (step) => {
  if (steps.length === job.dieAt) process.kill(process.pid, 'SIGKILL');
  steps.push(step);
});
process.stdout.write(JSON.stringify(steps));

/**
 * Child processes for test/generator/write.test.ts's lock tests.
 *
 *   node test/generator/bundled-child.mjs test/generator/write-lock-child.ts hold <outDir> <holdMs>
 *     takes the output's lock, prints "locked", keeps it holdMs, releases it and exits;
 *   node test/generator/bundled-child.mjs test/generator/write-lock-child.ts race <job.json>
 *     job.json: { "outDir", "variants": [[{ "path", "content" }]], "rounds", "waitMs" }: writes the
 *     variants in turn, `rounds` times, and prints { "written", "errors" } as JSON (an error
 *     ends the run).
 */
import { readFileSync } from 'node:fs';
import { lockOutput } from '../../generator/write/lock.js';
import { writeOutput } from '../../generator/write/writer.js';

const [mode, arg, holdMs] = process.argv.slice(2);
if (mode === 'hold') {
  const lock = lockOutput(arg!);
  process.stdout.write('locked\n');
  setTimeout(() => {
    lock.release();
    process.exit(0);
  }, Number(holdMs));
} else {
  const job = JSON.parse(readFileSync(arg!, 'utf8')) as { outDir: string; variants: { path: string; content: string }[][]; rounds: number; waitMs: number };
  const errors: string[] = [];
  let written = 0;
  try {
    for (let i = 0; i < job.rounds; i++) {
      writeOutput(job.outDir, job.variants[i % job.variants.length]!, undefined, undefined, { waitMs: job.waitMs });
      written++;
    }
  } catch (err) {
    errors.push(String((err as Error).stack ?? err));
  }
  process.stdout.write(JSON.stringify({ written, errors }));
}

/**
 * The kgen command line: `kgen init`, `kgen generate`, `kgen serve`, `kgen docs`, `kgen migrate-storage`, `kgen diff`, `kgen validate` and `kgen test-conversion`. Each command's module is loaded only
 * when that command runs: the generator (TypeScript) and the server are large.
 */
import { Command } from 'commander';
import { registerGenerate } from './generate-command.js';
import { registerServe } from './serve.js';
import { registerMigrateStorage } from './migrate-storage.js';
import { registerDiff } from './diff.js';
import { registerTestConversion } from './test-conversion.js';
import { registerValidate } from './validate.js';
import { registerInit } from './init.js';
import { registerDocs } from './docs-command.js';

const program = new Command();
program
  .name('kgen')
  .description('Kubernetes-style APIs from TypeScript interfaces: generator, API server and typed clients')
  .showHelpAfterError();
registerGenerate(program);
registerServe(program);
registerMigrateStorage(program);
registerDiff(program);
registerTestConversion(program);
registerValidate(program);
registerInit(program);
registerDocs(program);
try {
  await program.parseAsync(process.argv);
} catch (err) {
  // The file system refused a path the user gave (an output folder through a file, a missing
  // input, a read-only disk): the system's words on one line, not a stack trace. Anything else
  // is kgen's own failure, and its trace is what a bug report needs.
  const fsError = err as NodeJS.ErrnoException;
  if (typeof fsError?.code !== 'string' || typeof fsError.syscall !== 'string') throw err;
  console.error(`kgen ${program.args[0] ?? ''}: ${fsError.message}`.replace('kgen : ', 'kgen: '));
  process.exitCode = 1;
}

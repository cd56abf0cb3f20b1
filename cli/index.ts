/**
 * The kgen command line: `kgen generate`, `kgen serve`, `kgen docs` and `kgen migrate-storage`. Each command's module is loaded only
 * when that command runs: the generator (TypeScript) and the server are large.
 */
import { Command } from 'commander';
import { registerGenerate } from './generate-command.js';
import { registerServe } from './serve.js';
import { registerMigrateStorage } from './migrate-storage.js';
import { registerDocs } from './docs-command.js';

const program = new Command();
program
  .name('kgen')
  .description('Kubernetes-style APIs from TypeScript interfaces: generator, API server and typed clients')
  .showHelpAfterError();
registerGenerate(program);
registerServe(program);
registerMigrateStorage(program);
registerDocs(program);
await program.parseAsync(process.argv);

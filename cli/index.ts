/**
 * The kgen command line: `kgen generate` and `kgen serve`. Each command's module is loaded only
 * when that command runs: the generator (ts-morph, TypeScript) and the server are large.
 */
import { Command } from 'commander';
import { registerGenerate } from './generate-command.js';
import { registerServe } from './serve.js';

const program = new Command();
program
  .name('kgen')
  .description('Kubernetes-style APIs from TypeScript interfaces: generator, API server and typed clients')
  .showHelpAfterError();
registerGenerate(program);
registerServe(program);
await program.parseAsync(process.argv);

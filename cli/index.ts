/** The kgen command line: `kgen generate` and `kgen serve`. */
import { Command } from 'commander';
import { registerGenerate } from './generate.js';
import { registerServe } from './serve.js';

const program = new Command();
program
  .name('kgen')
  .description('Kubernetes-style APIs from TypeScript interfaces: generator, API server and typed clients')
  .showHelpAfterError();
registerGenerate(program);
registerServe(program);
await program.parseAsync(process.argv);

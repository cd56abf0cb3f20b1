#!/usr/bin/env node
// `npm run bench`: runs the benchmarks (TypeScript, through tsx like bin/kgen.js) and prints the table.
//   node bench/run.js [--quick] [--only name,name] [--markdown] [--results dir]; --help lists the parts
import { register } from 'tsx/esm/api';

register();
await import('./run.ts');

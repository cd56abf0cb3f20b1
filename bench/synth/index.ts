/**
 * The synthetic API generator.
 *
 *   node --import tsx bench/synth/index.ts --groups 20 --kinds 5 --apis <dir> [--tsoa <dir>]
 *
 * writes `groups × kinds` kinds in kgen's input language under --apis and, with --tsoa, the
 * equivalent tsoa 6.6 project (models and CRUD controllers) under --tsoa.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { writeKgenApis } from './kgen.js';
import { synthKinds, type KindSpec, type SynthOptions } from './spec.js';
import { writeTsoaProject } from './tsoa.js';

export { synthKinds, benchKind, type KindSpec, type SynthOptions } from './spec.js';
export { kindFile, kindPath, writeKgenApis } from './kgen.js';
export { writeTsoaProject } from './tsoa.js';

/** Writes the kgen apis folder (and the tsoa project when `tsoaDir` is given); returns the kinds. */
export function synthesize(opts: SynthOptions & { apisDir: string; tsoaDir?: string }): KindSpec[] {
  const kinds = synthKinds(opts);
  writeKgenApis(opts.apisDir, kinds);
  if (opts.tsoaDir) writeTsoaProject(opts.tsoaDir, kinds);
  return kinds;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { groups: { type: 'string', default: '20' }, kinds: { type: 'string', default: '5' }, apis: { type: 'string' }, tsoa: { type: 'string' } },
  });
  if (!values.apis) {
    console.error('usage: node --import tsx bench/synth/index.ts --groups N --kinds K --apis <dir> [--tsoa <dir>]');
    process.exit(2);
  }
  const kinds = synthesize({ groups: Number(values.groups), kindsPerGroup: Number(values.kinds), apisDir: resolve(values.apis), tsoaDir: values.tsoa && resolve(values.tsoa) });
  console.log(`wrote ${kinds.length} kinds to ${values.apis}${values.tsoa ? ` and the tsoa project to ${values.tsoa}` : ''}`);
}

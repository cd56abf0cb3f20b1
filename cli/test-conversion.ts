/**
 * `kgen test-conversion [generatedDir]`: proves the conversions of every kind with several
 * versions by round trips of random valid objects (generator/evolve/round-trip.ts). It loads the
 * generated conversion modules and CRD schemas of the generated folder; exit 1 when a conversion
 * loses or changes data, with the shrunk object printed.
 */
import type { Command } from 'commander';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Flags {
  runs: string;
  seed?: string;
}

export function registerTestConversion(program: Command): void {
  program
    .command('test-conversion')
    .description('prove the conversions of every multi-version kind: random valid objects of each version go to the storage version and back unchanged')
    .argument('[generatedDir]', 'the generated folder (holds crds/ and conversion/)', './generated')
    .option('--runs <n>', 'random objects per version pair', '200')
    .option('--seed <n>', 'fast-check seed, to replay a failure')
    .action(async (generatedDir: string, flags: Flags) => {
      // `--runs abc` was NaN, and fast-check then ran no object at all and called it proved.
      const runs = Number(flags.runs);
      if (!/^[0-9]+$/.test(flags.runs) || runs < 1) program.error(`--runs must be a positive integer, got "${flags.runs}"`);
      const seed = flags.seed === undefined ? undefined : Number(flags.seed);
      if (flags.seed !== undefined && (!/^-?[0-9]+$/.test(flags.seed) || !Number.isSafeInteger(seed))) program.error(`--seed must be an integer, got "${flags.seed}"`);
      process.exitCode = await runTestConversion(resolve(generatedDir), runs, seed);
    });
}

export async function runTestConversion(dir: string, numRuns: number, seed?: number): Promise<number> {
  let fc: typeof import('fast-check');
  try {
    fc = await import('fast-check');
  } catch {
    console.error('kgen test-conversion needs fast-check: npm install --save-dev fast-check');
    return 2;
  }
  const { parse } = await import('yaml');
  const { proveRoundTrips } = await import('../generator/evolve/round-trip.js');
  const crdDir = join(dir, 'crds');
  if (!existsSync(crdDir)) {
    console.error(`kgen test-conversion: ${crdDir} not found; run kgen generate first`);
    return 2;
  }
  let failed = 0;
  let proved = 0;
  for (const file of readdirSync(crdDir).filter((f) => f.endsWith('.yaml')).sort()) {
    const crd = parse(readFileSync(join(crdDir, file), 'utf8')) as { spec: { group: string; scope: 'Namespaced' | 'Cluster'; names: { kind: string; plural: string }; versions: { name: string; schema?: { openAPIV3Schema?: Record<string, unknown> } }[] } };
    if (crd.spec.versions.length < 2) continue;
    const module = join(dir, 'conversion', crd.spec.group, `${crd.spec.names.plural}.ts`);
    if (!existsSync(module)) {
      console.error(`${crd.spec.names.kind}.${crd.spec.group}: no conversion module ${module}`);
      failed++;
      continue;
    }
    const exports = (await import(pathToFileURL(module).href)) as Record<string, unknown>;
    const conversion = Object.values(exports).find((v): v is import('../runtime/conversion/index.js').KindConversion => !!v && typeof (v as { convert?: unknown }).convert === 'function');
    if (!conversion) continue;
    const schemas = new Map(crd.spec.versions.flatMap((v) => (v.schema?.openAPIV3Schema ? [[v.name, v.schema.openAPIV3Schema] as const] : [])));
    const results = proveRoundTrips(fc, { group: crd.spec.group, kind: crd.spec.names.kind, scope: crd.spec.scope, conversion, schemas }, { numRuns, seed });
    for (const r of results) {
      const name = `${r.kind}.${r.group} ${r.from} → ${r.via} → ${r.from}`;
      if (r.ok) {
        proved++;
        console.log(`ok    ${name} (${r.runs} objects)`);
        continue;
      }
      failed++;
      console.log(`FAIL  ${name}: ${r.error ?? `${r.differences?.join(', ')} did not come back`}`);
      console.log(`  object (shrunk): ${JSON.stringify(r.counterexample)}`);
      if (r.returned !== undefined) console.log(`  came back as:    ${JSON.stringify(r.returned)}`);
    }
  }
  console.log(`${proved} round trip${proved === 1 ? '' : 's'} proved, ${failed} failed`);
  return failed > 0 ? 1 : 0;
}

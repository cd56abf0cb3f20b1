/**
 * `kgen validate <files or dirs…>`: validates YAML and JSON manifests (several documents per
 * file, and Lists) offline against the generated APIs and CRD manifests, with the server's own
 * validation (runtime/registry/validate-object.ts). Every error of every object is printed as
 * `file:line: <kind>/<name>: <field path>: <kube's message>`; exit 1 when any object is invalid.
 */
import type { Command } from 'commander';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

interface Flags {
  generated: string;
  crd: string[];
}

export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('validate YAML/JSON manifests offline against the generated APIs (and CRDs), with the server\'s validation')
    .argument('<paths...>', 'manifest files, or folders searched for *.yaml, *.yml and *.json')
    .option('--generated <dir>', 'the generated folder whose APIs to validate against', './generated')
    .option('--crd <file>', 'also validate against the CustomResourceDefinitions in this manifest (repeatable)', (v: string, all: string[]) => [...all, v], [] as string[])
    .action(async (paths: string[], flags: Flags) => {
      process.exitCode = await runValidate(paths, flags);
    });
}

function manifestFiles(path: string, out: string[] = []): string[] {
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const child = join(path, name);
      if (statSync(child).isDirectory() || /\.(ya?ml|json)$/.test(name)) manifestFiles(child, out);
    }
  } else out.push(path);
  return out;
}

export async function runValidate(paths: string[], flags: Flags): Promise<number> {
  const { generatedTargets, crdTargets } = await import('./validate-targets.js');
  const { manifestObjects } = await import('./manifests.js');
  const { validateManifestObject } = await import('./validate-object.js');
  const targets = new Map();
  const generated = resolve(flags.generated);
  if (existsSync(generated)) generatedTargets(generated, targets);
  for (const file of flags.crd) crdTargets(file, targets);
  if (targets.size === 0) {
    console.error(`kgen validate: no APIs to validate against: ${flags.generated} has no generated output and no --crd was given`);
    return 2;
  }
  let objects = 0;
  let invalid = 0;
  for (const path of paths) {
    if (!existsSync(path)) {
      console.error(`kgen validate: ${path}: no such file or directory`);
      invalid++;
      continue;
    }
    for (const file of manifestFiles(path)) {
      const shown = relative(process.cwd(), file) || file;
      for (const entry of manifestObjects(readFileSync(file, 'utf8'))) {
        objects++;
        const lines = validateManifestObject(entry, targets);
        if (lines.length > 0) invalid++;
        for (const line of lines) console.log(`${shown}:${entry.line}: ${line}`);
      }
    }
  }
  console.error(`${objects} object${objects === 1 ? '' : 's'}, ${invalid} invalid`);
  return invalid > 0 ? 1 : 0;
}

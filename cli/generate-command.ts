/**
 * `kgen generate <apisDir> [--out dir] [--check] [--watch]`: the command's options. The generator
 * itself (cli/generate.ts and TypeScript) is loaded only when the command runs.
 */
import type { Command } from 'commander';
import type { GenerateOptions } from '../generator/index.js';

interface Flags {
  out: string;
  check?: boolean;
  against?: string;
  watch?: boolean;
  builtins: boolean;
  maxDescriptionLength?: string;
  crdMaxDescriptionLength?: string;
  aggregatedManifests?: string;
  aggregatedName?: string;
  aggregatedNamespace?: string;
  aggregatedImage?: string;
}

export function registerGenerate(program: Command): void {
  program
    .command('generate')
    .description('compile API types under <apisDir>/<group>/<version>/ into OpenAPI, discovery, models, storage, routes and clients')
    .argument('<apisDir>', 'folder holding <group>/<version>/*.ts')
    .option('-o, --out <dir>', 'output directory (replaced as a whole)', './generated')
    .option('--check', 'write nothing; exit 1 and name every stale, missing or extra file if the output is not up to date')
    .option('--against <git-ref|dir>', 'with --check: also fail on breaking API changes against this baseline (e.g. origin/main)')
    .option('--watch', 'regenerate on every change under apisDir')
    .option('--no-builtins', "leave out kgen's built-in APIs (core/v1 Namespace, RBAC, authorization reviews, admission webhooks)")
    .option('--max-description-length <n>', 'truncate OpenAPI descriptions longer than n characters')
    .option('--crd-max-description-length <n>', 'cut CRD manifest descriptions to n characters at a word, 0 drops them (keeps a CRD under the 256 KiB kubectl apply annotation)')
    .option('--aggregated-manifests <dir>', 'also write the manifests that install the generated API in a cluster as an aggregated API server (APIServices, Service, Deployment, ServiceAccount, RBAC) into <dir>')
    .option('--aggregated-name <name>', "with --aggregated-manifests: the name of the server's objects (default: the first group's first label)")
    .option('--aggregated-namespace <ns>', 'with --aggregated-manifests: the namespace it runs in (default: its name)')
    .option('--aggregated-image <image>', 'with --aggregated-manifests: the container image holding kgen and the generated directory at /app/generated (default: <name>-apiserver:latest)')
    .action(async (apisDir: string, flags: Flags) => {
      // kgen's cache directory, as bin/loader checks it (private to this user), for precompiled templates.
      const { cacheDir } = await import('../bin/loader/cache-dir.js');
      const options: GenerateOptions = { apisDir, outDir: flags.out, builtins: flags.builtins, cacheDir: cacheDir() };
      if (flags.aggregatedManifests !== undefined) {
        options.aggregatedManifests = { dir: flags.aggregatedManifests, name: flags.aggregatedName, namespace: flags.aggregatedNamespace, image: flags.aggregatedImage };
      } else if (flags.aggregatedName || flags.aggregatedNamespace || flags.aggregatedImage) {
        program.error('--aggregated-name, --aggregated-namespace and --aggregated-image go with --aggregated-manifests <dir>');
      }
      if (flags.maxDescriptionLength !== undefined) {
        const n = Number(flags.maxDescriptionLength);
        if (!Number.isInteger(n) || n < 0) program.error(`--max-description-length must be a non-negative integer, got "${flags.maxDescriptionLength}"`);
        options.maxDescriptionLength = n;
      }
      if (flags.crdMaxDescriptionLength !== undefined) {
        const n = Number(flags.crdMaxDescriptionLength);
        if (!Number.isInteger(n) || n < 0) program.error(`--crd-max-description-length must be a non-negative integer, got "${flags.crdMaxDescriptionLength}"`);
        options.crdMaxDescriptionLength = n;
      }
      if (flags.against !== undefined && !flags.check) program.error('--against is used with --check (kgen generate compares with the current output by itself)');
      const { runCheck, runGenerate, runWatch } = await import('./generate.js');
      if (flags.watch) return runWatch(options);
      exitWhenDone(flags.check ? runCheck(options, flags.against) : runGenerate(options));
    });
}

/**
 * Ends a one-shot run as soon as its work is complete. Everything is on disk by now (the writer
 * is synchronous and its renames are done), so the process does not wait for the tear-down of a
 * large heap. Output still buffered in a stream (stdout to a pipe is asynchronous on some
 * platforms) is not cut off: then the process ends normally, with the same exit code.
 */
function exitWhenDone(code: number): void {
  process.exitCode = code;
  if (process.stdout.writableLength === 0 && process.stderr.writableLength === 0) process.exit(code);
}


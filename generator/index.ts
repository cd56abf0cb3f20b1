/**
 * The generator's entry point: parse → check → emit, then (only if there were no errors) write.
 * `compile` only reads (the API sources, templates, kgen's cache); `generate` and `checkGenerated`
 * are the two ways to meet the disk, and write/ does all their writing: the output, and the cache
 * entries earlier stages proposed (generator/cache.ts).
 */
import { readFileSync } from 'node:fs';
import { basename, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { derivedCache, type DerivedCache } from './cache.js';
import { checkModel, newCheckCache, type CheckCache } from './check/checker.js';
import { checkLimits, type LimitsCache } from './check/limits.js';
import type { Diagnostic } from './diagnostics.js';
import { emitConversions } from './emit/conversion.js';
import { emitCRDs } from './emit/crd.js';
import { emitDiscovery } from './emit/discovery.js';
import { emitDocs } from './emit/docs.js';
import type { EmitOptions, EmittedFile } from './emit/emitted.js';
import { emitOpenAPI } from './emit/openapi.js';
import { emitSnapshot } from './emit/snapshot.js';
import { loadTemplates } from './emit/templates.js';
import { emitTypeScript } from './emit/typescript.js';
import { emitValidators } from './emit/validators.js';
import { emitGoFields } from './emit/go-fields.js';
import { emitAggregatedManifests, type AggregatedManifestOptions } from './emit/aggregated-manifests.js';
import type { ApiModel, ApiVersion } from './model.js';
import { groupFolder } from './names.js';
import { builtinParse } from './parse/builtin-cache.js';
import { newParseCache, parseApis, type ParseCache } from './parse/parser.js';
import { writeProposedEntries } from './write/cache.js';
import { diffOutput, isUpToDate, newWriteState, writeOutput, type OutputDiff, type WriteState } from './write/writer.js';
import { pendingJournal, physicalPath } from './write/journal.js';
import { holderRunning, lockPathOf, readLockHolder } from './write/lock.js';
export { OutputLockedError } from './write/lock.js';
export { ForeignOutputError } from './write/writer.js';

export { formatDiagnostic, DIAGNOSTICS } from './diagnostics.js';
export type { Diagnostic, DiagnosticCode } from './diagnostics.js';
export type { ApiModel } from './model.js';
export type { EmittedFile } from './emit/emitted.js';
export type { OutputDiff } from './write/writer.js';

/** kgen's own API definitions (core/v1 Namespace, …), merged into every generation. */
export const BUILTIN_APIS = fileURLToPath(new URL('./builtin/', import.meta.url)).replace(/\/$/, '');

export interface CompileOptions extends EmitOptions {
  apisDir: string;
  /** Merge kgen's built-in APIs (default true). */
  builtins?: boolean;
  /**
   * kgen's cache directory for what it derives from its own code (precompiled templates): the CLI
   * passes bin/loader/cache-dir.js's checked `cacheDir()`. Unset: no cache.
   */
  cacheDir?: string;
}

export interface CompileResult {
  ok: boolean;
  model: ApiModel;
  diagnostics: Diagnostic[];
  files: EmittedFile[];
  /** The source files read. */
  sources: string[];
}

/**
 * What `kgen generate --watch` keeps from one generation to the next: parsed files and versions
 * (see ParseCache) and what was written (see WriteState). A session gives the same results as
 * separate cold runs; it only skips work whose inputs did not change.
 */
export interface GenerateSession {
  parse: ParseCache;
  /** The check's findings of each version object the parse kept (see CheckCache). */
  check: CheckCache;
  /** The CRD limits' findings, by manifest text (see LimitsCache). */
  limits: LimitsCache;
  written: WriteState;
}

export function newGenerateSession(): GenerateSession {
  return { parse: newParseCache(), check: newCheckCache(), limits: new Map(), written: newWriteState() };
}

export function compile(options: CompileOptions, session?: GenerateSession): CompileResult {
  return compileWith(options, session, derivedCache(options.cacheDir));
}

function compileWith(options: CompileOptions, session: GenerateSession | undefined, cache: DerivedCache): CompileResult {
  const apisDir = resolve(options.apisDir);
  const roots = options.builtins === false ? [apisDir] : [BUILTIN_APIS, apisDir];
  // kgen's built-in APIs parsed once, kept in kgen's cache (parse/builtin-cache.ts); --watch keeps its own parse cache.
  const kubeRoots = new Set([resolve(BUILTIN_APIS)]);
  const builtins = options.builtins === false || session ? undefined : builtinParse(BUILTIN_APIS, cache);
  const { model, diagnostics, files: sources } = parseApis(roots, session?.parse, kubeRoots, builtins);
  const checked = checkModel(model, diagnostics, session?.check);
  if (diagnostics.hasErrors) return { ok: false, model, diagnostics: diagnostics.sorted(), files: [], sources };
  loadTemplates(cache);
  const builtin = (v: ApiVersion) => v.loc.file.startsWith(BUILTIN_APIS + sep);
  const sourceOf = (v: ApiVersion) => {
    return builtin(v) ? `kgen's built-in ${groupFolder(v.group)}/${v.name}` : `${basename(apisDir)}/${groupFolder(v.group)}/${v.name}`;
  };
  // Conversion modules import the users' conversion files relative to where the output goes.
  const outDir = resolve((options as { outDir?: string }).outDir ?? resolve(apisDir, '../generated'));
  // The HTML reference documents the user's APIs, not kgen's built-ins.
  const docs = emitDocs(model, { include: (v) => !v.loc.file.startsWith(BUILTIN_APIS + sep) });
  const files = [...emitOpenAPI(checked, options, { cache, builtin }), ...emitDiscovery(checked), ...emitTypeScript(checked, sourceOf, { cache, builtin }), ...emitValidators(model, sourceOf), ...emitGoFields(model), ...emitConversions(checked, { ...options, outDir }), ...emitCRDs(model, options), ...emitSnapshot(model), ...docs].sort((a, b) =>
    a.path.localeCompare(b.path),
  );
  // What a cluster would refuse when the CRDs are applied: CEL cost, size, structural rules.
  checkLimits(model, files, diagnostics, session?.limits);
  if (diagnostics.hasErrors) return { ok: false, model, diagnostics: diagnostics.sorted(), files: [], sources };
  return { ok: true, model, diagnostics: diagnostics.sorted(), files, sources };
}

export interface GenerateOptions extends CompileOptions {
  outDir: string;
  /** Runs after a successful compile and before anything is written (kgen generate's evolution warnings). */
  beforeWrite?: (result: CompileResult) => void;
  /** `kgen generate --aggregated-manifests <dir>`: where the install manifests go, and their parameters. */
  aggregatedManifests?: AggregatedManifestOptions & { dir: string };
}

export interface GenerateResult extends CompileResult {
  diff?: OutputDiff;
}

/** Compiles and, when there are no errors, replaces outDir with the result in one step. */
export function generate(options: GenerateOptions, session?: GenerateSession): GenerateResult {
  return stageGenerate(options, session).write();
}

/**
 * True when `path` is a source file the session's last compile read and its text on disk is still
 * the text that compile used: an event about it brought nothing that compile missed. False for
 * anything else (a file it did not read, one that is gone or unreadable, another text).
 */
export function sourceUnchanged(session: GenerateSession, path: string): boolean {
  const read = session.parse.files.texts.get(path);
  if (read === undefined) return false;
  try {
    return readFileSync(path, 'utf8') === read;
  } catch {
    return false;
  }
}

/**
 * True when `path` is a source file the session's last compile read, and its text on disk is no
 * longer the text that compile used (or it is gone): the compile may have read it in the middle of
 * a save. False for a file the compile did not read (a folder, an editor's swap file).
 */
export function sourceChangedSinceRead(session: GenerateSession, path: string): boolean {
  return session.parse.files.texts.has(path) && !sourceUnchanged(session, path);
}

/** A compiled generation whose output is not written yet (see stageGenerate). */
export interface StagedGeneration {
  result: CompileResult;
  /** What generate() does after compiling: beforeWrite and, when there are no errors, the write. Call it at most once. */
  write(): GenerateResult;
}

/**
 * generate() in two steps: compile now, write later or never. `--watch` compiles as soon as a
 * change arrives and writes only once the sources have stayed unchanged since the compile read
 * them; a staged generation it drops leaves the session as a compile with errors would (the
 * session's write state changes only in write()).
 */
export function stageGenerate(options: GenerateOptions, session?: GenerateSession): StagedGeneration {
  const cache = derivedCache(options.cacheDir);
  const result = compileWith(options, session, cache);
  writeProposedEntries(cache);
  return {
    result,
    write: () => {
      if (!result.ok) return result;
      options.beforeWrite?.(result);
      return { ...result, diff: writeOutput(resolve(options.outDir), result.files, session?.written) };
    },
  };
}

/** Compiles and compares with outDir without writing anything there (kgen's own cache may be written). */
export function checkGenerated(options: GenerateOptions): GenerateResult & { upToDate: boolean; pendingJournal?: string; writer?: number } {
  const cache = derivedCache(options.cacheDir);
  const result = compileWith(options, undefined, cache);
  writeProposedEntries(cache);
  if (!result.ok) return { ...result, upToDate: false };
  const diff = diffOutput(resolve(options.outDir), result.files);
  // A committed write not yet rolled forward: the tree is part old, part new, whatever it compares as.
  const pending = pendingJournal(resolve(options.outDir));
  // --check takes no lock (it writes nothing), but tells a write in progress from an interrupted one.
  const holder = pending ? readLockHolder(lockPathOf(physicalPath(resolve(options.outDir)))) : undefined;
  const writer = holder && holderRunning(holder) ? holder.pid : undefined;
  return { ...result, diff, upToDate: !pending && isUpToDate(diff), pendingJournal: pending, writer };
}

export { emitAggregatedManifests, servedGroupVersions, type AggregatedManifestOptions } from './emit/aggregated-manifests.js';

/**
 * Writes the aggregated-server install manifests of a compiled model into dir (replaced as a
 * whole, as the generated directory is). Undefined when the model serves no group of its own.
 */
export function writeAggregatedManifests(model: ApiModel, dir: string, options: AggregatedManifestOptions = {}): OutputDiff | undefined {
  const files = emitAggregatedManifests(model, options);
  if (!files.length) return undefined;
  return writeOutput(resolve(dir), files);
}

export function relativeToCwd(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}

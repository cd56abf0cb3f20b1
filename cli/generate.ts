/** What `kgen generate` runs: generate, --check and --watch over the generator's API. */
import { statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import {
  checkGenerated,
  formatDiagnostic,
  generate,
  newGenerateSession,
  OutputLockedError,
  ForeignOutputError,
  relativeToCwd,
  sourceChangedSinceRead,
  sourceUnchanged,
  stageGenerate,
  writeAggregatedManifests,
  type GenerateOptions,
  type GenerateResult,
  type GenerateSession,
  type StagedGeneration,
} from '../generator/index.js';
import { BaselineError, loadBaseline, readSnapshotDir } from '../generator/evolve/index.js';
import { evolutionReport, printFindings } from './evolution.js';
import { pendingJournalMessage, physicalPath, siblingPrefix } from '../generator/write/journal.js';
import { lockPathOf } from '../generator/write/lock.js';
import { watchTree } from './watch-tree.js';

function printDiagnostics(result: GenerateResult): number {
  const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
  for (const d of result.diagnostics) console.error(formatDiagnostic(d) + '\n');
  if (errors > 0) console.error(`${errors} error${errors === 1 ? '' : 's'}; nothing written.`);
  return errors;
}

function summary(result: GenerateResult): string[] {
  const lines: string[] = [];
  let kinds = 0;
  let versions = 0;
  for (const group of result.model.groups) {
    for (const version of group.versions) {
      versions++;
      kinds += version.kinds.length;
      const gv = `${group.name || 'core'}/${version.name}`;
      lines.push(`  ${gv.padEnd(36)} ${version.kinds.map((k) => k.name).join(', ')}`);
    }
  }
  lines.push(`${result.model.groups.length} groups, ${versions} versions, ${kinds} kinds, ${result.files.length} files`);
  return lines;
}

/**
 * Before the output is replaced: the breaking changes against the API snapshot it holds, as
 * warnings (the generated folder is about to stop being the baseline). `--check --against` makes
 * them errors.
 */
function warnBeforeOverwrite(options: GenerateOptions): GenerateOptions {
  let loaded;
  try {
    loaded = readSnapshotDir(resolve(options.outDir));
  } catch (err) {
    if (!(err instanceof BaselineError)) throw err;
    console.error(`warning: ${err.message}; breaking changes are not checked`);
  }
  if (!loaded) return options;
  const baseline = loaded.baseline;
  return {
    ...options,
    beforeWrite: (result) => {
      const report = evolutionReport(baseline, result.model);
      if (report.breaking + report.warnings === 0) return;
      printFindings(report.changes, true);
      console.error(`${report.breaking} breaking change${report.breaking === 1 ? '' : 's'} against the previous ${relativeToCwd(resolve(options.outDir))}/ (kgen diff --against <ref> lists them; CI: kgen generate --check --against <ref>)`);
    },
  };
}

/** generate(), with another kgen holding the output's lock past the wait reported as a failure (nothing written). */
function generateLocked(options: GenerateOptions, session?: GenerateSession): GenerateResult | undefined {
  return lockedWrite(() => generate(options, session));
}

/** A staged generation's write, with the lock held past the wait reported as generateLocked does. */
function writeLocked(staged: StagedGeneration): GenerateResult | undefined {
  return lockedWrite(() => staged.write());
}

function lockedWrite(write: () => GenerateResult): GenerateResult | undefined {
  try {
    return write();
  } catch (err) {
    if (err instanceof OutputLockedError || err instanceof ForeignOutputError) {
      console.error(`kgen generate: ${err.message}`);
      return undefined;
    }
    // The file system refused (an output path through a file, a read-only or full disk): its
    // own words, not a stack trace. The writer replaces the output whole or not at all.
    const fsError = err as NodeJS.ErrnoException;
    if (typeof fsError.code !== 'string' || typeof fsError.syscall !== 'string') throw err;
    console.error(`kgen generate: cannot write the output: ${fsError.message}`);
    return undefined;
  }
}

export function runGenerate(options: GenerateOptions, session?: GenerateSession): number {
  const started = performance.now();
  const result = generateLocked(session ? options : warnBeforeOverwrite(options), session);
  if (!result) return 1;
  if (printDiagnostics(result) > 0) return 1;
  const diff = result.diff!;
  const ms = Math.round(performance.now() - started);
  for (const line of summary(result)) console.log(line);
  const changed = diff.stale.length + diff.missing.length;
  console.log(`wrote ${changed} changed, removed ${diff.extra.length}, kept ${diff.unchanged.length} in ${relativeToCwd(resolve(options.outDir))}/ in ${ms} ms`);
  if (options.aggregatedManifests) {
    const { dir, ...params } = options.aggregatedManifests;
    let written;
    try {
      written = writeAggregatedManifests(result.model, dir, params);
    } catch (err) {
      if (!(err instanceof ForeignOutputError)) throw err;
      console.error(`--aggregated-manifests: ${err.message}`);
      return 1;
    }
    if (!written) {
      console.error('--aggregated-manifests: no API group of its own to serve (only Kubernetes groups: core, *.k8s.io, *.kubernetes.io); nothing written');
      return 1;
    }
    console.log(`wrote ${written.stale.length + written.missing.length + written.unchanged.length} aggregated-server manifests in ${relativeToCwd(resolve(dir))}/`);
  }
  return 0;
}

export function runCheck(options: GenerateOptions, against?: string): number {
  let baseline;
  if (against !== undefined) {
    try {
      baseline = loadBaseline(against, options.outDir);
    } catch (err) {
      if (!(err instanceof BaselineError)) throw err;
      console.error(`kgen generate --check: ${err.message}`);
      return 1;
    }
  }
  const result = checkGenerated(options);
  if (printDiagnostics(result) > 0) return 1;
  const out = relativeToCwd(resolve(options.outDir));
  if (baseline) {
    const report = evolutionReport(baseline.baseline, result.model);
    printFindings(report.changes, false);
    if (report.breaking > 0) {
      console.error(`${report.breaking} breaking change${report.breaking === 1 ? '' : 's'} against ${baseline.source}`);
      return 1;
    }
  }
  if (result.upToDate) {
    console.log(`${out}/ is up to date (${result.files.length} files)`);
    return 0;
  }
  if (result.pendingJournal) {
    if (result.writer !== undefined) console.error(`${out}/ is being written by pid ${result.writer} (lock ${lockPathOf(physicalPath(resolve(options.outDir)))}); check again when it is done`);
    else console.error(pendingJournalMessage(out, result.pendingJournal));
    console.error(`${out}/ is out of date; run: kgen generate ${relativeToCwd(resolve(options.apisDir))} --out ${out}`);
    return 1;
  }
  const diff = result.diff!;
  for (const f of diff.stale) console.error(`stale:   ${out}/${f}`);
  for (const f of diff.missing) console.error(`missing: ${out}/${f}`);
  for (const f of diff.extra) console.error(`extra:   ${out}/${f}`);
  console.error(`${out}/ is out of date; run: kgen generate ${relativeToCwd(resolve(options.apisDir))} --out ${out}`);
  return 1;
}

/**
 * How long the sources must have stayed unchanged, since the last event, before a regeneration is
 * written or its errors printed: editors save in more than one step (truncate then write, a
 * temporary file then a rename), and what was read between two steps must not reach the output.
 */
const SETTLE_MS = 15;

/**
 * The settle when a changed source was read empty: a save's truncation read on its own parses
 * fine (a file with no kinds) and would remove the file's kinds from the output until the write's
 * regeneration. A writer slower than SETTLE_MS between the two steps (a loaded machine) is common
 * enough; a file emptied on purpose only waits this much longer.
 */
const EMPTY_SOURCE_SETTLE_MS = 250;

/**
 * Regenerates on every change. One session lives across runs: only changed files are parsed
 * again, only the groups they reach are converted again, and output files are compared with what
 * was written last instead of being read back; diagnostics are those of a cold run.
 *
 * The first event of a change starts a compile at once (after the events fs.watch delivered with
 * it), and the settle runs alongside it: its result is written, or its errors printed, only once
 * SETTLE_MS have passed since the last event, and every event that arrived after the compile began
 * reading is about a source file whose text is still the one the compile read (one save can be
 * delivered as two events, truncate and write, the second after the compile began). Any other
 * event means the compile may have read a save in the middle: the result is dropped, and the next
 * compile waits for SETTLE_MS without events first, as every compile did before. So what is
 * written is what a compile started after SETTLE_MS of quiet would write.
 */
const isFolder = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/**
 * Whether a path is kgen's own writing: the output folder, or what the writer keeps beside it
 * (its lock, journal and staging folders, journal.ts). With the output inside the apis folder,
 * watching them made every generation's writes the next generation's change, forever.
 */
function outputOf(outDir: string): (path: string) => boolean {
  const out = resolve(outDir);
  const beside = join(dirname(out), siblingPrefix(out));
  return (path) => path === out || path.startsWith(out + sep) || path.startsWith(beside);
}

export function runWatch(options: GenerateOptions): void {
  let session = newGenerateSession();
  const apis = resolve(options.apisDir);
  const changed = new Set<string>();
  /** performance.now() of the last event. */
  let lastEvent = 0;
  /** The files of the events that arrived since the current compile began reading; undefined: one without a name. */
  let since: Set<string> | undefined = new Set();
  /** A compile is scheduled, or its result waits for the settle. */
  let busy = false;
  /** When the current regeneration's first compile began (the `regenerated in` figure). */
  let started: number | undefined;

  const compileNow = (): void => {
    started ??= performance.now();
    since = new Set();
    let staged: StagedGeneration;
    try {
      staged = stageGenerate(options, session);
    } catch (err) {
      // A file that went away while the compile read it (a checkout, an editor's rename) has an
      // event of its own: the compile runs again once quiet, with a new session, since this one
      // may hold part of what the failed compile read. Without such an event the error is kgen's.
      setImmediate(() => {
        if (since?.size === 0) throw err;
        session = newGenerateSession();
        compileWhenQuiet();
      });
      return;
    }
    settle(staged);
  };
  const compileWhenQuiet = (): void => {
    const wait = lastEvent + SETTLE_MS - performance.now();
    if (wait > 0) setTimeout(compileWhenQuiet, wait);
    else compileNow();
  };
  const settle = (staged: StagedGeneration): void => {
    // setImmediate runs after the event loop has polled for I/O: events of writes made during the
    // compile have usually been delivered by then. Not always (a loaded machine, an event the
    // kernel queues late): so before writing, every file of this regeneration's events that the
    // compile read is read again, and a text that is no longer the one the compile used (it read
    // a save's truncation, say) drops the result too.
    setImmediate(() => {
      if (!since || [...since].some((f) => !sourceUnchanged(session, resolve(apis, f)))) return compileWhenQuiet();
      since.clear();
      const readEmpty = [...changed].some((f) => session.parse.files.texts.get(resolve(apis, f)) === '');
      const wait = lastEvent + (readEmpty ? EMPTY_SOURCE_SETTLE_MS : SETTLE_MS) - performance.now();
      if (wait > 0) return void setTimeout(() => settle(staged), wait);
      if ([...changed].some((f) => sourceChangedSinceRead(session, resolve(apis, f)))) return compileWhenQuiet();
      finish(staged);
    });
  };
  const finish = (staged: StagedGeneration): void => {
    busy = false;
    const files = [...changed].sort();
    changed.clear();
    const began = started!;
    started = undefined;
    console.log(`\nchanged: ${files.join(', ')}`);
    // Another kgen holding the output past the wait: this regeneration is skipped (the next edit retries).
    const result = writeLocked(staged);
    if (!result || printDiagnostics(result) > 0) return;
    const diff = result.diff!;
    const touched = [...diff.missing, ...diff.stale];
    for (const f of touched) console.log(`  wrote   ${f}`);
    for (const f of diff.extra) console.log(`  removed ${f}`);
    console.log(`regenerated in ${Math.round(performance.now() - began)} ms (${touched.length} written, ${diff.extra.length} removed)`);
  };
  // The watches go in before the first generation: an edit made while it runs (after it read the
  // file, before it wrote) is an event delivered once it returns, and regenerates. One watch per
  // folder (watch-tree.ts): node's recursive watch loses a file once an editor replaces it.
  if (!isFolder(apis)) {
    // Nothing to watch: the first generation's KG029 says why, and the command ends there.
    process.exitCode = runGenerate(options, session);
    return;
  }
  watchTree(apis, (file) => {
    if (file) changed.add(String(file));
    if (!file) since = undefined;
    else since?.add(String(file));
    lastEvent = performance.now();
    if (busy) return;
    busy = true;
    // After the other events fs.watch delivered in this round (one save often makes several).
    setImmediate(compileNow);
  }, outputOf(options.outDir));
  runGenerate(options, session);
  // The watches are in place (watchTree sets them up synchronously), so an edit made on seeing this
  // line is not missed, nor one made during the first generation.
  console.log(`watching ${relativeToCwd(apis)}/ for changes (Ctrl-C to stop)`);
}

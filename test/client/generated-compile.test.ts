/**
 * The generated client and models (generated/client, generated/models) type-check with no errors
 * under each user setting the issue names, strict in all: nodenext; esnext + bundler;
 * isolatedModules + verbatimModuleSyntax; exactOptionalPropertyTypes (with noUncheckedIndexedAccess).
 * @kgen/client resolves through its package exports to its built .d.ts files (no skipLibCheck), as
 * in a user's project. TypeScript's own lib .d.ts files are not checked (skipDefaultLibCheck):
 * they are not kgen's output, and checking them was about a third of each tsc run.
 *
 * Each setting's tsconfig is checked in this process with TypeScript's API: the tsconfig file read
 * and parsed as `tsc -p` does, and every diagnostic `tsc -p` reports without emitting (the config
 * file's, the options', then syntactic, global and semantic: ts.getPreEmitDiagnostics). The four
 * programs share one document registry, as an editor's projects do: a file parsed and bound under
 * one setting is reused by another only when every option that changes a source file's parse or
 * binding is the same (TypeScript's own key, sourceFileAffectingCompilerOptions: target, module,
 * moduleResolution, alwaysStrict, …), so the three nodenext settings parse node's and the client's
 * .d.ts once. Four tsc processes each loaded the compiler and parsed the same ~230 files.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import ts from 'typescript';
import { REPO } from '../e2e/harness.js';

const SETTINGS: Record<string, object> = {
  nodenext: { module: 'nodenext', moduleResolution: 'nodenext' },
  'isolatedModules + verbatimModuleSyntax': { module: 'nodenext', moduleResolution: 'nodenext', isolatedModules: true, verbatimModuleSyntax: true },
  exactOptionalPropertyTypes: { module: 'nodenext', moduleResolution: 'nodenext', exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true },
  // Last: its files are parsed for module esnext, so it shares none with the three above.
  bundler: { module: 'esnext', moduleResolution: 'bundler' },
};

const registry = ts.createDocumentRegistry(ts.sys.useCaseSensitiveFileNames, ts.sys.getCurrentDirectory());
let previous: ts.LanguageService | undefined;

/** What `tsc -p <file>` (noEmit) reports, formatted as tsc prints it; empty when it finds nothing. */
function typeCheck(file: string): string {
  const read = ts.readConfigFile(file, ts.sys.readFile);
  if (read.error) return ts.formatDiagnostics([read.error], formatHost);
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(file), undefined, file);
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => parsed.options,
    getScriptFileNames: () => parsed.fileNames,
    getProjectReferences: () => parsed.projectReferences,
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) => {
      const text = ts.sys.readFile(name);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => dirname(file),
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: ts.sys.realpath,
    useCaseSensitiveFileNames: () => ts.sys.useCaseSensitiveFileNames,
  };
  const service = ts.createLanguageService(host, registry);
  const program = service.getProgram()!;
  // The previous program is let go only now that this one holds the files they share (disposing a
  // service releases its files from the registry); the last is let go after the tests.
  previous?.dispose();
  previous = service;
  const diagnostics = [...parsed.errors, ...program.getConfigFileParsingDiagnostics(), ...ts.getPreEmitDiagnostics(program)];
  return ts.formatDiagnostics(diagnostics, formatHost);
}

const formatHost: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => REPO,
  getNewLine: () => '\n',
};

describe('generated client code compiles under strict user settings', () => {
  // Inside the repository (test/.tmp), so that @kgen/client resolves from its node_modules.
  const dir = join(REPO, 'test', '.tmp', `generated-compile-${process.pid}`);
  before(() => {
    mkdirSync(join(dir, 'generated'), { recursive: true });
    for (const sub of ['client', 'models']) cpSync(join(REPO, 'generated', sub), join(dir, 'generated', sub), { recursive: true });
    // @kgen/client's .d.ts files as users get them.
    const build = spawnSync(process.execPath, [join(REPO, 'packages/client/build.js')], { encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
  });
  after(() => {
    previous?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [name, options] of Object.entries(SETTINGS)) {
    it(name, () => {
      const file = join(dir, `tsconfig.${name.replace(/\W+/g, '-')}.json`);
      writeFileSync(file, JSON.stringify({ compilerOptions: { target: 'ES2022', strict: true, noEmit: true, skipDefaultLibCheck: true, types: ['node'], ...options }, include: ['generated/**/*.ts'] }));
      assert.equal(typeCheck(file), '', `tsc (${name}) reported errors`);
    });
  }
});

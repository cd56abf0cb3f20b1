/** Shared helpers for the generator tests: fixture paths, temp dirs inside the repo, file trees. */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { after } from 'node:test';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { checkModel } from '../../generator/check/checker.js';
import { BUILTIN_APIS } from '../../generator/index.js';
import type { ApiVersion } from '../../generator/model.js';
import { parseApis } from '../../generator/parse/parser.js';

export const REPO = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
export const FIXTURES = join(REPO, 'test/fixtures/generator');
/** Temp outputs live under test/.tmp/ (gitignored) so generated code resolves `kgen/*` through the package's own exports. */
export const TMP_ROOT = join(REPO, 'test/.tmp');

/** The apis folder of a fixture: test/fixtures/generator/<name>/apis. */
export function fixtureApis(name: string): string {
  return join(FIXTURES, name, 'apis');
}

/** A fresh, empty directory under test/.tmp/. */
export function tempDir(prefix: string): string {
  mkdirSync(TMP_ROOT, { recursive: true });
  return mkdtempSync(join(TMP_ROOT, `${prefix}-`));
}

/**
 * `tmp(prefix)` making temp dirs (tempDir) that are removed once the test file's tests are done.
 * Call it at a test file's top level.
 */
export function cleanedTempDirs(): (prefix: string) => string {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  return (prefix) => {
    const dir = tempDir(prefix);
    dirs.push(dir);
    return dir;
  };
}

/** Writes `files` (path relative to dir → content) under dir/apis and returns that apis folder. */
export function writeApis(dir: string, files: Record<string, string>): string {
  const apis = join(dir, 'apis');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(apis, path)), { recursive: true });
    writeFileSync(join(apis, path), content);
  }
  return apis;
}

/** Copies a folder (e.g. a fixture's apis) into dir and returns the copy. */
export function copyTree(from: string, to: string): string {
  cpSync(from, to, { recursive: true });
  return to;
}

/** Every file under dir, relative and sorted. */
export function listTree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out.sort();
}

/** path → content, mtime (ms) and inode, to prove a tree was left untouched. */
export function snapshotTree(dir: string): Record<string, { content: string; mtimeMs: number; ino: number }> {
  return Object.fromEntries(
    listTree(dir).map((f) => {
      const st = statSync(join(dir, f));
      return [f, { content: readFileSync(join(dir, f), 'utf8'), mtimeMs: st.mtimeMs, ino: st.ino }];
    }),
  );
}

export function readJson<T = any>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/**
 * An emitter's import closure as TypeScript's own parser sees its imports (static, type-only and
 * dynamic): the check that the code key's regexp reader (generator/emit/code-key.ts) misses none.
 */
export function parsedImportClosure(entry: string): { files: string[]; packages: string[] } {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022);
    const specs: string[] = [];
    const walk = (node: ts.Node): void => {
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) specs.push(node.moduleSpecifier.text);
      if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) specs.push(node.argument.literal.text);
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) specs.push(node.arguments[0].text);
      ts.forEachChild(node, walk);
    };
    walk(source);
    for (const spec of specs) {
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec).replace(/\.js$/, '.ts'));
      else if (!spec.startsWith('node:')) packages.add(spec);
    }
  };
  visit(entry);
  return { files: [...seen].map((f) => relative(REPO, f)).sort(), packages: [...packages].sort() };
}

/** Whether a checked version is one of kgen's built-ins (kept in kgen's cache across runs). */
export const isBuiltinVersion = (v: ApiVersion) => v.loc.file.startsWith(BUILTIN_APIS + sep);

/** A fresh checked model of the repository's apis with the built-ins (new objects each call). */
export function checkedRepoWithBuiltins() {
  const { model, diagnostics } = parseApis([BUILTIN_APIS, join(REPO, 'apis')], undefined, new Set([resolve(BUILTIN_APIS)]));
  const checked = checkModel(model, diagnostics);
  if (diagnostics.hasErrors) throw new Error('the repository\'s apis do not check');
  return checked;
}

/** A private (0700) cache folder in a new temp dir, which is pushed onto `cleanup`. */
export function privateCacheDir(prefix: string, cleanup: string[]): string {
  const d = tempDir(prefix);
  cleanup.push(d);
  const cache = join(d, 'cache');
  mkdirSync(cache, { mode: 0o700 });
  return cache;
}

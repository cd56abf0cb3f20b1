/**
 * The import graph of kgen's own sources, read with the TypeScript parser (syntax only).
 *
 * Every relative import specifier of a `.ts`/`.js` file under the given roots becomes an edge:
 * `import … from`, `export … from`, `import x = require()`, and dynamic `import('…')` with a
 * string literal. Each edge records whether it is type-only (erased at run time) and whether it
 * is dynamic (loaded on demand). Bare specifiers (`node:*`, npm packages) are not edges, except
 * `@kgen/client`, which is mapped to `packages/client/src/index.ts` so that the client rules see
 * it. Specifiers ending in `.js` resolve to the `.ts` source beside them when one exists.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  /** Importing file, relative to the repository root, with `/` separators. */
  from: string;
  /** Imported file, relative to the repository root. */
  to: string;
  /** The specifier as written. */
  specifier: string;
  /** 1-based line of the import. */
  line: number;
  /** `import type`/`export type`, or every named binding marked `type`. */
  typeOnly: boolean;
  /** `import('…')`: loaded when called, not when the importer loads. */
  dynamic: boolean;
}

export interface ImportGraph {
  files: string[];
  edges: ImportEdge[];
}

const SOURCE = /\.(ts|js|mjs|cjs)$/;

function walk(root: string, dir: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(root, path, out);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(toPosix(relative(root, path)));
  }
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}

function resolveSpecifier(root: string, from: string, specifier: string): string | undefined {
  if (specifier === '@kgen/client') return 'packages/client/src/index.ts';
  if (specifier.startsWith('@kgen/client/')) return undefined;
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(root, dirname(from), specifier);
  const candidates = [
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.mjs$/, '.mts'),
    base,
    `${base}.ts`,
    join(base, 'index.ts'),
    join(base, 'index.js'),
  ];
  for (const candidate of candidates) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return toPosix(relative(root, candidate));
  }
  return undefined;
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import './x.js'` runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  if (!bindings || ts.isNamespaceImport(bindings)) return false;
  return bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

function isTypeOnlyExport(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  if (!clause || ts.isNamespaceExport(clause)) return false;
  return clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
}

/** The edges leaving one file. */
export function importsOf(root: string, file: string): ImportEdge[] {
  const text = readFileSync(join(root, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const edges: ImportEdge[] = [];
  const add = (node: ts.Node, specifier: string, typeOnly: boolean, dynamic: boolean) => {
    const to = resolveSpecifier(root, file, specifier);
    if (!to) return;
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    edges.push({ from: file, to, specifier, line, typeOnly, dynamic });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node, node.moduleSpecifier.text, isTypeOnlyImport(node), false);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node, node.moduleSpecifier.text, isTypeOnlyExport(node), false);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expr = node.moduleReference.expression;
      if (ts.isStringLiteral(expr)) add(node, expr.text, node.isTypeOnly, false);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) add(node, arg.text, false, true);
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal)) add(node, arg.literal.text, true, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** The graph of every source file under `roots` (folders relative to `root`). */
export function readImportGraph(root: string, roots: string[]): ImportGraph {
  const files: string[] = [];
  for (const dir of roots) {
    const abs = join(root, dir);
    if (existsSync(abs)) walk(root, abs, files);
  }
  const edges = files.flatMap((file) => importsOf(root, file));
  return { files, edges };
}

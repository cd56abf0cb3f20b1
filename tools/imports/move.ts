/**
 * Moves source files with `git mv` and rewrites every relative import specifier that pointed at
 * them (and the relative specifiers inside the moved files), using the TypeScript parser to find
 * the specifiers: static and type imports, `export … from`, dynamic `import('…')` and
 * `import('…')` types. Other text (comments, strings naming paths) is left to the mover.
 *
 *   npx tsx tools/imports/move.ts old/path.ts=new/path.ts [more…]
 *
 * A specifier keeps its extension style (`.js` stays `.js`).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { readImportGraph } from './graph.js';

const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const toPosix = (p: string) => p.split(sep).join('/');

const moves = new Map<string, string>();
for (const arg of process.argv.slice(2)) {
  const [from, to] = arg.split('=');
  if (!from || !to) throw new Error(`expected old=new, got ${arg}`);
  moves.set(from, to);
}

const ROOTS = ['bin', 'cli', 'generator', 'runtime', 'packages/client/src', 'test', 'bench', 'examples', 'tools'];
const before = readImportGraph(root, ROOTS);

function resolveOld(fromOld: string, specifier: string): string | undefined {
  const base = resolve(root, dirname(fromOld), specifier);
  for (const c of [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, join(base, 'index.ts'), join(base, 'index.js')]) {
    if (existsSync(c) && statSync(c).isFile()) return toPosix(relative(root, c));
  }
  return undefined;
}

function newSpecifier(fromNew: string, targetNew: string, oldSpecifier: string): string {
  let rel = toPosix(relative(dirname(fromNew), targetNew));
  if (!rel.startsWith('.')) rel = `./${rel}`;
  if (oldSpecifier.endsWith('.js') && rel.endsWith('.ts')) rel = rel.slice(0, -3) + '.js';
  // A specifier that named a folder (index) keeps naming the file explicitly.
  return rel;
}

// Rewrite first (resolution needs the old tree), then move.
const files = before.files;
for (const fileOld of files) {
  const fileNew = moves.get(fileOld) ?? fileOld;
  const abs = join(root, fileOld);
  const text = readFileSync(abs, 'utf8');
  const source = ts.createSourceFile(fileOld, text, ts.ScriptTarget.Latest, false, fileOld.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const edits: { start: number; end: number; text: string }[] = [];
  const consider = (lit: ts.StringLiteralLike) => {
    const spec = lit.text;
    if (!spec.startsWith('.')) return;
    const targetOld = resolveOld(fileOld, spec);
    if (!targetOld) return;
    const targetNew = moves.get(targetOld) ?? targetOld;
    if (targetNew === targetOld && fileNew === fileOld) return;
    const next = newSpecifier(fileNew, targetNew, spec);
    if (next === spec) return;
    const quote = text[lit.getStart(source)];
    edits.push({ start: lit.getStart(source), end: lit.getEnd(), text: `${quote}${next}${quote}` });
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) consider(node.moduleSpecifier);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) consider(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) consider(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (edits.length === 0) continue;
  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  writeFileSync(abs, out);
}

for (const [from, to] of moves) {
  execFileSync('mkdir', ['-p', dirname(join(root, to))]);
  execFileSync('git', ['mv', from, to], { cwd: root, stdio: 'inherit' });
}

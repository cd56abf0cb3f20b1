/**
 * Small syntax questions about declarations, answered from the syntax tree alone (no binder, no
 * type checker): a declaration's name as written, and whether a file exports it.
 */
import type ts from 'typescript';
import { SyntaxKind } from './typescript.js';
import { isExportAssignment, isExportDeclaration, isIdentifier, isNamedExports, isStringLiteral } from './nodes.js';

/** A member's or declaration's name as written (quotes kept: `'a-b'`), '' when it has none. */
export function memberName(node: { readonly name?: ts.Node }, sourceFile: ts.SourceFile): string {
  return node.name ? node.name.getText(sourceFile) : '';
}

/**
 * A property's name as its value (`'a\\'b'` is the field `a'b`, `"x"` is `x`), as TypeScript and the
 * wire read it: an identifier, a string or a number literal's text with its escapes applied. Any
 * other name (computed) as written. The source text with its quotes trimmed is not the name: it
 * kept the escapes, so the JSON field (OpenAPI, CRD) and the model's field differed.
 */
export function propertyName(node: { readonly name?: ts.Node }, sourceFile: ts.SourceFile): string {
  const name = node.name;
  if (name && (isIdentifier(name) || isStringLiteral(name) || name.kind === SyntaxKind.NumericLiteral || name.kind === SyntaxKind.NoSubstitutionTemplateLiteral)) {
    return (name as ts.Identifier | ts.LiteralExpression).text;
  }
  return memberName(node, sourceFile).replace(/^['"]|['"]$/g, '');
}

/**
 * Is a top-level declaration exported from its file: an `export` modifier, or a local
 * `export { Name }`, `export { Name as Other }`, `export default Name` or `export = Name`
 * naming it (what the file's module symbol would list).
 */
export function isExported(node: ts.Statement, sourceFile: ts.SourceFile): boolean {
  // TypeScript's getModifiers(node) is node.modifiers without decorators: the same question here.
  const modifiers = (node as { modifiers?: readonly ts.ModifierLike[] }).modifiers;
  if (modifiers?.some((m) => m.kind === SyntaxKind.ExportKeyword)) return true;
  const name = (node as { name?: ts.Node }).name;
  if (!name || !isIdentifier(name)) return false;
  const text = name.text;
  for (const stmt of sourceFile.statements) {
    if (isExportDeclaration(stmt) && !stmt.moduleSpecifier && stmt.exportClause && isNamedExports(stmt.exportClause)) {
      if (stmt.exportClause.elements.some((e) => (e.propertyName ?? e.name).text === text)) return true;
    } else if (isExportAssignment(stmt) && isIdentifier(stmt.expression) && stmt.expression.text === text) {
      return true;
    }
  }
  return false;
}

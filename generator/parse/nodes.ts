/**
 * Type guards for the syntax nodes the parse stage reads, by kind alone (as TypeScript's own
 * ts.isX guards are).
 */
import type ts from 'typescript';
import { SyntaxKind } from './typescript.js';

const guard = <T extends ts.Node>(kind: ts.SyntaxKind) => (node: ts.Node | undefined): node is T => node?.kind === kind;

export const isInterfaceDeclaration = guard<ts.InterfaceDeclaration>(SyntaxKind.InterfaceDeclaration);
export const isTypeAliasDeclaration = guard<ts.TypeAliasDeclaration>(SyntaxKind.TypeAliasDeclaration);
export const isImportDeclaration = guard<ts.ImportDeclaration>(SyntaxKind.ImportDeclaration);
export const isNamedImports = guard<ts.NamedImports>(SyntaxKind.NamedImports);
export const isStringLiteral = guard<ts.StringLiteral>(SyntaxKind.StringLiteral);
export const isIdentifier = guard<ts.Identifier>(SyntaxKind.Identifier);
export const isPropertySignature = guard<ts.PropertySignature>(SyntaxKind.PropertySignature);
export const isIndexSignatureDeclaration = guard<ts.IndexSignatureDeclaration>(SyntaxKind.IndexSignature);
export const isLiteralTypeNode = guard<ts.LiteralTypeNode>(SyntaxKind.LiteralType);
export const isEnumDeclaration = guard<ts.EnumDeclaration>(SyntaxKind.EnumDeclaration);
export const isClassDeclaration = guard<ts.ClassDeclaration>(SyntaxKind.ClassDeclaration);
export const isFunctionDeclaration = guard<ts.FunctionDeclaration>(SyntaxKind.FunctionDeclaration);
export const isVariableStatement = guard<ts.VariableStatement>(SyntaxKind.VariableStatement);
export const isExportDeclaration = guard<ts.ExportDeclaration>(SyntaxKind.ExportDeclaration);
export const isNamedExports = guard<ts.NamedExports>(SyntaxKind.NamedExports);
export const isExportAssignment = guard<ts.ExportAssignment>(SyntaxKind.ExportAssignment);

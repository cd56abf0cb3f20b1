/**
 * TypeScript enums and literal types as schemas: a string enum (`enum Colour { Red = 'red' }`) is a
 * string enum schema, a numeric one an integer (or number) enum; `const enum` is the same. Numeric
 * and boolean literal types (`1 | 2 | 3`, `true`) are enums of their values, read from syntax alone.
 */
import type ts from 'typescript';
import type { DiagnosticBag } from '../diagnostics.js';
import type { Schema, SourceLocation } from '../model.js';
import { isInexactInt64 } from '../../runtime/api/json-integers.js';
import { nodeLocation } from './jsdoc.js';
import { SyntaxKind } from './typescript.js';

type Value = string | number;

/** An enum member's value as TypeScript computes it for literal initialisers; undefined: not a literal. */
function memberValues(decl: ts.EnumDeclaration, sf: ts.SourceFile): { name: string; value?: Value; node: ts.EnumMember }[] {
  const out: { name: string; value?: Value; node: ts.EnumMember }[] = [];
  let next: number | undefined = 0;
  for (const member of decl.members) {
    const name = member.name.getText(sf).replace(/^['"]|['"]$/g, '');
    const init = member.initializer;
    let value: Value | undefined;
    if (!init) value = next;
    else value = literalValue(init, sf);
    next = typeof value === 'number' ? value + 1 : undefined;
    out.push({ name, value, node: member });
  }
  return out;
}

function literalValue(node: ts.Node, sf: ts.SourceFile): Value | undefined {
  switch (node.kind) {
    case SyntaxKind.StringLiteral:
    case SyntaxKind.NoSubstitutionTemplateLiteral:
      return (node as ts.StringLiteral).text;
    case SyntaxKind.NumericLiteral:
      return Number(node.getText(sf).replace(/_/g, ''));
    case SyntaxKind.PrefixUnaryExpression: {
      const unary = node as ts.PrefixUnaryExpression;
      const operand = literalValue(unary.operand, sf);
      if (typeof operand !== 'number') return undefined;
      if (unary.operator === SyntaxKind.MinusToken) return -operand;
      if (unary.operator === SyntaxKind.PlusToken) return operand;
      return undefined;
    }
    case SyntaxKind.ParenthesizedExpression:
      return literalValue((node as ts.ParenthesizedExpression).expression, sf);
    default:
      return undefined;
  }
}

/** The schema of an enum declaration; with `diags`, its problems are reported (KG032). */
export function enumSchema(decl: ts.EnumDeclaration, sf: ts.SourceFile, diags?: DiagnosticBag): Schema | undefined {
  const loc = nodeLocation(decl, sf);
  const name = decl.name.getText(sf);
  const members = memberValues(decl, sf);
  const bad = (problem: string, at: SourceLocation = loc) => {
    diags?.add('KG032', at, { type: name, problem });
    return undefined;
  };
  if (members.length === 0) return bad('it has no members');
  const computed = members.find((m) => m.value === undefined);
  if (computed) return bad(`member ${computed.name} has a computed value`, nodeLocation(computed.node, sf));
  const inexact = members.filter((m) => m.node.initializer !== undefined && reportInexactInteger(m.node.initializer, sf, diags));
  if (inexact.length > 0) return undefined;
  const values = members.map((m) => m.value!);
  if (values.every((v) => typeof v === 'string')) return { type: 'string', enum: [...new Set(values as string[])], loc };
  if (values.every((v) => typeof v === 'number')) return numberEnum(values as number[], loc);
  return bad('it mixes string and numeric members');
}

/** `Colour.Red` as a type: a one-value enum. */
export function enumMemberSchema(decl: ts.EnumDeclaration, sf: ts.SourceFile, member: string, loc: SourceLocation, diags: DiagnosticBag): Schema | undefined {
  const found = memberValues(decl, sf).find((m) => m.name === member);
  if (!found) {
    diags.add('KG032', loc, { type: decl.name.getText(sf), problem: `it has no member ${member}` });
    return undefined;
  }
  if (found.value === undefined) {
    diags.add('KG032', loc, { type: decl.name.getText(sf), problem: `member ${member} has a computed value` });
    return undefined;
  }
  if (found.node.initializer !== undefined && reportInexactInteger(found.node.initializer, sf, diags)) return undefined;
  return typeof found.value === 'string' ? { type: 'string', enum: [found.value], loc } : numberEnum([found.value], loc);
}

/**
 * A numeric literal (`9007199254740993`, `0x20_0000_0000_0001`, `-…`) of an integer a float64
 * turns into another one (beyond 2^53, within int64), reported as KG019; false for any other node.
 * TypeScript itself reads the literal as that other number, so the schema would hold it.
 */
export function reportInexactInteger(node: ts.Node, sf: ts.SourceFile, diags: DiagnosticBag | undefined): boolean {
  let literal = node;
  let negative = false;
  while (literal.kind === SyntaxKind.ParenthesizedExpression || literal.kind === SyntaxKind.PrefixUnaryExpression) {
    if (literal.kind === SyntaxKind.ParenthesizedExpression) {
      literal = (literal as ts.ParenthesizedExpression).expression;
      continue;
    }
    const unary = literal as ts.PrefixUnaryExpression;
    if (unary.operator === SyntaxKind.MinusToken) negative = !negative;
    else if (unary.operator !== SyntaxKind.PlusToken) return false;
    literal = unary.operand;
  }
  if (literal.kind !== SyntaxKind.NumericLiteral) return false;
  const text = literal.getText(sf).replace(/_/g, '');
  if (!/^(?:0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|[0-9]+)$/.test(text)) return false;
  const n = negative ? -BigInt(text) : BigInt(text);
  if (!isInexactInt64(n)) return false;
  diags?.add('KG019', nodeLocation(node, sf), { literal: node.getText(sf), where: '', rounded: String(Number(n)) });
  return true;
}

function numberEnum(values: number[], loc: SourceLocation): Schema {
  const unique = [...new Set(values)];
  return unique.every(Number.isInteger) ? { type: 'integer', enum: unique, loc } : { type: 'number', enum: unique, loc };
}

/** A numeric or boolean literal type (`3`, `-1`, `0.5`, `true`) as a one-value enum; undefined for others. */
export function literalSchema(literal: ts.LiteralTypeNode['literal'], sf: ts.SourceFile, loc: SourceLocation): Schema | undefined {
  if (literal.kind === SyntaxKind.TrueKeyword) return { type: 'boolean', enum: [true], loc };
  if (literal.kind === SyntaxKind.FalseKeyword) return { type: 'boolean', enum: [false], loc };
  const value = literalValue(literal, sf);
  return typeof value === 'number' ? numberEnum([value], loc) : undefined;
}

/**
 * The union of literal schemas of one type (as `parts` of `1 | 2`, `'a' | Colour.B`, `true |
 * false`) as one enum; undefined when a part is not a bare literal or the types differ.
 * Integers and non-integers make a number enum; `true | false` is plain boolean.
 */
export function mergeLiterals(parts: Schema[], loc: SourceLocation): Schema | undefined {
  const bare = (s: Schema) => Object.keys(s).every((k) => k === 'type' || k === 'enum' || k === 'loc');
  if (!parts.every((p) => bare(p) && 'enum' in p && p.enum !== undefined)) return undefined;
  const values = parts.flatMap((p) => (p as { enum: unknown[] }).enum);
  if (parts.every((p) => p.type === 'string')) return { type: 'string', enum: [...new Set(values as string[])], loc };
  if (parts.every((p) => p.type === 'integer' || p.type === 'number')) return numberEnum(values as number[], loc);
  if (parts.every((p) => p.type === 'boolean')) {
    const unique = [...new Set(values as boolean[])];
    return unique.length === 2 ? { type: 'boolean', loc } : { type: 'boolean', enum: unique, loc };
  }
  return undefined;
}

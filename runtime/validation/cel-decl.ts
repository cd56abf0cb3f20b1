/**
 * What a rule may select: the declared type of `self` (kube's model.SchemaDeclType), and the static
 * check that every `x.field` a rule names exists, as cel-go's checker reports `undefined field`.
 * Property names are escaped as kube escapes them (k8s.io/apiserver/pkg/cel/escaping.go), so
 * `foo-bar` is `self.foo__dash__bar` in a rule.
 */
import type { ASTNode } from '@marcbachmann/cel-js';
import { isTwoVarComprehension } from './cel-comprehensions.js';
import { OPTIONAL_MACROS } from './cel-optional.js';

/** Object fields are thunks so recursive and shared schemas cost nothing until a rule walks them. */
export type DeclType =
  | { kind: 'object'; fields: Map<string, () => DeclType> }
  | { kind: 'map'; values: () => DeclType }
  | { kind: 'list'; items: () => DeclType }
  | { kind: 'scalar'; name: 'int' | 'double' | 'string' | 'bool' | 'timestamp' }
  | { kind: 'dyn' };

export const DYN: DeclType = { kind: 'dyn' };

const RESERVED = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if',
  'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);
const ESCAPABLE = /^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/;

/** cel.Escape: the CEL identifier for a property name, or undefined when it cannot be escaped. */
export function escapeName(name: string): string | undefined {
  if (RESERVED.has(name)) return `__${name}__`;
  if (!ESCAPABLE.test(name)) return undefined;
  if (/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(name) && !name.includes('__')) return name;
  return name
    .replace(/__/g, '__underscores__')
    .replace(/\./g, '__dot__')
    .replace(/-/g, '__dash__')
    .replace(/\//g, '__slash__');
}

/** CEL's literal words: a property named so is reached only escaped (`self.__true__`). */
const LITERAL_WORDS = new Set(['true', 'false', 'null', 'in']);

/**
 * Every name a rule may select a property by: its escaped form, and, for reserved words other
 * than CEL's literals, the plain name too (kube's CEL environment from 1.30 on accepts `self.if`).
 */
export function celFieldNames(name: string): string[] {
  const escaped = escapeName(name);
  if (escaped === undefined) return [];
  return RESERVED.has(name) && !LITERAL_WORDS.has(name) ? [escaped, name] : [escaped];
}

/** The object fields kube exposes at a resource root: apiVersion, kind and metadata.name/generateName. */
export function withTypeMeta(decl: DeclType): DeclType {
  if (decl.kind !== 'object') return decl;
  const str = (): DeclType => ({ kind: 'scalar', name: 'string' });
  const metadata: DeclType = { kind: 'object', fields: new Map([['name', str], ['generateName', str]]) };
  const fields = new Map(decl.fields);
  fields.set('apiVersion', str);
  fields.set('kind', str);
  fields.set('metadata', () => metadata);
  return { kind: 'object', fields };
}

export interface DeclError {
  message: string;
  /** Offset in the rule text. */
  pos: number;
}

const MACROS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

/**
 * Walks a parsed rule and reports the first selection of a field `self`'s type does not have, or
 * of a field on a scalar or list. Variables bound by macros take the element type of their range.
 */
export function checkFieldAccess(ast: ASTNode, self: DeclType): { error: DeclError } | { type: DeclType } {
  const scope = new Map<string, DeclType>([['self', self], ['oldSelf', self]]);
  try {
    return { type: typeOf(ast, scope) };
  } catch (err) {
    if (err instanceof DeclCheckError) return { error: { message: err.message, pos: err.pos } };
    throw err;
  }
}

/** The CEL name of a declared type, for "must evaluate to" checks. */
export function declTypeName(decl: DeclType): string {
  return decl.kind === 'scalar' ? decl.name : decl.kind;
}

class DeclCheckError extends Error {
  constructor(message: string, readonly pos: number) {
    super(message);
  }
}

function select(target: DeclType, field: string, pos: number): DeclType {
  switch (target.kind) {
    case 'object': {
      const f = target.fields.get(field);
      if (!f) throw new DeclCheckError(`undefined field '${field}'`, pos);
      return f();
    }
    case 'map':
      return target.values();
    case 'dyn':
      return DYN;
    case 'list':
      throw new DeclCheckError(`type 'list' does not support field selection`, pos);
    case 'scalar':
      throw new DeclCheckError(`type '${target.name}' does not support field selection`, pos);
  }
}

function elementOf(range: DeclType): DeclType {
  if (range.kind === 'list') return range.items();
  if (range.kind === 'map' || range.kind === 'object') return { kind: 'scalar', name: 'string' };
  return DYN;
}

/** The declared type of an expression where it is known from `self`; DYN elsewhere. */
function typeOf(node: ASTNode, scope: Map<string, DeclType>): DeclType {
  switch (node.op) {
    case 'id':
      return scope.get(node.args) ?? DYN;
    case '.':
    case '.?':
      // cel-go places a selection at its '.'; cel-js at the field name after it.
      return select(typeOf(node.args[0], scope), node.args[1], Math.max(0, node.pos - 1));
    case 'call':
      for (const arg of node.args[1]) typeOf(arg, scope);
      return DYN;
    case 'rcall': {
      const [name, receiver, args] = node.args;
      const range = typeOf(receiver, scope);
      if (isTwoVarComprehension(name, args.length) && args[0]!.op === 'id' && args[1]!.op === 'id') {
        // (index, item) of a list, (key, value) of a map (cel-comprehensions.ts).
        const inner = new Map(scope);
        inner.set(args[0]!.args as string, range.kind === 'list' ? { kind: 'scalar', name: 'int' } : elementOf(range));
        inner.set(args[1]!.args as string, range.kind === 'list' ? range.items() : range.kind === 'map' ? range.values() : DYN);
        for (const arg of args.slice(2)) typeOf(arg, inner);
        if (name === 'transformList') return { kind: 'list', items: () => DYN };
        if (name === 'transformMap' || name === 'transformMapEntry') return { kind: 'map', values: () => DYN };
        return DYN;
      }
      if (MACROS.has(name) && args.length >= 2 && args[0]!.op === 'id') {
        const inner = new Map(scope);
        inner.set(args[0]!.args as string, elementOf(range));
        for (const arg of args.slice(1)) typeOf(arg, inner);
        return name === 'map' || name === 'filter' ? { kind: 'list', items: () => DYN } : DYN;
      }
      if (OPTIONAL_MACROS.has(name) && args.length === 2 && args[0]!.op === 'id') {
        // opt.optMap(v, e): v is the optional's value (`.?` selections are typed as their field).
        typeOf(args[1]!, new Map(scope).set(args[0]!.args as string, range));
        return DYN;
      }
      for (const arg of args) typeOf(arg, scope);
      // list.first()/last() (cel-optional.ts): an optional of an item.
      if ((name === 'first' || name === 'last') && args.length === 0 && range.kind === 'list') return range.items();
      return DYN;
    }
    case '[]':
    case '[?]': {
      const target = typeOf(node.args[0], scope);
      typeOf(node.args[1], scope);
      if (target.kind === 'list') return target.items();
      if (target.kind === 'map') return target.values();
      return DYN;
    }
    case 'value':
      return DYN;
    case 'list':
      for (const item of node.args) typeOf(item, scope);
      return DYN;
    case 'map':
      for (const [k, v] of node.args) {
        typeOf(k, scope);
        typeOf(v, scope);
      }
      return DYN;
    case '!_':
    case '-_':
      typeOf(node.args, scope);
      return DYN;
    default:
      for (const arg of node.args as ASTNode[]) typeOf(arg, scope);
      return DYN;
  }
}

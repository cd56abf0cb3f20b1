/**
 * Compiles one x-kubernetes-validations rule as kube's cel.Compile does: parse, check (unknown
 * functions, non-bool results, fields `self` does not have), note whether it is a transition rule
 * (uses oldSelf), and compile its messageExpression and fieldPath. Compilation happens once per
 * schema; evaluation reuses the result for every request.
 */
import type { ASTNode, ParseResult } from '@marcbachmann/cel-js';
import { checkFieldAccess, declTypeName, escapeName, type DeclType } from './cel-decl.js';
import { celEnvironmentForSelf, checkInEnvironment, checkRule, evaluationProgram, literalErrors, parseRule, type CelObjectType } from './cel-env.js';
import type { RawValidationRule } from './cel-rules.js';
import { mayUseOfNonZeroValue } from './cel-optional.js';

export interface CompiledRule {
  rule: RawValidationRule;
  /** Undefined when compilation failed (see error). */
  program?: ParseResult | undefined;
  /** The program evaluated: program, or its twin whose matches() calls are Go's (cel-env.ts evaluationProgram). */
  evaluated?: ParseResult | undefined;
  messageProgram?: ParseResult | undefined;
  /** The messageExpression's checked AST, which its runtime cost is priced from (cel-cost.ts callCost). */
  messageAst?: ASTNode | undefined;
  /** A transition rule: evaluated only when an old value exists (unless optionalOldSelf). */
  usesOldSelf: boolean;
  /** The rule or its message may call optional.ofNonZeroValue: its data is marked first (cel-optional.ts markDataValues). */
  marksData?: boolean | undefined;
  /** rule.fieldPath as a field.Path string relative to the rule's node ('spec.x', 'labels[a]'). */
  fieldPath?: string | undefined;
  /** `ERROR: <input>:1:6: undefined field 'foo'` (cel-go's wording and position style). */
  error?: string | undefined;
  /** Offset of the error in the rule text. */
  errorPos?: number | undefined;
  /** Which expression failed: the rule, its messageExpression or its fieldPath. */
  errorIn?: 'rule' | 'messageExpression' | 'fieldPath' | undefined;
}

interface ExprResult {
  program?: ParseResult;
  error?: string;
  pos?: number;
}

function location(text: string, pos: number): string {
  const before = text.slice(0, Math.max(0, pos));
  const line = before.split('\n').length;
  const col = pos - (before.lastIndexOf('\n') + 1) + 1;
  return `<input>:${line}:${col}`;
}

function errorText(text: string, message: string, pos: number): string {
  return `ERROR: ${location(text, pos)}: ${message}`;
}

function firstLine(message: string): string {
  const line = message.split('\n')[0]!.trim();
  return line.charAt(0).toLowerCase() + line.slice(1);
}

/** Parses and checks one expression; `want` is the result type it must have. */
function compileExpression(text: string, want: 'bool' | 'string', self: DeclType | undefined, typeCheck = false, optionalOldSelf = false): ExprResult {
  let program: ParseResult;
  try {
    program = parseRule(text);
  } catch (err) {
    const e = err as { message?: string; node?: { pos?: number } };
    const pos = e.node?.pos ?? 0;
    return { error: errorText(text, `Syntax error: ${firstLine(e.message ?? String(err))}`, pos), pos };
  }
  const checked = checkRule(program);
  if (!checked.valid) {
    const e = checked.error as { message?: string; node?: { pos?: number } } | undefined;
    const pos = e?.node?.pos ?? 0;
    return { error: errorText(text, firstLine(e?.message ?? 'type check failed'), pos), pos };
  }
  if (checked.type !== want && checked.type !== 'dyn') {
    return { error: `cel expression must evaluate to a ${want}`, pos: 0 };
  }
  if (self) {
    const access = checkFieldAccess(program.ast, self);
    if ('error' in access) return { error: errorText(text, access.error.message, access.error.pos), pos: access.error.pos };
    // Against self's declared type (objects as registered types, timestamps as dyn), as cel-go
    // checks: `self == true` on a string, or `self.name == 1`, has no matching overload.
    const { typed, objects, exact } = typeCheck ? celTypeOfSelf(self) : { typed: 'dyn', objects: [], exact: false };
    if (typed !== 'dyn') {
      const check = checkInEnvironment(celEnvironmentForSelf(typed, objects, optionalOldSelf ? 'dyn' : typed), text, exact && !optionalOldSelf);
      if (!check.valid) {
        const e = check.error as { message?: string; node?: { pos?: number } } | undefined;
        const pos = e?.node?.pos ?? 0;
        return { error: errorText(text, firstLine(e?.message ?? 'type check failed'), pos), pos };
      }
      if (check.literalError) return { error: errorText(text, check.literalError.message, check.literalError.pos), pos: check.literalError.pos };
    } else if (typeCheck) {
      // self is dyn as a whole: the literals' own types still count (`[1, 'a']`).
      const literalError = literalErrors(program.ast, text, exact && !optionalOldSelf);
      if (literalError) return { error: errorText(text, literalError.message, literalError.pos), pos: literalError.pos };
    }
    if (access.type.kind !== 'dyn' && declTypeName(access.type) !== want) {
      return { error: `cel expression must evaluate to a ${want}`, pos: 0 };
    }
  }
  return { program };
}

function mentionsOldSelf(node: ASTNode): boolean {
  if (node.op === 'id') return node.args === 'oldSelf';
  if (node.op === 'value') return false;
  const visit = (x: unknown): boolean => {
    if (Array.isArray(x)) return x.some(visit);
    if (x && typeof x === 'object' && 'op' in x) return mentionsOldSelf(x as ASTNode);
    return false;
  };
  return visit(node.args);
}

/**
 * Compiles a rule. `self` is the declared type of the node the rule is written on; without it the
 * field check and the fieldPath check are skipped (the rule was checked when its schema was).
 * `typeCheck` also checks operators and calls against self's full declared type, as cel-go does
 * when a CRD is written (a few ms per distinct type, so not when a validator is built).
 */
export function compileRule(rule: RawValidationRule, self?: DeclType, opts: { typeCheck?: boolean } = {}): CompiledRule {
  const out: CompiledRule = { rule, usesOldSelf: false };
  const compiled = compileExpression(rule.rule, 'bool', self, opts.typeCheck, rule.optionalOldSelf === true);
  if (!compiled.program) return { ...out, error: compiled.error, errorPos: compiled.pos, errorIn: 'rule' };
  out.program = compiled.program;
  out.evaluated = evaluationProgram(rule.rule, compiled.program);
  out.usesOldSelf = mentionsOldSelf(compiled.program.ast);
  if (mayUseOfNonZeroValue(rule.rule) || mayUseOfNonZeroValue(rule.messageExpression)) out.marksData = true;
  if (rule.messageExpression !== undefined) {
    const message = compileExpression(rule.messageExpression, 'string', self, opts.typeCheck, rule.optionalOldSelf === true);
    if (!message.program) return { ...out, program: undefined, error: message.error, errorPos: message.pos, errorIn: 'messageExpression' };
    out.messageProgram = evaluationProgram(rule.messageExpression, message.program);
    out.messageAst = message.program.ast;
  }
  if (rule.fieldPath !== undefined) {
    const path = resolveFieldPath(rule.fieldPath, self);
    if ('error' in path) return { ...out, program: undefined, error: path.error, errorPos: 0, errorIn: 'fieldPath' };
    out.fieldPath = path.path;
  }
  return out;
}

/**
 * ValidFieldPath: `.a.b` and `['a.b']` accessors naming fields (or map keys) of `self`, as a
 * field.Path string. Numeric indexes are not supported, as in kube.
 */
export function resolveFieldPath(jsonPath: string, self: DeclType | undefined): { path: string } | { error: string } {
  const re = /\.([^.[\]]+)|\['((?:[^'\\]|\\.)*)'\]/y;
  let path = '';
  let decl = self;
  let i = 0;
  while (i < jsonPath.length) {
    re.lastIndex = i;
    const m = re.exec(jsonPath);
    if (!m) return { error: `expected [ or . but got: ${jsonPath.slice(i)}` };
    i = re.lastIndex;
    const name = m[1] ?? m[2]!.replace(/\\(.)/g, '$1');
    if (decl === undefined || decl.kind === 'dyn') {
      path = path ? `${path}.${name}` : name;
      continue;
    }
    if (decl.kind === 'map') {
      path = `${path}[${name}]`;
      decl = decl.values();
    } else if (decl.kind === 'object') {
      const field = decl.fields.get(escapeName(name) ?? '');
      if (!field) return { error: 'does not refer to a valid field' };
      path = path ? `${path}.${name}` : name;
      decl = field();
    } else {
      return { error: 'does not refer to a valid field' };
    }
  }
  return path ? { path } : { error: 'fieldPath must not be empty' };
}

/**
 * self's CEL type name and the object types it needs, once per declared type: the rules (and
 * messageExpressions) of one node share its `self`, and naming a large type takes a walk of it.
 */
const selfTypes = new WeakMap<DeclType, SelfType>();

/**
 * `exact`: every dyn in `typed` is dyn in kube too (no timestamp, no object cut off by depth), so
 * a literal mixing dyn with another type is refused as kube refuses it (cel-literals.ts).
 */
interface SelfType {
  typed: string;
  objects: readonly CelObjectType[];
  exact: boolean;
}

function celTypeOfSelf(self: DeclType): SelfType {
  let found = selfTypes.get(self);
  if (!found) {
    const objects: CelObjectType[] = [];
    const approximated = { dyn: false };
    const typed = celTypeName(self, objects, new Map(), 0, approximated);
    found = { typed, objects, exact: !approximated.dyn };
    selfTypes.set(self, found);
  }
  return found;
}

/** A type kgen names dyn where kube names it precisely. */
function cutOff(approximated: { dyn: boolean }): 'dyn' {
  approximated.dyn = true;
  return 'dyn';
}

/** Object types nested deeper than this are dyn to the checker (recursive schemas end there). */
const MAX_TYPED_DEPTH = 8;

/**
 * The CEL type name of a declared type; object types are added to `objects` (dependencies first,
 * identical shapes shared). Timestamps and anything CEL cannot name here are dyn.
 */
function celTypeName(decl: DeclType, objects: CelObjectType[], byShape: Map<string, string>, depth: number, approximated: { dyn: boolean }): string {
  switch (decl.kind) {
    case 'scalar':
      return decl.name === 'timestamp' ? cutOff(approximated) : decl.name;
    case 'list':
      return `list<${depth > MAX_TYPED_DEPTH ? cutOff(approximated) : celTypeName(decl.items(), objects, byShape, depth + 1, approximated)}>`;
    case 'map':
      return `map<string, ${depth > MAX_TYPED_DEPTH ? cutOff(approximated) : celTypeName(decl.values(), objects, byShape, depth + 1, approximated)}>`;
    case 'object': {
      if (depth > MAX_TYPED_DEPTH) return cutOff(approximated);
      const fields: Record<string, string> = {};
      for (const [name, type] of [...decl.fields.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) fields[name] = celTypeName(type(), objects, byShape, depth + 1, approximated);
      // Identical shapes share one type (`byShape`: the shapes of `objects`, by their JSON).
      const shape = JSON.stringify(fields);
      const known = byShape.get(shape);
      if (known) return known;
      const name = `kgen_object_${objects.length}`;
      objects.push({ name, fields });
      byShape.set(shape, name);
      return name;
    }
    default:
      return 'dyn';
  }
}

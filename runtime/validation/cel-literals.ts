/**
 * cel-go's AST validators that kube's CEL environment runs after a rule is type-checked (kube
 * 1.29 on, k8s.io/apiserver/pkg/cel/environment/base.go): they refuse, when a CRD is written, rules
 * whose literals kube would never accept. Run on the checked AST (cel-js notes each node's type as
 * `checkedType`); evaluation does not use them, so CRDs stored before keep evaluating as before.
 */
import type { ASTNode } from '@marcbachmann/cel-js';
import { CLAUSE_ERRORS, FormatError, parseFormatString, type FormatClauses } from './cel-strings-format.js';

/** The first problem found: cel-go's message and the offset of the offending expression. */
export interface LiteralError {
  message: string;
  pos: number;
}

/** The parts of cel-js's TypeDeclaration read here. */
interface CheckedType {
  kind: string;
  name: string;
  keyType?: CheckedType;
  valueType?: CheckedType;
}

export type Node = ASTNode & { checkedType?: CheckedType; pos?: number };

const isNode = (x: unknown): x is Node => typeof x === 'object' && x !== null && 'op' in x && typeof (x as { op: unknown }).op === 'string';

const isFormatCall = (node: Node): boolean => (node.op === 'rcall' || node.op === 'call') && Array.isArray(node.args) && node.args[0] === 'format';

/**
 * Every AST node below `root` (nodes, arrays of them, a comprehension's parts), parents first, with
 * whether it sits inside a call of `format` (cel-go exempts string format calls' literals from the
 * homogeneity check). No closures: this runs for every rule of every CRD written.
 */
export function nodesOf(root: ASTNode): Array<[Node, boolean]> {
  const out: Array<[Node, boolean]> = [];
  const stack: Array<[unknown, boolean]> = [[root as Node, false]];
  while (stack.length > 0) {
    const [x, inFormat] = stack.pop()!;
    if (Array.isArray(x)) {
      for (let i = x.length - 1; i >= 0; i--) stack.push([x[i], inFormat]);
    } else if (isNode(x)) {
      out.push([x, inFormat]);
      const nested = inFormat || isFormatCall(x);
      const args: unknown = x.args;
      if (Array.isArray(args) || isNode(args)) stack.push([args, nested]);
      else if (args && typeof args === 'object') {
        // A comprehension's parts (iterable, init, step, …): only the nodes among them.
        for (const value of Object.values(args)) if (isNode(value)) stack.push([value, nested]);
      }
    }
  }
  return out;
}

/** cel-go's FormatCELType: `list(int)`, `map(string, int)`, `null_type`, `optional_type(int)`. */
function formatType(t: CheckedType): string {
  switch (t.kind) {
    case 'dyn':
      return 'dyn';
    case 'list':
      return `list(${t.valueType ? formatType(t.valueType) : 'dyn'})`;
    case 'map':
      return `map(${t.keyType ? formatType(t.keyType) : 'dyn'}, ${t.valueType ? formatType(t.valueType) : 'dyn'})`;
    case 'optional':
      return `optional_type(${t.valueType ? formatType(t.valueType) : 'dyn'})`;
    default:
      return t.name === 'null' ? 'null_type' : t.name;
  }
}

/**
 * Type.IsEquivalentType after cel-go's checker has bound type parameters: an empty literal's
 * parameter (`[]` in `[[1], []]`) takes the other element's type, so it matches anything.
 */
function equivalent(a: CheckedType, b: CheckedType): boolean {
  if (a === b || a.kind === 'param' || b.kind === 'param') return true;
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'dyn':
      return true;
    case 'list':
    case 'optional':
      return !a.valueType || !b.valueType || equivalent(a.valueType, b.valueType);
    case 'map':
      return (!a.keyType || !b.keyType || equivalent(a.keyType, b.keyType)) && (!a.valueType || !b.valueType || equivalent(a.valueType, b.valueType));
    default:
      return a.name === b.name;
  }
}

const mentionsDyn = (t: CheckedType): boolean => t.kind === 'dyn' || (t.keyType !== undefined && mentionsDyn(t.keyType)) || (t.valueType !== undefined && mentionsDyn(t.valueType));

/** Types kube gives string fields of format byte, duration, date and date-time, which kgen types as string. */
const STRING_FORMAT_TYPES = new Set(['bytes', 'google.protobuf.Duration', 'google.protobuf.Timestamp']);
const stringFormatPair = (a: CheckedType, b: CheckedType): boolean =>
  (a.name === 'string' && STRING_FORMAT_TYPES.has(b.name)) || (b.name === 'string' && STRING_FORMAT_TYPES.has(a.name));

/** False when a rule's text has no list or map literal to check (no `[` and no `{`): most rules. */
export function mayHaveLiterals(text: string): boolean {
  return text.includes('[') || text.includes('{');
}

/**
 * cel.ValidateHomogeneousAggregateLiterals (in kube's base environment since 1.0 as
 * cel.HomogeneousAggregateLiterals): the elements of a list literal, and the keys and the values
 * of a map literal, must have equivalent types: `[1, 'a']` and `{'a': 1, 'b': 'x'}` are refused
 * with "expected type 'int' but found 'string'" at the first element that differs.
 *
 * A mismatch involving `dyn` is reported only when `dynIsExact`: kgen types some fields as dyn
 * that kube types precisely (timestamps, deep objects), so `[self.createdAt, timestamp(...)]`,
 * which kube accepts, must not be refused; with an exact self type, `[1, self.intOrString]` is
 * refused as in kube (int-or-string is dyn there too). For the same reason `string` against bytes,
 * duration or timestamp is not reported (kgen types fields of those formats as string).
 */
export function homogeneousLiteralError(nodes: Array<[Node, boolean]>, dynIsExact: boolean): LiteralError | undefined {
  for (const [node, inFormat] of nodes) {
    if (inFormat || !Array.isArray(node.args)) continue;
    if (node.op === 'list') {
      let type: CheckedType | undefined;
      for (const el of node.args) {
        if (!isNode(el)) continue;
        const found = mismatch(type, el, dynIsExact);
        if (typeof found === 'string') return { message: found, pos: el.pos ?? 0 };
        type = found;
      }
    } else if (node.op === 'map') {
      let keyType: CheckedType | undefined;
      let valueType: CheckedType | undefined;
      for (const entry of node.args) {
        if (!Array.isArray(entry) || !isNode(entry[0]) || !isNode(entry[1])) continue;
        const key = mismatch(keyType, entry[0], dynIsExact);
        if (typeof key === 'string') return { message: key, pos: entry[0].pos ?? 0 };
        const value = mismatch(valueType, entry[1], dynIsExact);
        if (typeof value === 'string') return { message: value, pos: entry[1].pos ?? 0 };
        keyType = key;
        valueType = value;
      }
    }
  }
  return undefined;
}

/** The element type to compare the next element with, or the message when `el` does not match. */
function mismatch(expected: CheckedType | undefined, el: Node, dynIsExact: boolean): CheckedType | string | undefined {
  const actual = el.checkedType;
  if (!actual) return expected;
  if (!expected) return actual;
  if (equivalent(expected, actual)) return expected.kind === 'param' ? actual : expected;
  if (!dynIsExact && (mentionsDyn(expected) || mentionsDyn(actual))) return expected;
  if (stringFormatPair(expected, actual)) return expected;
  return `expected type '${formatType(expected)}' but found '${formatType(actual)}'`;
}

/** Functions whose literal argument cel-go checks after type-check, and which argument it checks. */
const FORMAT_CHECKED: ReadonlyMap<string, 'duration' | 'timestamp' | 'matches'> = new Map([
  ['duration', 'duration'],
  ['timestamp', 'timestamp'],
  ['matches', 'matches'],
]);

/** False when a rule's text calls none of duration(), timestamp() and matches(): most rules. */
export function mayHaveFormatLiterals(text: string): boolean {
  return text.includes('duration') || text.includes('timestamp') || text.includes('matches');
}

/**
 * cel.ValidateDurationLiterals, ValidateTimestampLiterals and ValidateRegexLiterals (kube 1.29):
 * a call of duration(), timestamp() or matches() whose first argument is a literal must succeed
 * with it (`duration('1x')`, `timestamp('bad')`, `'a'.matches('[')` are refused with "invalid
 * duration argument" and so on, at the literal). As in cel-go the first argument is the one in
 * the call's argument list: the pattern of `s.matches(p)`, but the string of `matches(s, p)`.
 * `converts` evaluates duration(x) or timestamp(x); the regex is checked as Go's regexp.Compile.
 */
export function formatLiteralError(nodes: Array<[Node, boolean]>, converts: (fn: 'duration' | 'timestamp', arg: unknown) => boolean, regexCompiles: (pattern: string) => boolean): LiteralError | undefined {
  let first: LiteralError | undefined;
  for (const [node] of nodes) {
    if ((node.op !== 'call' && node.op !== 'rcall') || !Array.isArray(node.args)) continue;
    const fn = FORMAT_CHECKED.get(node.args[0] as string);
    const args: unknown = node.op === 'call' ? node.args[1] : node.args[2];
    if (!fn || !Array.isArray(args) || !isNode(args[0]) || args[0].op !== 'value') continue;
    const literal = args[0];
    const ok = fn === 'matches' ? typeof literal.args !== 'string' || regexCompiles(literal.args) : converts(fn, literal.args);
    const pos = literal.pos ?? 0;
    if (!ok && (!first || pos < first.pos)) first = { message: `invalid ${fn} argument`, pos };
  }
  return first;
}

/** False when a rule's text calls no format(): most rules. */
export function mayHaveFormatCalls(text: string): boolean {
  return text.includes('format');
}

/** The cel-go kind an argument's checked type has for the format clauses (dyn matches every clause). */
const FORMAT_KINDS = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'null', 'type', 'google.protobuf.Timestamp', 'google.protobuf.Duration']);
function formatKind(node: Node | undefined): string {
  const t = node?.checkedType;
  if (!t || t.kind === 'dyn' || t.kind === 'param') return 'dyn';
  if (t.kind === 'list' || t.kind === 'map') return t.kind;
  return FORMAT_KINDS.has(t.name) ? t.name : 'other';
}

/** cel-go's Type.TypeName() of an argument's checked type. */
function formatTypeName(node: Node | undefined): string {
  const t = node?.checkedType;
  if (!t) return 'dyn';
  if (t.kind === 'list' || t.kind === 'map' || t.kind === 'dyn') return t.kind;
  if (t.kind === 'optional') return 'optional_type';
  return t.name === 'null' ? 'null_type' : t.name;
}

/** verifyString: the node (or, in a list or map literal, the first element) %s cannot print. */
function unprintable(node: Node): Node | undefined {
  if (formatKind(node) === 'other') return node;
  if (node.op === 'list' && Array.isArray(node.args)) {
    for (const el of node.args) if (isNode(el)) {
      const bad = unprintable(el);
      if (bad) return bad;
    }
  } else if (node.op === 'map' && Array.isArray(node.args)) {
    for (const entry of node.args) if (Array.isArray(entry)) for (const part of entry) if (isNode(part)) {
      const bad = unprintable(part);
      if (bad) return bad;
    }
  }
  return undefined;
}

function clauseCheck(kinds: readonly string[], error: (type: string, at?: unknown) => FormatError): (node: Node) => string {
  return (node) => {
    const kind = formatKind(node);
    if (kind !== 'dyn' && !kinds.includes(kind)) throw error(formatTypeName(node), node);
    return '';
  };
}

/** cel-go's stringFormatChecker: each clause against the checked type of its argument. */
const CHECKER_CLAUSES: FormatClauses<Node> = {
  string: (node) => {
    const bad = unprintable(node);
    if (bad) throw CLAUSE_ERRORS.stringClauseError(formatTypeName(bad), bad);
    return '';
  },
  decimal: clauseCheck(['int', 'uint'], CLAUSE_ERRORS.decimalClauseError),
  fixed: () => clauseCheck(['double', 'string'], CLAUSE_ERRORS.fixedClauseError),
  scientific: () => clauseCheck(['double', 'string'], CLAUSE_ERRORS.scientificClauseError),
  binary: clauseCheck(['int', 'uint', 'bool'], CLAUSE_ERRORS.binaryClauseError),
  hex: () => clauseCheck(['int', 'uint', 'string', 'bytes'], CLAUSE_ERRORS.hexClauseError),
  octal: clauseCheck(['int', 'uint'], CLAUSE_ERRORS.octalClauseError),
};

/** Offset of the character at or before `from` that is `want`, past whitespace (and '?' of `.?`). */
function backTo(text: string, from: number, want: string): number | undefined {
  for (let i = from; i >= 0; i--) {
    if (text[i] === want) return i;
    if (!/[\s?]/.test(text[i]!)) return undefined;
  }
  return undefined;
}

/** The largest offset cel-js noted in a subtree (inside its last token). */
function lastPos(node: Node): number {
  let max = node.pos ?? 0;
  for (const [n] of nodesOf(node)) max = Math.max(max, n.pos ?? 0);
  return max;
}

/** Where cel-go places an expression: a select at its '.', a call (global or member) at its '('. */
function celGoOffset(node: Node, text: string): number {
  const pos = node.pos ?? 0;
  if (node.op === '.' || node.op === '.?') return backTo(text, pos - 1, '.') ?? pos;
  if (node.op === 'call') {
    const open = text.slice(pos).search(/\(/);
    return open < 0 ? pos : pos + open;
  }
  if (node.op === 'rcall' && Array.isArray(node.args) && typeof node.args[0] === 'string' && isNode(node.args[1])) {
    // The first `.name(` after the receiver's last token.
    const from = lastPos(node.args[1]);
    const m = new RegExp(`\\.\\s*${node.args[0]}\\s*\\(`, 'g');
    m.lastIndex = from;
    const found = m.exec(text);
    if (found) return found.index + found[0].length - 1;
  }
  return pos;
}

/**
 * ext.Strings' stringFormatValidator (cel-go v0.23, kube 1.29 on): a format() call on a string
 * literal with a list literal argument is checked when the rule is compiled, with the runtime's
 * parser: a bad clause, too few or too many arguments, and a clause whose argument's type can
 * never suit it (`'%d'.format(['a'])`) are refused with cel-go's message, at the argument or at
 * the call's '('. Arguments of type dyn pass, as in cel-go.
 */
export function stringFormatCallError(nodes: Array<[Node, boolean]>, text: string): LiteralError | undefined {
  let first: LiteralError | undefined;
  for (const [node] of nodes) {
    if (node.op !== 'rcall' || !Array.isArray(node.args) || node.args[0] !== 'format') continue;
    const target: unknown = node.args[1];
    const args: unknown = node.args[2];
    if (!isNode(target) || target.op !== 'value' || typeof target.args !== 'string') continue;
    if (!Array.isArray(args) || args.length !== 1 || !isNode(args[0]) || args[0].op !== 'list' || !Array.isArray(args[0].args)) continue;
    const list = args[0];
    const elements = (list.args as unknown[]).filter(isNode);
    let requested = 0;
    let error: LiteralError | undefined;
    const callPos = () => backTo(text, (list.pos ?? 1) - 1, '(') ?? node.pos ?? 0;
    try {
      parseFormatString(target.args, CHECKER_CLAUSES, {
        arg: (index) => {
          requested++;
          return elements[index]!;
        },
        size: () => elements.length,
      });
      if (elements.length > requested) error = { message: `too many arguments supplied to string.format (expected ${requested}, got ${elements.length})`, pos: callPos() };
    } catch (err) {
      if (!(err instanceof FormatError)) throw err;
      error = { message: err.message, pos: isNode(err.at) ? celGoOffset(err.at, text) : callPos() };
    }
    if (error && (!first || error.pos < first.pos)) first = error;
  }
  return first;
}

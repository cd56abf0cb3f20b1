/**
 * The parts of cel-go's optional library (cel.OptionalTypes(), in kube's CEL environment from
 * 1.28: apiserver pkg/cel/environment/base.go) that cel-js 8.0.0 lacks. kube 1.33 builds cel-go
 * v0.23.2, whose OptionalTypes() defaults to its latest version, 2:
 * - version 0: `optional.ofNonZeroValue(x)` and the macro `opt.optMap(v, expr)` (cel-js already has
 *   `x.?f`, `m[?k]`, `optional.of/none`, `hasValue()`, `value()`, `or()`, `orValue()`);
 * - version 1: the macro `opt.optFlatMap(v, expr)`;
 * - version 2: `list.first()`, `list.last()`, `optional.unwrap(list)` and `list.unwrapOpt()`.
 * Optional entries in literals (`[?x]`, `{?'k': x}`) are parser syntax cel-js 8.0.0 does not parse.
 *
 * The macros are cel-js macros (a function whose parameters are `ast`, expanded by the parser by
 * name and argument count), as cel-comprehensions.ts does. cel-go expands them to
 * `target.hasValue() ? optional.of(<expr with v bound to target.value()>) : optional.none()`
 * (optFlatMap without the optional.of); the variable's type is the optional's value type.
 */
import type * as CelJs from '@marcbachmann/cel-js';
import type { Checker, CelType, Ctx, Environment, Evaluator, Node } from './cel-macro-hooks.js';

type OptionalClass = typeof CelJs.Optional;
type Optional = InstanceType<OptionalClass>;

interface OptMacro {
  name: 'optMap' | 'optFlatMap';
  receiver: Node;
  variable: Node;
  body: Node;
  /** The variable's type, set by typeCheck (cel-js checks a program before it evaluates it). */
  varType?: CelType;
  async: false;
  typeCheck(checker: Checker, macro: OptMacro, ctx: Ctx): CelType;
  evaluate(ev: Evaluator, macro: OptMacro, ctx: Ctx): unknown;
}

/** A type as cel-go prints it in an overload error (`list(int)`, `optional_type(int)`). */
const goTypeName = (checker: Checker, t: CelType): string =>
  checker
    .formatType(t)
    .replace(/optional</g, 'optional_type<')
    .replace(/</g, '(')
    .replace(/>/g, ')');

/**
 * The lists and maps of an object's data (self, oldSelf). kube hands a rule its object as
 * apiserver's unstructuredList and unstructuredMap (pkg/cel/common/values.go), which are no
 * traits.Zeroer: `optional.ofNonZeroValue(self.items)` is optional.of([]) in kube, while a list
 * or map a rule builds (a literal, map(), filter()) is cel-go's own and empty is zero.
 */
const DATA_CONTAINERS = new WeakSet<object>();

/** Marks the lists and maps of a rule's data as kube's (see DATA_CONTAINERS); only rules using ofNonZeroValue pay for it. */
export function markDataValues(v: unknown, depth = 0): void {
  if (v === null || typeof v !== 'object' || v instanceof Date || depth > 1000 || DATA_CONTAINERS.has(v)) return;
  DATA_CONTAINERS.add(v);
  for (const x of Array.isArray(v) ? v : v instanceof Map ? v.values() : Object.values(v)) markDataValues(x, depth + 1);
}

/** Whether a rule text may call ofNonZeroValue (then its data is marked before it runs). */
export const mayUseOfNonZeroValue = (text: string | undefined): boolean => text !== undefined && text.includes('ofNonZeroValue');

/** cel-go's zero values (traits.Zeroer): 0, 0u, 0.0, '', b'', false, null, [], {}, duration 0, timestamp 0001-01-01T00:00:00Z. */
export function isCelZeroValue(v: unknown): boolean {
  if (v === null || v === false || v === '' || v === 0n || v === 0) return true;
  if (typeof v !== 'object') return false;
  if (DATA_CONTAINERS.has(v)) return false;
  if (Array.isArray(v)) return v.length === 0;
  if (v instanceof Uint8Array) return v.length === 0;
  if (v instanceof Map) return v.size === 0;
  if (v instanceof Date) return v.getTime() === GO_ZERO_TIME;
  const name = (v as object).constructor?.name;
  if (name === 'UnsignedInt') return (v as { value: bigint }).value === 0n;
  if (name === 'Duration') return (v as { seconds: bigint; nanos: number }).seconds === 0n && (v as { nanos: number }).nanos === 0;
  // A map (a CEL map literal or a JSON object): a plain object with no keys.
  const proto = Object.getPrototypeOf(v);
  if (proto === Object.prototype || proto === null) return Object.keys(v).length === 0;
  return false;
}

/** Go's zero time.Time, January 1 of year 1, 00:00:00 UTC, in milliseconds since the epoch. */
const GO_ZERO_TIME = -62135596800000;

function typeCheck(checker: Checker, macro: OptMacro, ctx: Ctx): CelType {
  // cel-go's optMap/optFlatMap: a parse error at the variable.
  if (macro.variable.op !== 'id') throw checker.createError('invalid_macro_argument', `${macro.name}() variable name must be a simple identifier`, macro.variable);
  const target = checker.check(macro.receiver, ctx);
  let value: CelType;
  // An optional of a type parameter left unbound (`dyn(l).first()`) holds a dyn.
  if (target.kind === 'optional') value = target.valueType && target.valueType.kind !== 'param' ? target.valueType : checker.dynType;
  else if (target.kind === 'dyn') value = checker.dynType;
  // The expansion's first call is target.hasValue(), which takes an optional.
  else throw checker.createError('no_matching_overload', `found no matching overload for 'hasValue' applied to '${goTypeName(checker, target)}.()'`, macro.receiver);
  macro.varType = value;
  const body = checker.check(macro.body, ctx.forkWithVariable(macro.variable.args as string, value));
  if (macro.name === 'optMap') return checker.registry.getOptionalType(body);
  if (body.kind === 'optional') return body;
  if (body.kind === 'dyn') return checker.registry.getOptionalType(checker.dynType);
  // cel-go: `_?_:_(bool, expr, optional.none())`, whose branches must agree.
  throw checker.createError('no_matching_overload', `found no matching overload for '_?_:_' applied to '(bool, ${goTypeName(checker, body)}, optional_type(dyn))'`, macro.body);
}

function makeEvaluate(Optional: OptionalClass) {
  return function evaluate(ev: Evaluator, macro: OptMacro, ctx: Ctx): unknown {
    const target = ev.run(macro.receiver, ctx);
    // A dyn receiver that is no optional: cel-go has no hasValue overload for it at run time.
    if (!(target instanceof Optional)) throw ev.createError('no_such_overload', 'no such overload', macro.receiver);
    if (!target.hasValue()) return Optional.none();
    const inner = ctx.forkWithVariable(macro.variable.args as string, macro.varType!);
    inner.setIterValue(target.value(), ev);
    const result = ev.run(macro.body, inner);
    return macro.name === 'optMap' ? Optional.of(result) : result;
  };
}

/** cel-go's optUnwrap: the values of the optionals that have one; an element that is no optional is an error. */
function unwrap(Optional: OptionalClass, list: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const v of list) {
    if (!(v instanceof Optional)) throw new Error(`value ${String(v)} is not optional`);
    if ((v as Optional).hasValue()) out.push((v as Optional).value());
  }
  return out;
}

/** What cel-js hands an operator handler as its evaluator (the parts used here). */
interface OperatorEvaluator {
  debugType(v: unknown): unknown;
  registry: { findBinaryOverload(op: string, l: unknown, r: unknown): { handler(a: unknown, b: unknown, ast: unknown, ev: OperatorEvaluator): unknown } | undefined };
}

/** CEL equality of two values, as cel-js compares list elements (its isEqual): by the `==` overload of their runtime type. */
function valuesEqual(a: unknown, b: unknown, ast: unknown, ev: OperatorEvaluator): boolean {
  if (a === b) return true;
  if ((typeof a === 'bigint' && typeof b === 'number') || (typeof a === 'number' && typeof b === 'bigint')) return Number(a) === Number(b);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const left = ev.debugType(a);
  const right = ev.debugType(b);
  if (left !== right) return false;
  return ev.registry.findBinaryOverload('==', left, right)?.handler(a, b, ast, ev) === true;
}

/** cel-go's Optional.Equal: two nones are equal, a none and a value are not, two values compare as values. */
function optionalsEqual(a: Optional, b: Optional, ast: unknown, ev: OperatorEvaluator): boolean {
  if (!a.hasValue() || !b.hasValue()) return a.hasValue() === b.hasValue();
  return valuesEqual(a.value(), b.value(), ast, ev);
}

/** Registers what cel-js lacks of cel-go v0.23.2's optional library (version 2, kube 1.33's). */
export function registerOptionalLibrary(env: Environment, Optional: OptionalClass): Environment {
  const evaluate = makeEvaluate(Optional);
  for (const name of ['optMap', 'optFlatMap'] as const) {
    env.registerFunction(`dyn.${name}(ast, ast): optional<dyn>`, (({ args, receiver }: { args: Node[]; receiver: Node }) => {
      const macro: OptMacro = { name, receiver, variable: args[0]!, body: args[1]!, async: false, typeCheck, evaluate };
      return macro;
    }) as unknown as CelJs.RegisteredFunctionHandler);
  }
  return env
    .registerOperator('optional<A> == optional<A>', optionalsEqual as never)
    .registerFunction('OptionalNamespace.ofNonZeroValue(A): optional<A>', (_: unknown, v: unknown) => (isCelZeroValue(v) ? Optional.none() : Optional.of(v)))
    .registerFunction('list<A>.first(): optional<A>', (l: unknown[]) => (l.length === 0 ? Optional.none() : Optional.of(l[0])))
    .registerFunction('list<A>.last(): optional<A>', (l: unknown[]) => (l.length === 0 ? Optional.none() : Optional.of(l[l.length - 1])))
    .registerFunction('OptionalNamespace.unwrap(list<optional<A>>): list<A>', (_: unknown, l: unknown[]) => unwrap(Optional, l))
    .registerFunction('list<optional<A>>.unwrapOpt(): list<A>', (l: unknown[]) => unwrap(Optional, l));
}

/** The optional library's macro names (for kgen's own AST walks: cost, field checks). */
export const OPTIONAL_MACROS: ReadonlySet<string> = new Set(['optMap', 'optFlatMap']);

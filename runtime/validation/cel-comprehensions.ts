/**
 * cel-go's two-variable comprehensions (ext.TwoVarComprehensions, in kube's CEL environment from
 * 1.32: apiserver pkg/cel/environment/base.go): `all(i, v, p)`, `exists(i, v, p)`,
 * `existsOne(i, v, p)` (and `exists_one`), `transformList(i, v, [filter,] t)`,
 * `transformMap(k, v, [filter,] t)` and `transformMapEntry(k, v, [filter,] t)`, over lists (index,
 * value) and maps (key, value).
 *
 * cel-js has no two-variable comprehension node, but its parser expands a member call through a
 * registered macro (a function whose parameters are `ast`) chosen by name and argument count, and
 * lets the macro type-check and evaluate itself. The one-variable macros (2 arguments, `map` with
 * 3) keep cel-js's own declarations: none of these names takes 3 or 4 arguments there, so a rule
 * that does not use the two-variable forms parses, checks and evaluates as before.
 *
 * Semantics follow cel-go's expansions (ext/comprehensions.go): all/exists as `&&`/`||` folds
 * (an error is absorbed by a later false/true, else raised), existsOne counts without
 * short-circuit (an error is fatal), the transforms are fatal on error and transformMapEntry
 * refuses a key it already inserted ("insert failed: key … already exists").
 */
import type * as CelJs from '@marcbachmann/cel-js';
import type { Checker, CelType, Ctx, Environment, Evaluator, Node } from './cel-macro-hooks.js';

type Kind = 'all' | 'exists' | 'existsOne' | 'transformList' | 'transformMap' | 'transformMapEntry';

interface TwoVarMacro {
  kind: Kind;
  receiver: Node;
  vars: [Node, Node];
  filter: Node | undefined;
  body: Node;
  /** Set by typeCheck (cel-js checks a program before it evaluates it). */
  types?: [CelType, CelType];
  async: false;
  typeCheck(checker: Checker, macro: TwoVarMacro, ctx: Ctx): CelType;
  evaluate(ev: Evaluator, macro: TwoVarMacro, ctx: Ctx): unknown;
}

function simpleName(checker: Checker, node: Node): string {
  // cel-go's extractIterVar: "argument must be a simple name", at the argument.
  if (node.op !== 'id') throw checker.createError('invalid_macro_argument', 'argument must be a simple name', node);
  return node.args;
}

/** A type as cel-go prints it in an overload error (`list(int)`, `map(string, int)`). */
const goTypeName = (checker: Checker, t: CelType): string => checker.formatType(t).replace(/</g, '(').replace(/>/g, ')');

/**
 * A predicate or filter must be bool (or dyn, decided at run time). cel-go reports the call its
 * expansion makes with it: `_&&_` (all), `_||_` (exists), `_?_:_` (existsOne, filters).
 */
function boolOrDyn(checker: Checker, node: Node, ctx: Ctx, call: string, others: string): void {
  const t = checker.check(node, ctx);
  if (t.isDynOrBool()) return;
  const types = call === '_?_:_' ? `${goTypeName(checker, t)}, ${others}, ${others}` : `bool, ${goTypeName(checker, t)}`;
  throw checker.createError('no_matching_overload', `found no matching overload for '${call}' applied to '(${types})'`, node);
}

/** cel-go's extractIterVars: simple names, distinct, not the accumulator's. */
function iterVars(checker: Checker, macro: TwoVarMacro): [string, string] {
  const first = simpleName(checker, macro.vars[0]);
  const second = simpleName(checker, macro.vars[1]);
  if (first === second) throw checker.createError('invalid_macro_argument', `duplicate variable name: ${first}`, macro.vars[1]);
  if (first === ACCUMULATOR) throw checker.createError('invalid_macro_argument', 'iteration variable overwrites accumulator variable', macro.vars[0]);
  if (second === ACCUMULATOR) throw checker.createError('invalid_macro_argument', 'iteration variable overwrites accumulator variable', macro.vars[1]);
  return [first, second];
}

/** cel-go's parser.AccumulatorName (its hidden name, `@result`, is no CEL identifier). */
const ACCUMULATOR = '__result__';

function typeCheck(checker: Checker, macro: TwoVarMacro, ctx: Ctx): CelType {
  const range = checker.check(macro.receiver, ctx);
  let types: [CelType, CelType];
  if (range.kind === 'dyn') types = [checker.dynType, checker.dynType];
  else if (range.kind === 'list') types = [checker.getType('int'), range.valueType!];
  else if (range.kind === 'map') types = [range.keyType!, range.valueType!];
  else {
    throw checker.createError(
      'invalid_comprehension_range',
      `Expression of type '${checker.formatType(range)}' cannot be range of a comprehension (must be list, map, or dynamic).`,
      macro.receiver,
    );
  }
  const [first, second] = iterVars(checker, macro);
  const inner = ctx.forkWithVariable(first, types[0]).forkWithVariable(second, types[1]);
  macro.types = types;
  // What the accumulator holds, for the `_?_:_` of a filter: cel-go prints it as the result type.
  const accu = (): string => (macro.kind === 'existsOne' ? 'int' : macro.kind === 'transformList' ? 'list(dyn)' : 'map(dyn, dyn)');
  if (macro.filter) boolOrDyn(checker, macro.filter, inner, '_?_:_', accu());
  switch (macro.kind) {
    case 'all':
      boolOrDyn(checker, macro.body, inner, '_&&_', '');
      return checker.boolType;
    case 'exists':
      boolOrDyn(checker, macro.body, inner, '_||_', '');
      return checker.boolType;
    case 'existsOne':
      boolOrDyn(checker, macro.body, inner, '_?_:_', accu());
      return checker.boolType;
    case 'transformList':
      return checker.registry.getListType(checker.check(macro.body, inner));
    case 'transformMap':
      return checker.registry.getMapType(types[0], checker.check(macro.body, inner));
    case 'transformMapEntry': {
      const entry = checker.check(macro.body, inner);
      if (entry.kind === 'dyn') return checker.registry.getMapType(checker.dynType, checker.dynType);
      if (entry.kind !== 'map') {
        // cel-go: cel.@mapInsert(map, map) is the only overload the expansion can call.
        throw checker.createError('no_matching_overload', `found no matching overload for 'cel.@mapInsert' applied to '(map, ${checker.formatType(entry)})'`, macro.body);
      }
      return entry;
    }
  }
}

/** The (key, value) pairs of a comprehension's range: (index, item) for a list, (key, value) for a map. */
function rangeEntries(ev: Evaluator, macro: TwoVarMacro, range: unknown): [unknown, unknown][] {
  if (Array.isArray(range)) return range.map((v, i) => [BigInt(i), v]);
  if (range instanceof Map) return [...range.entries()];
  if (range && typeof range === 'object' && !(range instanceof Set)) return Object.keys(range).map((k) => [k, (range as Record<string, unknown>)[k]]);
  throw ev.createError('invalid_comprehension_range', `Expression of type '${typeof range}' cannot be range of a comprehension (must be list, map, or dynamic).`, macro.receiver);
}

/** Go's %v of a map key, for cel-go's "insert failed: key %v already exists". */
const keyText = (k: unknown): string => String(k);

/** A map being built: a plain object while every key is a string (as cel-js's map literals), else a Map. */
class MapBuilder {
  private obj: Record<string, unknown> | undefined = {};
  private map: Map<unknown, unknown> | undefined;

  has(k: unknown): boolean {
    if (this.obj) return typeof k === 'string' && Object.prototype.hasOwnProperty.call(this.obj, k);
    return this.map!.has(k);
  }

  set(k: unknown, v: unknown): void {
    if (this.obj && typeof k !== 'string') {
      this.map = new Map(Object.entries(this.obj));
      this.obj = undefined;
    }
    if (this.obj) Object.defineProperty(this.obj, k as string, { value: v, enumerable: true, writable: true, configurable: true });
    else this.map!.set(k, v);
  }

  insert(k: unknown, v: unknown): void {
    if (this.has(k)) throw new Error(`insert failed: key ${keyText(k)} already exists`);
    this.set(k, v);
  }

  value(): unknown {
    return this.obj ?? this.map;
  }
}

const notBool = (): Error => new Error('no such overload');

function evaluate(ev: Evaluator, macro: TwoVarMacro, ctx: Ctx): unknown {
  const range = ev.run(macro.receiver, ctx);
  const entries = rangeEntries(ev, macro, range);
  const [t1, t2] = macro.types!;
  const first = ctx.forkWithVariable((macro.vars[0] as Extract<Node, { op: 'id' }>).args, t1);
  const inner = first.forkWithVariable((macro.vars[1] as Extract<Node, { op: 'id' }>).args, t2);
  const bind = (k: unknown, v: unknown) => {
    first.setIterValue(k, ev);
    inner.setIterValue(v, ev);
  };
  const passes = (k: unknown, v: unknown): boolean => {
    if (!macro.filter) return true;
    bind(k, v);
    const f = ev.run(macro.filter, inner);
    if (typeof f !== 'boolean') throw notBool();
    return f;
  };
  switch (macro.kind) {
    case 'all':
    case 'exists': {
      // accu && p (all) / accu || p (exists): the deciding value wins over an earlier error.
      const decisive = macro.kind === 'exists';
      let error: unknown;
      for (const [k, v] of entries) {
        bind(k, v);
        const r = ev.tryEval(macro.body, inner);
        if (r === decisive) return decisive;
        if (typeof r !== 'boolean') error ??= r instanceof Error ? r : notBool();
      }
      if (error) throw error;
      return !decisive;
    }
    case 'existsOne': {
      let count = 0;
      for (const [k, v] of entries) {
        bind(k, v);
        const r = ev.run(macro.body, inner);
        if (typeof r !== 'boolean') throw notBool();
        if (r) count++;
      }
      return count === 1;
    }
    case 'transformList': {
      const out: unknown[] = [];
      for (const [k, v] of entries) {
        if (!passes(k, v)) continue;
        bind(k, v);
        out.push(ev.run(macro.body, inner));
      }
      return out;
    }
    case 'transformMap': {
      const out = new MapBuilder();
      for (const [k, v] of entries) {
        if (!passes(k, v)) continue;
        bind(k, v);
        out.insert(k, ev.run(macro.body, inner));
      }
      return out.value();
    }
    case 'transformMapEntry': {
      const out = new MapBuilder();
      for (const [k, v] of entries) {
        if (!passes(k, v)) continue;
        bind(k, v);
        const entry = ev.run(macro.body, inner);
        if (entry instanceof Map) for (const [ek, ev2] of entry) out.insert(ek, ev2);
        else if (entry && typeof entry === 'object' && !Array.isArray(entry)) for (const ek of Object.keys(entry)) out.insert(ek, (entry as Record<string, unknown>)[ek]);
        else throw notBool();
      }
      return out.value();
    }
  }
}

const MACROS: [name: string, kind: Kind, argc: 3 | 4, returns: string][] = [
  ['all', 'all', 3, 'bool'],
  ['exists', 'exists', 3, 'bool'],
  ['existsOne', 'existsOne', 3, 'bool'],
  ['exists_one', 'existsOne', 3, 'bool'],
  ['transformList', 'transformList', 3, 'list'],
  ['transformList', 'transformList', 4, 'list'],
  ['transformMap', 'transformMap', 3, 'map'],
  ['transformMap', 'transformMap', 4, 'map'],
  ['transformMapEntry', 'transformMapEntry', 3, 'map'],
  ['transformMapEntry', 'transformMapEntry', 4, 'map'],
];

/** The names of the two-variable macros with the argument counts they take (for kgen's own AST walks). */
export const TWO_VAR_MACROS: ReadonlyMap<string, ReadonlySet<number>> = new Map(
  [...new Set(MACROS.map(([n]) => n))].map((n) => [n, new Set(MACROS.filter(([m]) => m === n).map(([, , argc]) => argc))]),
);

/** Whether an rcall of `name` with `argc` arguments is a two-variable comprehension. */
export function isTwoVarComprehension(name: string, argc: number): boolean {
  return TWO_VAR_MACROS.get(name)?.has(argc) ?? false;
}

/** Registers the macros on a cel-js environment (on every receiver: cel-js picks macros by name and arity). */
export function registerTwoVarComprehensions(env: Environment): Environment {
  for (const [name, kind, argc, returns] of MACROS) {
    const params = argc === 3 ? 'ast, ast, ast' : 'ast, ast, ast, ast';
    env.registerFunction(`dyn.${name}(${params}): ${returns}`, (({ args, receiver }: { args: Node[]; receiver: Node }) => {
      const macro: TwoVarMacro = {
        kind,
        receiver,
        vars: [args[0]!, args[1]!],
        filter: argc === 4 ? args[2] : undefined,
        body: args[argc - 1]!,
        async: false,
        typeCheck,
        evaluate,
      };
      return macro;
    }) as unknown as CelJs.RegisteredFunctionHandler);
  }
  return env;
}

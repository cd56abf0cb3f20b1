/**
 * Evaluates x-kubernetes-validations over an object, as apiextensions-apiserver's
 * schema/cel/validation.go does: every non-null value whose schema node carries rules is checked,
 * with `self` its value and, on update, `oldSelf` the correlated old value (same property, same
 * map key, same list-type=map entry; atomic lists and maps do not correlate). Transition rules
 * (those naming oldSelf) run only when an old value exists. Errors use kube's format: field.Path
 * ('<nil>' at the root), `Invalid value: "object": <message>`. A failing rule that does not use
 * oldSelf is ratcheted (dropped) when its value is unchanged from the old object, as
 * CRDValidationRatcheting (on by default in 1.32) does.
 */
import type { ParseResult } from '@marcbachmann/cel-js';
import { compileRule, type CompiledRule } from './cel-compile.js';
import { KubeLibraryError } from './cel-errors.js';
import { callCost, PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET } from './cel-cost.js';
import { ruleErrorString, ruleMessageOrDefault } from './cel-rules.js';
import { declTypeOfNode, toCelValue, type CelValueCache } from './cel-value.js';
import { markDataValues } from './cel-optional.js';
import { goQuote } from './gofmt.js';
import { duplicate, forbidden, invalid, required } from './field.js';
import { deepEqualJSON, isPlainObject, type SchemaNode } from './node.js';
import type { FieldError } from './types.js';
import { featureEnabled } from '../api/features.js';

export interface CelValidator {
  /** Rule errors for `obj`; `old` is the stored object on update, undefined on create. */
  validate(obj: unknown, old: unknown): FieldError[];
}

/**
 * The runtime cost budget of one object's validation (kube's RuntimeCELCostBudget); once a call
 * exceeds PerCallLimit or the budget runs out, no further rule is evaluated.
 */
interface Budget {
  remaining: number;
  stopped: boolean;
  /** The object's CEL values, converted once for the rules of every level (cel-value.ts). */
  values: CelValueCache;
}

interface Compiled {
  rules: Map<SchemaNode, CompiledRule[]>;
  /** Nodes with rules at or below them (the walk skips every other subtree). */
  reach: Set<SchemaNode>;
  /** Nodes with a child in reach: the walk looks at no other node's members. */
  descends: Set<SchemaNode>;
  root: SchemaNode;
}

/**
 * Compiles every rule of the graph once. Returns undefined when the schema has no rules, so a
 * kind without rules pays nothing per request.
 */
export function newCelValidator(root: SchemaNode, nodes: readonly SchemaNode[]): CelValidator | undefined {
  const all = nodes.includes(root) ? nodes : [root, ...nodes];
  const rules = new Map<SchemaNode, CompiledRule[]>();
  for (const node of all) {
    if (!node.validations?.length) continue;
    const self = declTypeOfNode(node, node === root);
    rules.set(node, node.validations.map((r) => compileRule(r, self)));
  }
  if (rules.size === 0) return undefined;
  const reach = reachOf(all, rules);
  const descends = new Set(all.filter((node) => children(node).some((c) => reach.has(c))));
  const compiled: Compiled = { rules, reach, descends, root };
  return {
    validate(obj, old) {
      const errs: FieldError[] = [];
      const budget: Budget = { remaining: RUNTIME_CEL_COST_BUDGET, stopped: false, values: new Map() };
      walk(compiled, root, obj, old, '', () => false, errs, budget);
      return errs;
    },
  };
}

function children(node: SchemaNode): SchemaNode[] {
  const out: SchemaNode[] = [];
  if (node.items) out.push(node.items);
  if (typeof node.additional === 'object') out.push(node.additional);
  if (node.properties) out.push(...node.properties.values());
  return out;
}

/** Fixpoint over a possibly cyclic graph. */
function reachOf(nodes: readonly SchemaNode[], rules: Map<SchemaNode, CompiledRule[]>): Set<SchemaNode> {
  const reach = new Set(rules.keys());
  let changed = true;
  while (changed) {
    changed = false;
    for (const node of nodes) {
      if (!reach.has(node) && children(node).some((c) => reach.has(c))) {
        reach.add(node);
        changed = true;
      }
    }
  }
  return reach;
}

const child = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);
const fieldName = (path: string) => (path === '' ? '<nil>' : path);

function once(f: () => boolean): () => boolean {
  let value: boolean | undefined;
  return () => (value ??= f());
}

/**
 * `ratchet` answers whether errors here are ratcheted: this value, or (when it has no correlated
 * old value) its nearest correlated ancestor, equals its old value.
 */
function walk(c: Compiled, node: SchemaNode, value: unknown, old: unknown, path: string, ratchet: () => boolean, errs: FieldError[], budget: Budget): void {
  if (value === null || value === undefined || !c.reach.has(node) || budget.stopped) return;
  const rules = c.rules.get(node);
  if (rules) evaluateRules(node, rules, value, old === null ? undefined : old, path, node === c.root, ratchet, errs, budget);
  if (!c.descends.has(node)) return;
  const next = (n: SchemaNode, v: unknown, o: unknown, p: string) =>
    walk(c, n, v, o, p, o === undefined ? ratchet : once(() => deepEqualJSON(v, o)), errs, budget);
  if (Array.isArray(value)) {
    const items = node.items;
    if (!items || !c.reach.has(items)) return;
    const oldItems = Array.isArray(old) && node.listType === 'map' ? old : undefined;
    const correlate = oldItems && correlator(node.listMapKeys ?? [], oldItems);
    value.forEach((item, i) => next(items, item, correlate?.(item), `${path}[${i}]`));
    return;
  }
  if (!isPlainObject(value)) return;
  const oldMap = isPlainObject(old) && node.mapType !== 'atomic' ? old : undefined;
  const additional = typeof node.additional === 'object' ? node.additional : undefined;
  for (const [key, v] of Object.entries(value)) {
    // A member outside reach would return at once: no path or ratchet is made for it.
    const prop = node.properties?.get(key);
    if (prop) {
      if (c.reach.has(prop)) next(prop, v, oldMap?.[key], child(path, key));
    } else if (additional && c.reach.has(additional)) next(additional, v, oldMap?.[key], `${path}[${key}]`);
  }
}

/** The old entry of a list-type=map with the same key fields, if any (the first such). */
export function correlatedItem(keys: string[], item: unknown, oldItems: unknown[]): unknown {
  if (!isPlainObject(item)) return undefined;
  return oldItems.find((o) => isPlainObject(o) && keys.every((k) => deepEqualJSON(o[k], item[k])));
}

/**
 * correlatedItem over one list: the old entries indexed once by their key fields when those are
 * all scalars or absent (deepEqualJSON of scalars is ===), so a list of n entries correlates in
 * O(n), not O(n²); an entry whose key holds an object or list is looked up by correlatedItem.
 */
export function correlator(keys: string[], oldItems: unknown[]): (item: unknown) => unknown {
  const index = new Map<string, unknown>();
  for (const o of oldItems) {
    if (!isPlainObject(o)) continue;
    const key = scalarKey(keys, o);
    if (key === undefined) return (item) => correlatedItem(keys, item, oldItems);
    if (!index.has(key)) index.set(key, o);
  }
  return (item) => {
    if (!isPlainObject(item)) return undefined;
    const key = scalarKey(keys, item);
    return key === undefined ? correlatedItem(keys, item, oldItems) : index.get(key);
  };
}

/**
 * The key fields' values as one string, each tagged with its type (two entries' strings are equal
 * exactly when their values are ===); undefined when one is not a string, number (NaN aside),
 * bool, bigint, null or absent.
 */
function scalarKey(keys: string[], entry: Record<string, unknown>): string | undefined {
  let out = '';
  for (const k of keys) {
    const v = entry[k];
    if (typeof v === 'string') out += `${JSON.stringify(v)},`;
    else if (v === null || v === undefined || typeof v === 'boolean' || typeof v === 'bigint' || (typeof v === 'number' && !Number.isNaN(v))) out += `${typeof v}:${String(v)},`;
    else return undefined;
  }
  return out;
}

function evaluateRules(
  node: SchemaNode,
  rules: CompiledRule[],
  value: unknown,
  old: unknown,
  path: string,
  resourceRoot: boolean,
  ratchet: () => boolean,
  errs: FieldError[],
  budget: Budget,
): void {
  const type = node.intOrString ? '' : (node.types?.[0] ?? '');
  let activation: { self: unknown; oldSelf?: unknown } | undefined;
  const activate = () =>
    (activation ??= { self: toCelValue(node, value, resourceRoot, budget.values), oldSelf: old === undefined ? undefined : toCelValue(node, old, resourceRoot, budget.values) });
  for (const compiled of rules) {
    const rule = compiled.rule;
    if (!compiled.program) {
      errs.push(invalid(fieldName(path), type, `rule compile error: ${compiled.error}`));
      continue;
    }
    if (compiled.usesOldSelf && old === undefined) continue;
    if (budget.stopped) return;
    const cost = callCost(compiled.program.ast, value, old);
    if (cost > PER_CALL_LIMIT) {
      errs.push(invalid(fieldName(path), type, `'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(rule)}`));
      budget.stopped = true;
      return;
    }
    budget.remaining -= cost;
    if (budget.remaining < 0) {
      errs.push(invalid(fieldName(path), type, 'validation failed due to running out of cost budget, no further validation rules will be run'));
      budget.stopped = true;
      return;
    }
    if (compiled.marksData) {
      markDataValues(activate().self);
      markDataValues(activate().oldSelf);
    }
    const result = evaluate(compiled.evaluated ?? compiled.program, activate());
    if (result instanceof Error) {
      errs.push(invalid(fieldName(path), type, evaluationErrorDetail(result, ruleErrorString(rule))));
      continue;
    }
    if (result === true) continue;
    // A ratcheted error is a warning in kube (kgen sends none): it is dropped.
    const ratcheted = !compiled.usesOldSelf && featureEnabled('CRDValidationRatcheting') && ratchet();
    if (ratcheted && !compiled.messageAst) continue;
    const at = compiled.fieldPath ? child(path, compiled.fieldPath) : path;
    let message: string | undefined;
    if (compiled.messageProgram && compiled.messageAst) {
      // kube's evalMessageExpression: the same per-call limit and budget as the rule's, and
      // exceeding either stops the validation with its own error in place of the rule's. kube
      // evaluates it for a ratcheted error too, so its cost is charged and exceeding a limit
      // stops the validation all the same, the error then dropped with the warning it becomes;
      // its text is not computed (no warning carries it here).
      const messageCost = callCost(compiled.messageAst, value, old);
      if (messageCost > PER_CALL_LIMIT) {
        if (!ratcheted) errs.push(invalid(fieldName(at), type, `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${goQuote(rule.messageExpression ?? '')}`));
        budget.stopped = true;
        return;
      }
      budget.remaining -= messageCost;
      if (budget.remaining < 0) {
        if (!ratcheted) errs.push(invalid(fieldName(at), type, 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run'));
        budget.stopped = true;
        return;
      }
      if (ratcheted) continue;
      message = messageFrom(compiled, activate());
    }
    errs.push(errorForReason(rule.reason, fieldName(at), type, message ?? ruleMessageOrDefault(rule)));
  }
}

function evaluate(program: ParseResult, activation: Record<string, unknown>): unknown {
  try {
    return program(activation);
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

/** cel-go's wording of evaluation errors ('no such key: x'), first line only. */
function evaluationErrorDetail(err: Error, ruleText: string): string {
  if (err instanceof KubeLibraryError) return `${err.message} evaluating rule: ${ruleText}`;
  // cel-js's `optional.none().value()` ("Optional value is not present"): cel-go's text.
  if ((err as { code?: unknown }).code === 'optional_value_missing') return `optional.none() dereference evaluating rule: ${ruleText}`;
  const line = err.message.split('\n')[0]!.trim();
  const message = line.charAt(0).toLowerCase() + line.slice(1);
  if (message.startsWith('no such overload') || message.startsWith('found no matching overload')) {
    return `'${message}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleText}`;
  }
  return `${message} evaluating rule: ${ruleText}`;
}

/** The messageExpression's result when it is a non-empty one-line string; undefined otherwise. */
function messageFrom(compiled: CompiledRule, activation: Record<string, unknown>): string | undefined {
  if (!compiled.messageProgram) return undefined;
  const result = evaluate(compiled.messageProgram, activation);
  if (typeof result !== 'string') return undefined;
  const trimmed = result.trim();
  return trimmed === '' || trimmed.includes('\n') || trimmed.length > 5120 ? undefined : trimmed;
}

/** fieldErrorForReason. */
function errorForReason(reason: string | undefined, field: string, type: string, detail: string): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return forbidden(field, detail);
    case 'FieldValueRequired':
      return required(field, detail);
    case 'FieldValueDuplicate':
      return duplicate(field, type);
    default:
      return invalid(field, type, detail);
  }
}

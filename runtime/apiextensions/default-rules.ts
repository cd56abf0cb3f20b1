/**
 * apiextensions-apiserver pkg/apiserver/schema/defaulting ValidateDefaults: every `default` of a
 * structural schema must be a value its own schema accepts: no unknown fields (kube's
 * requirePrunedDefaults), no schema errors, no failing x-kubernetes-validations rule. Run only on
 * a schema that is otherwise structural, as kube does. Items and properties are visited (not
 * additionalProperties), as in kube.
 *
 * A default inside resource metadata is placed into the object it ends up in (a resource of
 * apiVersion validation/v1, kind Validation, as kube's SurroundingObjectFunc builds it), which must
 * then decode and validate as TypeMeta and ObjectMeta ("must result in valid metadata"); any other
 * default must have valid TypeMeta and ObjectMeta wherever it holds an embedded resource
 * (default-meta.ts) before its schema and rules are checked.
 */
import type { FieldError } from '../validation/index.js';
import { newCelValidator } from '../validation/cel.js';
import { deepCopyJSON, type SchemaNode } from '../validation/node.js';
import { PruneWalk } from '../validation/prune.js';
import { validateValue } from '../validation/validate.js';
import { isObject } from './structural-rules.js';
import { coerceMeta, validateMeta } from './default-meta.js';

type Props = Record<string, unknown>;

const META_FIELDS = new Set(['metadata', 'apiVersion', 'kind']);

/**
 * The nearest embedded resource (or the resource root) above a node, and the steps from it down;
 * `node` is its compiled node, unless the schema is compiled lazily and it was not needed yet.
 */
interface Surrounding {
  raw: Props;
  node: SchemaNode | undefined;
  steps: (string | number)[];
}

/** How the walk gets compiled nodes, and which subtrees it may skip. */
interface Walk {
  requirePruned: boolean;
  /** Nodes with a default at or below them (schema-facts.ts); other subtrees are not visited. */
  below: WeakSet<Props> | undefined;
  /** Compiles a subtree of the schema on its own (lazily compiled schemas only). */
  compile: ((raw: Props) => SchemaNode) | undefined;
}

/**
 * Every default's errors, over the compiled schema (`node`, its root). `defaultsBelow`, when
 * given, holds every schema node with a default at or below it (schema-facts.ts): subtrees
 * without one are not visited.
 */
export function validateDefaults(s: Props, node: SchemaNode, path: string, requirePrunedDefaults: boolean, defaultsBelow?: WeakSet<Props>): FieldError[] {
  return visit(s, node, path, false, true, { raw: s, node, steps: [] }, { requirePruned: requirePrunedDefaults, below: defaultsBelow, compile: undefined });
}

/**
 * validateDefaults without compiling the whole schema: only the subtree under each default (and,
 * for a default inside resource metadata, the resource around it) is compiled, by `compile`.
 * The same errors as validateDefaults over the whole compiled schema, provided compiling the whole
 * schema cannot fail and the schema has no x-kubernetes-validations rules (SchemaFacts
 * compilesAsTree and hasRules): a subtree compiles to the same nodes on its own as inside the
 * whole, every object-valued `items` and property gets a node, and no rule exists for a default to
 * be checked against.
 */
export function validateDefaultsLazily(s: Props, path: string, requirePrunedDefaults: boolean, defaultsBelow: WeakSet<Props>, compile: (raw: Props) => SchemaNode): FieldError[] {
  const compiled = new Map<Props, SchemaNode>();
  const once = (raw: Props) => {
    let node = compiled.get(raw);
    if (!node) compiled.set(raw, (node = compile(raw)));
    return node;
  };
  return visit(s, undefined, path, false, true, { raw: s, node: undefined, steps: [] }, { requirePruned: requirePrunedDefaults, below: defaultsBelow, compile: once });
}

function visit(s: Props, node: SchemaNode | undefined, path: string, insideMeta: boolean, isRoot: boolean, around: Surrounding, walk: Walk): FieldError[] {
  const errs: FieldError[] = [];
  if (walk.below && !walk.below.has(s)) return errs;
  // The resource root counts as embedded: its metadata, apiVersion and kind are resource meta.
  const embedded = isRoot || s['x-kubernetes-embedded-resource'] === true;
  if (embedded) {
    insideMeta = false;
    around = { raw: s, node, steps: [] };
  }
  // `default: null` is no default (JSON null leaves kube's *JSON nil).
  if (s.default !== undefined && s.default !== null) {
    node ??= walk.compile!(s);
    if (embedded) around = { ...around, node };
    errs.push(...defaultErrors(s.default, node, `${path}.default`, insideMeta, walk, around));
  }
  // Uncompiled, every object-valued items and property has a node (see validateDefaultsLazily).
  if (isObject(s.items) && (!node || node.items)) errs.push(...visit(s.items, node?.items, `${path}.items`, insideMeta, false, { ...around, steps: [...around.steps, 0] }, walk));
  if (isObject(s.properties)) {
    for (const [name, sub] of Object.entries(s.properties)) {
      const child = node?.properties?.get(name);
      if (isObject(sub) && (!node || child)) errs.push(...visit(sub, child, `${path}.properties[${name}]`, insideMeta || (embedded && META_FIELDS.has(name)), false, { ...around, steps: [...around.steps, name] }, walk));
    }
  }
  return errs;
}

/** SurroundingObjectFunc: the value placed at `steps` in a resource of kind Validation. */
function surroundingObject(value: unknown, steps: (string | number)[]): Record<string, unknown> {
  let x: unknown = deepCopyJSON(value);
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i]!;
    x = typeof step === 'number' ? [x] : { [step]: x };
  }
  return { apiVersion: 'validation/v1', kind: 'Validation', ...(x as Record<string, unknown>) };
}

function defaultErrors(value: unknown, node: SchemaNode, at: string, insideMeta: boolean, walk: Walk, around: Surrounding): FieldError[] {
  const errs: FieldError[] = [];
  if (insideMeta) {
    const obj = surroundingObject(value, around.steps);
    const aroundNode = around.node ?? walk.compile!(around.raw);
    const coerced = coerceMeta(obj, aroundNode, '', true);
    if (coerced) return [{ type: 'FieldValueInvalid', field: at, message: `Invalid value: ${goValue(value)}: must result in valid metadata: ${coerced.field}: ${coerced.message}` }];
    const metaErrs = validateMeta(obj, aroundNode, '', true);
    if (metaErrs.length > 0) return [{ type: 'FieldValueInvalid', field: at, message: `Invalid value: ${goValue(value)}: must result in valid metadata: ${metaErrs.map((e) => `${e.field}: ${e.message}`).join(', ')}` }];
  } else {
    if (walk.requirePruned) {
      const pruning = new PruneWalk(false, true, true);
      pruning.prune(deepCopyJSON(value), node, '');
      if (pruning.found.length > 0) errs.push({ type: 'FieldValueInvalid', field: at, message: `Invalid value: ${goValue(value)}: must not have unknown fields` });
    }
    const coerced = coerceMeta(value, node, at, node.embedded);
    if (coerced) return [...errs, coerced];
    const metaErrs = validateMeta(value, node, at, node.embedded);
    if (metaErrs.length > 0) return [...errs, ...metaErrs];
  }
  const schemaErrs: FieldError[] = [];
  validateValue(node, value, '', schemaErrs);
  if (schemaErrs.length > 0) return [...errs, ...schemaErrs.map((e) => ({ ...e, field: e.field ? `${at}.${e.field}` : at }))];
  // Only rules at or below the default's node can apply to it.
  const cel = newCelValidator(node, reachable(node));
  if (!cel) return errs;
  // With the default as its own old value (transition rules), then as a new value (ratcheting off).
  let celErrs = cel.validate(value, value);
  if (celErrs.length === 0) celErrs = cel.validate(value, undefined);
  return [...errs, ...celErrs.map((e) => ({ ...e, field: e.field && e.field !== '<nil>' ? `${at}.${e.field}` : at }))];
}

/** A default as Go's %v prints a JSON value in an Invalid error (enough for maps and scalars). */
function goValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (isObject(value)) return `map[${Object.keys(value).sort().map((k) => `${k}:${JSON.stringify(value[k])}`).join(' ')}]`;
  return JSON.stringify(value);
}

/** The nodes a walk from `node` can reach (properties, items, additionalProperties). */
function reachable(node: SchemaNode): SchemaNode[] {
  const seen = new Set<SchemaNode>();
  const stack = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (seen.has(n)) continue;
    seen.add(n);
    if (n.items) stack.push(n.items);
    if (typeof n.additional === 'object') stack.push(n.additional);
    if (n.properties) for (const child of n.properties.values()) stack.push(child);
  }
  return [...seen];
}

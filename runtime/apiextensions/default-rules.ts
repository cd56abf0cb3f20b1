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

/** The nearest embedded resource (or the resource root) above a node, and the steps from it down. */
interface Surrounding {
  node: SchemaNode;
  steps: (string | number)[];
}

/**
 * `defaultsBelow`, when given, holds every schema node with a default at or below it
 * (schema-facts.ts): subtrees without one are not visited.
 */
export function validateDefaults(s: Props, node: SchemaNode, nodes: readonly SchemaNode[], path: string, requirePrunedDefaults: boolean, defaultsBelow?: WeakSet<Props>): FieldError[] {
  return visit(s, node, nodes, path, false, true, requirePrunedDefaults, { node, steps: [] }, defaultsBelow);
}

function visit(s: Props, node: SchemaNode, nodes: readonly SchemaNode[], path: string, insideMeta: boolean, isRoot: boolean, requirePruned: boolean, around: Surrounding, below: WeakSet<Props> | undefined): FieldError[] {
  const errs: FieldError[] = [];
  if (below && !below.has(s)) return errs;
  // The resource root counts as embedded: its metadata, apiVersion and kind are resource meta.
  const embedded = isRoot || s['x-kubernetes-embedded-resource'] === true;
  if (embedded) {
    insideMeta = false;
    around = { node, steps: [] };
  }
  // `default: null` is no default (JSON null leaves kube's *JSON nil).
  if (s.default !== undefined && s.default !== null) errs.push(...defaultErrors(s.default, node, nodes, `${path}.default`, insideMeta, requirePruned, around));
  if (isObject(s.items) && node.items) errs.push(...visit(s.items, node.items, nodes, `${path}.items`, insideMeta, false, requirePruned, { ...around, steps: [...around.steps, 0] }, below));
  if (isObject(s.properties)) {
    for (const [name, sub] of Object.entries(s.properties)) {
      const child = node.properties?.get(name);
      if (isObject(sub) && child) errs.push(...visit(sub, child, nodes, `${path}.properties[${name}]`, insideMeta || (embedded && META_FIELDS.has(name)), false, requirePruned, { ...around, steps: [...around.steps, name] }, below));
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

function defaultErrors(value: unknown, node: SchemaNode, nodes: readonly SchemaNode[], at: string, insideMeta: boolean, requirePruned: boolean, around: Surrounding): FieldError[] {
  const errs: FieldError[] = [];
  if (insideMeta) {
    const obj = surroundingObject(value, around.steps);
    const coerced = coerceMeta(obj, around.node, '', true);
    if (coerced) return [{ type: 'FieldValueInvalid', field: at, message: `Invalid value: ${goValue(value)}: must result in valid metadata: ${coerced.field}: ${coerced.message}` }];
    const metaErrs = validateMeta(obj, around.node, '', true);
    if (metaErrs.length > 0) return [{ type: 'FieldValueInvalid', field: at, message: `Invalid value: ${goValue(value)}: must result in valid metadata: ${metaErrs.map((e) => `${e.field}: ${e.message}`).join(', ')}` }];
  } else {
    if (requirePruned) {
      const walk = new PruneWalk(false, true, true);
      walk.prune(deepCopyJSON(value), node, '');
      if (walk.found.length > 0) errs.push({ type: 'FieldValueInvalid', field: at, message: `Invalid value: ${goValue(value)}: must not have unknown fields` });
    }
    const coerced = coerceMeta(value, node, at, node.embedded);
    if (coerced) return [...errs, coerced];
    const metaErrs = validateMeta(value, node, at, node.embedded);
    if (metaErrs.length > 0) return [...errs, ...metaErrs];
  }
  const schemaErrs: FieldError[] = [];
  validateValue(node, value, '', schemaErrs);
  if (schemaErrs.length > 0) return [...errs, ...schemaErrs.map((e) => ({ ...e, field: e.field ? `${at}.${e.field}` : at }))];
  const cel = newCelValidator(node, nodes.includes(node) ? nodes : [node, ...nodes]);
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

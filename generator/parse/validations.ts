/**
 * @kgen:validation and @kgen:immutable: CEL rules (x-kubernetes-validations) on resources,
 * interfaces, fields and aliases. The rule text is kept as written; whether it compiles is the
 * check stage's question (generator/check/cel.ts), since that needs the resolved schema.
 */
import type { DiagnosticBag } from '../diagnostics.js';
import type { SchemaAnnotations, ValidationRule } from '../model.js';
import type { DocTag } from './jsdoc.js';
import { readMarkerArgs, type MarkerArgs } from './markers.js';

const REASONS: readonly NonNullable<ValidationRule['reason']>[] = ['FieldValueInvalid', 'FieldValueForbidden', 'FieldValueRequired', 'FieldValueDuplicate'];

/** The markers this file handles. */
export const RULE_MARKERS: ReadonlySet<string> = new Set(['kgen:validation', 'kgen:immutable']);

/** kube's sugar for an immutable value: a transition rule comparing it with its old value. */
export const IMMUTABLE_RULE = { rule: 'self == oldSelf', message: 'Value is immutable' } as const;

/** The rule a validation marker declares, or undefined (reported) when its arguments are wrong. */
export function ruleFromMarker(tag: DocTag, args: MarkerArgs, diags: DiagnosticBag): ValidationRule | undefined {
  if (tag.name === 'kgen:immutable') return { ...IMMUTABLE_RULE, loc: tag.loc };
  const rule = args.named.get('rule')!;
  const bad = (problem: string, expect: string) => {
    diags.add('KG004', tag.loc, { tag: `@${tag.name}`, problem, expect });
    return undefined;
  };
  if (rule.trim() === '') return bad('the rule is empty', 'Write a CEL expression that is true for valid values, e.g. rule="self.size() <= 10".');
  const out: ValidationRule = { rule, loc: tag.loc };
  const message = args.named.get('message');
  if (message !== undefined) {
    if (message.trim() === '') return bad('the message is empty', 'Write message="…" with a sentence, or leave it out.');
    out.message = message;
  }
  const messageExpression = args.named.get('messageExpression');
  if (messageExpression !== undefined) out.messageExpression = messageExpression;
  const reason = args.named.get('reason');
  if (reason !== undefined) {
    if (!(REASONS as readonly string[]).includes(reason)) return bad(`reason "${reason}" is not one of ${REASONS.join(', ')}`, 'Write reason=FieldValueForbidden, or leave it out (FieldValueInvalid).');
    out.reason = reason as ValidationRule['reason'];
  }
  const fieldPath = args.named.get('fieldPath');
  if (fieldPath !== undefined) out.fieldPath = fieldPath;
  return out;
}

/** Appends a rule to a schema node's validations. */
export function addRule(target: SchemaAnnotations, rule: ValidationRule | undefined): void {
  if (rule) target.validations = [...(target.validations ?? []), rule];
}

/** Applies the validation markers (and @kgen:allowBreakingChange) among `tags` (already placement-checked) to a type's schema. */
export function applyRuleTags(target: SchemaAnnotations, tags: DocTag[], diags: DiagnosticBag): void {
  for (const tag of tags) {
    if (tag.name === 'kgen:allowBreakingChange') {
      const args = readMarkerArgs(tag, diags);
      if (args) target.allowBreakingChange = { reason: args.named.get('reason')!, loc: tag.loc };
      continue;
    }
    if (!RULE_MARKERS.has(tag.name)) continue;
    const args = readMarkerArgs(tag, diags);
    if (args) addRule(target, ruleFromMarker(tag, args, diags));
  }
}

/**
 * x-kubernetes-validations entries as they arrive in a schema (apiextensions v1 ValidationRule).
 * Reading is lenient: an entry without a string `rule` is dropped here and reported by the CRD
 * checks (celRuleErrors), never by a request.
 */
import type { RawValidationRule } from './node.js';

export type { RawValidationRule };

/** kube's FieldValueErrorReason values a rule may name. */
export const RULE_REASONS = ['FieldValueInvalid', 'FieldValueForbidden', 'FieldValueRequired', 'FieldValueDuplicate'] as const;

export function readValidationRules(raw: unknown[]): RawValidationRule[] {
  const out: RawValidationRule[] = [];
  for (const entry of raw) {
    if (!entry || typeof entry !== 'object') continue;
    const e = entry as Record<string, unknown>;
    if (typeof e.rule !== 'string') continue;
    const rule: RawValidationRule = { rule: e.rule };
    if (typeof e.message === 'string') rule.message = e.message;
    if (typeof e.messageExpression === 'string') rule.messageExpression = e.messageExpression;
    if (typeof e.reason === 'string') rule.reason = e.reason;
    if (typeof e.fieldPath === 'string') rule.fieldPath = e.fieldPath;
    if (e.optionalOldSelf === true) rule.optionalOldSelf = true;
    out.push(rule);
  }
  return out;
}

/** ruleErrorString: the trimmed message, else the trimmed rule. */
export function ruleErrorString(rule: RawValidationRule): string {
  return rule.message ? rule.message.trim() : rule.rule.trim();
}

/** ruleMessageOrDefault: the message, else `failed rule: <rule>`. */
export function ruleMessageOrDefault(rule: RawValidationRule): string {
  return rule.message ? rule.message.trim() : `failed rule: ${ruleErrorString(rule)}`;
}

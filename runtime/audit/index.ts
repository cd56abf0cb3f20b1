/** Auditing (k8s.io/apiserver/pkg/audit): policy, evaluator, events and the log backend. */
export * from './types.js';
export { AuditPolicyError, loadPolicyFile, parsePolicy, validatePolicy, type LoadPolicyOptions } from './policy.js';
export { newPolicyRuleEvaluator, pathMatches, ruleMatches, type AuditAttributes, type PolicyRuleEvaluator } from './checker.js';
export { AuditLogBackend, type AuditLogOptions } from './log.js';
export { AuditContext, DECISION_ANNOTATION, REASON_ANNOTATION } from './context.js';
export { REDACTED, redactRequestURI } from './redact.js';

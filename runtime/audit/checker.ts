/**
 * The policy rule evaluator (k8s.io/apiserver/pkg/audit/policy/checker.go): rules are tried in
 * order and the first whose selectors all match decides the level; with no match the level is
 * None. Each rule's omitStages are unioned with the policy's; a rule's omitManagedFields, when
 * set, overrides the policy's.
 */
import type { AuthorizationAttributes } from '../api/auth.js';
import type { Policy, PolicyRule, RequestAuditConfig, Stage } from './types.js';

/** The request attributes a policy matches on (kube evaluates authorizer.Attributes). */
export type AuditAttributes = Pick<
  AuthorizationAttributes,
  'verb' | 'isResourceRequest' | 'path' | 'namespace' | 'apiGroup' | 'resource' | 'subresource' | 'name'
> & {
  /** Absent before authentication (then no users/userGroups rule matches). */
  user?: AuthorizationAttributes['user'];
};

export interface PolicyRuleEvaluator {
  evaluatePolicyRule(attrs: AuditAttributes): RequestAuditConfig;
}

/** Builds the evaluator for a validated policy (see loadPolicyFile / parsePolicy). */
export function newPolicyRuleEvaluator(policy: Policy): PolicyRuleEvaluator {
  const policyStages = policy.omitStages ?? [];
  const policyOmitManagedFields = policy.omitManagedFields ?? false;
  const configs = policy.rules.map(
    (rule): RequestAuditConfig => ({
      level: rule.level,
      omitStages: [...new Set<Stage>([...policyStages, ...(rule.omitStages ?? [])])],
      omitManagedFields: rule.omitManagedFields ?? policyOmitManagedFields,
    }),
  );
  const fallback: RequestAuditConfig = { level: 'None', omitStages: policyStages, omitManagedFields: policyOmitManagedFields };
  return {
    evaluatePolicyRule(attrs) {
      const i = policy.rules.findIndex((rule) => ruleMatches(rule, attrs));
      return i < 0 ? fallback : configs[i];
    },
  };
}

/** Whether every selector the rule sets matches the request. */
export function ruleMatches(rule: PolicyRule, attrs: AuditAttributes): boolean {
  const users = rule.users ?? [];
  if (users.length > 0 && (!attrs.user || !users.includes(attrs.user.username))) return false;
  const groups = rule.userGroups ?? [];
  if (groups.length > 0 && !(attrs.user?.groups ?? []).some((g) => groups.includes(g))) return false;
  const verbs = rule.verbs ?? [];
  if (verbs.length > 0 && !verbs.includes(attrs.verb)) return false;
  if ((rule.namespaces ?? []).length > 0 || (rule.resources ?? []).length > 0) return ruleMatchesResource(rule, attrs);
  if ((rule.nonResourceURLs ?? []).length > 0) return ruleMatchesNonResource(rule, attrs);
  return true;
}

function ruleMatchesNonResource(rule: PolicyRule, attrs: AuditAttributes): boolean {
  if (attrs.isResourceRequest) return false;
  return (rule.nonResourceURLs ?? []).some((spec) => pathMatches(attrs.path, spec));
}

/** `*` matches every path, `/apis*` every path starting with `/apis`, anything else exactly. */
export function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''));
}

function ruleMatchesResource(rule: PolicyRule, attrs: AuditAttributes): boolean {
  if (!attrs.isResourceRequest) return false;
  const namespaces = rule.namespaces ?? [];
  // Cluster-scoped requests have the empty namespace, which a rule may list as "".
  if (namespaces.length > 0 && !namespaces.includes(attrs.namespace)) return false;
  const groupResources = rule.resources ?? [];
  if (groupResources.length === 0) return true;
  const { resource, subresource, name } = attrs;
  const combined = subresource ? `${resource}/${subresource}` : resource;
  for (const gr of groupResources) {
    if ((gr.group ?? '') !== attrs.apiGroup) continue;
    const resources = gr.resources ?? [];
    if (resources.length === 0) return true;
    const names = gr.resourceNames ?? [];
    if (names.length > 0 && !names.includes(name)) continue;
    for (const res of resources) {
      if (res === combined || res === '*') return true;
      if (subresource && res.startsWith('*/') && subresource === res.slice(2)) return true;
      if (res.endsWith('/*') && resource === res.slice(0, -2)) return true;
    }
  }
  return false;
}

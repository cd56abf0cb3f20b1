/**
 * The RBAC authorizer (plugin/pkg/auth/authorizer/rbac) behind kube's privileged-groups
 * authorizer: members of system:masters may do anything; everyone else is allowed what a rule
 * bound to them allows. A request no rule allows gets NoOpinion (the filter answers 403), with the
 * rule-resolution errors as the reason, as kube reports them.
 */
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, UserInfo } from '../api/auth.js';
import { describeSource, type RuleResolver, type RuleSource } from './resolver.js';
import { ruleAllows } from './rules.js';
import { SYSTEM_PRIVILEGED_GROUP } from './types.js';

/** authorizer.ResourceRuleInfo / NonResourceRuleInfo, as SelfSubjectRulesReview reports them. */
export interface ResourceRuleInfo {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

export interface NonResourceRuleInfo {
  verbs: string[];
  nonResourceURLs?: string[];
}

export interface RulesForResult {
  resourceRules: ResourceRuleInfo[];
  nonResourceRules: NonResourceRuleInfo[];
  incomplete: boolean;
  /** The rule-resolution errors, joined as kube's aggregate error prints them; '' when none. */
  evaluationError: string;
}

/** An Authorizer that can also list what a user may do (kube's authorizer.RuleResolver). */
export interface RBACAuthorizer extends Authorizer {
  rulesFor(user: UserInfo, namespace: string): RulesForResult;
  readonly resolver: RuleResolver;
}

export interface RBACAuthorizerOptions {
  /** Groups allowed everything (kube's --authorization-mode privileged groups). Default system:masters. */
  privilegedGroups?: string[];
}

/** utilerrors.NewAggregate(errs).Error(): one error as is, several as `[a, b]`. */
export function aggregateErrors(errors: readonly Error[]): string {
  if (errors.length === 0) return '';
  if (errors.length === 1) return errors[0]!.message;
  return `[${errors.map((e) => e.message).join(', ')}]`;
}

function authorizeRBAC(resolver: RuleResolver, attrs: AuthorizationAttributes): AuthorizationResult {
  let allowedBy: RuleSource | undefined;
  const errors: Error[] = [];
  resolver.visitRulesFor(attrs.user, attrs.namespace, (source, rule, err) => {
    if (rule && ruleAllows(attrs, rule)) {
      allowedBy = source;
      return false;
    }
    if (err) errors.push(err);
    return true;
  });
  if (allowedBy) return { decision: 'Allow', reason: `RBAC: allowed by ${describeSource(allowedBy)}` };
  return { decision: 'NoOpinion', reason: errors.length ? `RBAC: ${aggregateErrors(errors)}` : '' };
}

export function newRBACAuthorizer(resolver: RuleResolver, options: RBACAuthorizerOptions = {}): RBACAuthorizer {
  const privileged = options.privilegedGroups ?? [SYSTEM_PRIVILEGED_GROUP];
  const isPrivileged = (user: UserInfo) => user.groups.some((g) => privileged.includes(g));
  return {
    resolver,
    // Synchronous: the rules are in memory, so a request awaits nothing here.
    authorize(attrs): AuthorizationResult {
      if (isPrivileged(attrs.user)) return { decision: 'Allow', reason: '' };
      return authorizeRBAC(resolver, attrs);
    },
    // As kube's: only RBAC resolves rules; system:masters gets its rules from the cluster-admin binding.
    rulesFor(user, namespace) {
      const resourceRules: ResourceRuleInfo[] = [];
      const nonResourceRules: NonResourceRuleInfo[] = [];
      const { rules, errors } = resolver.rulesFor(user, namespace);
      for (const rule of rules) {
        if (rule.resources?.length) {
          const info: ResourceRuleInfo = { verbs: [...rule.verbs] };
          if (rule.apiGroups?.length) info.apiGroups = [...rule.apiGroups];
          info.resources = [...rule.resources];
          if (rule.resourceNames?.length) info.resourceNames = [...rule.resourceNames];
          resourceRules.push(info);
        }
        if (rule.nonResourceURLs?.length) nonResourceRules.push({ verbs: [...rule.verbs], nonResourceURLs: [...rule.nonResourceURLs] });
      }
      return { resourceRules, nonResourceRules, incomplete: false, evaluationError: aggregateErrors(errors) };
    },
  };
}

/**
 * Matching one request against one PolicyRule, and one user against one Subject, exactly as kube's
 * RBAC authorizer does (plugin/pkg/auth/authorizer/rbac/rbac.go, pkg/apis/rbac/v1/evaluation_helpers.go).
 */
import type { AuthorizationAttributes, UserInfo } from '../api/auth.js';
import {
  API_GROUP_ALL,
  GROUP_KIND,
  NON_RESOURCE_ALL,
  RESOURCE_ALL,
  SERVICE_ACCOUNT_KIND,
  USER_KIND,
  VERB_ALL,
  type PolicyRule,
  type Subject,
} from './types.js';

const list = (values: readonly string[] | undefined): readonly string[] => values ?? [];

export function verbMatches(rule: PolicyRule, requestedVerb: string): boolean {
  return list(rule.verbs).some((v) => v === VERB_ALL || v === requestedVerb);
}

export function apiGroupMatches(rule: PolicyRule, requestedGroup: string): boolean {
  return list(rule.apiGroups).some((g) => g === API_GROUP_ALL || g === requestedGroup);
}

/**
 * `*` matches everything, `widgets/status` the exact resource/subresource, and `*\/status` the
 * status subresource of every resource.
 */
export function resourceMatches(rule: PolicyRule, combinedRequestedResource: string, requestedSubresource: string): boolean {
  for (const ruleResource of list(rule.resources)) {
    if (ruleResource === RESOURCE_ALL || ruleResource === combinedRequestedResource) return true;
    if (requestedSubresource === '') continue;
    if (ruleResource.length === requestedSubresource.length + 2 && ruleResource.startsWith('*/') && ruleResource.endsWith(requestedSubresource)) {
      return true;
    }
  }
  return false;
}

/** No resourceNames means every name; otherwise the requested name must be listed. */
export function resourceNameMatches(rule: PolicyRule, requestedName: string): boolean {
  const names = list(rule.resourceNames);
  return names.length === 0 || names.includes(requestedName);
}

/** `*`, an exact path, or a prefix written with a trailing `*`. */
export function nonResourceURLMatches(rule: PolicyRule, requestedURL: string): boolean {
  for (const ruleURL of list(rule.nonResourceURLs)) {
    if (ruleURL === NON_RESOURCE_ALL || ruleURL === requestedURL) return true;
    if (ruleURL.endsWith('*') && requestedURL.startsWith(ruleURL.replace(/\*+$/, ''))) return true;
  }
  return false;
}

/** rbac.RuleAllows: does this rule allow the request? */
export function ruleAllows(attrs: AuthorizationAttributes, rule: PolicyRule): boolean {
  if (attrs.isResourceRequest) {
    const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
    return (
      verbMatches(rule, attrs.verb) &&
      apiGroupMatches(rule, attrs.apiGroup) &&
      resourceMatches(rule, combined, attrs.subresource) &&
      resourceNameMatches(rule, attrs.name)
    );
  }
  return verbMatches(rule, attrs.verb) && nonResourceURLMatches(rule, attrs.path);
}

/** serviceaccount.MakeUsername. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/**
 * appliesToUser: a User subject by name, a Group by membership, a ServiceAccount by its
 * username; an unqualified ServiceAccount is in the binding's namespace.
 */
export function appliesToUser(user: UserInfo, subject: Subject, namespace: string): boolean {
  switch (subject.kind) {
    case USER_KIND:
      return user.username === subject.name;
    case GROUP_KIND:
      return user.groups.includes(subject.name);
    case SERVICE_ACCOUNT_KIND: {
      const saNamespace = subject.namespace || namespace;
      if (!saNamespace) return false;
      return user.username === serviceAccountUsername(saNamespace, subject.name);
    }
    default:
      return false;
  }
}

/** The index of the first subject that applies to the user, or -1. */
export function appliesTo(user: UserInfo, subjects: readonly Subject[] | undefined, namespace: string): number {
  return (subjects ?? []).findIndex((s) => appliesToUser(user, s, namespace));
}

/** describeSubject: `User "alice"`, `ServiceAccount "builder/ns1"`. */
export function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind === SERVICE_ACCOUNT_KIND) {
    return `${subject.kind} ${JSON.stringify(`${subject.name}/${subject.namespace || bindingNamespace}`)}`;
  }
  return `${subject.kind} ${JSON.stringify(subject.name)}`;
}

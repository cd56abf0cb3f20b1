/**
 * RBAC escalation prevention (pkg/registry/rbac/validation.ConfirmNoEscalation and the
 * policy-based role and binding storages), as a validating admission plugin on the four RBAC
 * resources:
 * - a Role/ClusterRole may only be written with rules the requester already holds in that
 *   namespace (cluster-wide for ClusterRoles), unless they may `escalate` roles/clusterroles;
 * - a RoleBinding/ClusterRoleBinding may only be written by someone who may `bind` the referenced
 *   role, or who holds all of its rules;
 * - a ClusterRole may only be created with an aggregationRule, or updated to change it, by
 *   someone who holds every permission (kube's fullAuthority) or may `escalate` clusterroles:
 *   a selector can gather any rules, so it is cluster-admin's to set
 *   (pkg/registry/rbac/clusterrole/policybased/storage.go);
 * - system:masters may do anything; an update that only touches garbage-collection metadata
 *   (ownerReferences, finalizers) is never an escalation.
 *
 * It runs in validating admission, inside the store and after every mutation (mutating
 * admission, defaulting, the patch or apply merge), on the object about to be stored: so every
 * write path meets it the same way, whatever the verb, patch type or body encoding.
 */
import type { AdmissionAttributes, Authorizer, UserInfo } from '../api/auth.js';
import type { KubeObject } from '../api/meta.js';
import { StatusError, newStatus, type QualifiedResource } from '../api/status.js';
import type { AdmissionPlugin } from '../api/admission.js';
import { jsonEqual } from '../registry/equality.js';
import { compactRules, compactString, covers, goList } from './covers.js';
import { aggregateErrors } from './rbac.js';
import type { RuleResolver } from './resolver.js';
import { rbacResourceOf } from './strategy.js';
import { RBAC_GROUP, SYSTEM_PRIVILEGED_GROUP, type ClusterRole, type PolicyRule, type RoleBinding } from './types.js';

/** errors.NewForbidden: `<resource> "<name>" is forbidden: <why>`. */
export function newForbidden(qr: QualifiedResource, name: string, why: string): StatusError {
  const q = qr.group ? `${qr.resource}.${qr.group}` : qr.resource;
  const message = !qr.resource ? `forbidden: ${why}` : name ? `${q} ${JSON.stringify(name)} is forbidden: ${why}` : `${q} is forbidden: ${why}`;
  return new StatusError(newStatus('Forbidden', message, { name, group: qr.group, kind: qr.resource }));
}

/**
 * ConfirmNoEscalation: undefined when the user holds every rule in the namespace, else kube's
 * message listing the rules they lack.
 */
export function confirmNoEscalation(resolver: RuleResolver, user: UserInfo, namespace: string, rules: readonly PolicyRule[]): string | undefined {
  const { rules: ownerRules, errors } = resolver.rulesFor(user, namespace);
  const { covered, missing } = covers(ownerRules, rules);
  if (covered) return undefined;
  const descriptions = [...new Set(compactRules(missing).map(compactString))].sort();
  let msg = `user ${JSON.stringify(user.username)} (groups=${goList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${descriptions.join('\n')}`;
  if (errors.length) msg += `; resolution errors: [${aggregateErrors(errors)}]`;
  return msg;
}

/** What setting an aggregationRule requires: `*` on everything, resources and URLs alike. */
export const FULL_AUTHORITY: readonly PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

export const AGGREGATION_RULE_FORBIDDEN = 'must have cluster-admin privileges to use the aggregationRule';

type AggregationRule = ClusterRole['aggregationRule'];

/** hasAggregationRule: present only with at least one selector (nil, {} and [] are absent). */
export function hasAggregationRule(rule: AggregationRule): boolean {
  return Array.isArray(rule?.clusterRoleSelectors) && rule.clusterRoleSelectors.length > 0;
}

/** hasAggregationRuleChanged: absent in both is no change; otherwise any difference is one. */
export function hasAggregationRuleChanged(rule: AggregationRule, old: AggregationRule): boolean {
  if (!hasAggregationRule(rule) && !hasAggregationRule(old)) return false;
  return !jsonEqual(rule ?? null, old ?? null);
}

/** EscalationAllowed: system:masters is the API server's own loopback identity too. */
export function escalationAllowed(user: UserInfo): boolean {
  return user.groups.includes(SYSTEM_PRIVILEGED_GROUP);
}

/** IsOnlyMutatingGCFields: equal once ownerReferences, finalizers and server-managed metadata are the old ones. */
export function isOnlyMutatingGCFields(obj: KubeObject, old: KubeObject): boolean {
  const strip = (o: KubeObject) => {
    const { ownerReferences: _o, finalizers: _f, managedFields: _m, resourceVersion: _r, generation: _g, ...meta } = o.metadata;
    return { ...o, metadata: meta };
  };
  return jsonEqual(strip(obj), strip(old));
}

async function allowed(authorizer: Authorizer, user: UserInfo, verb: string, resource: string, namespace: string, name: string): Promise<boolean> {
  const result = await authorizer.authorize({
    user,
    verb,
    isResourceRequest: true,
    path: '',
    namespace,
    apiGroup: RBAC_GROUP,
    apiVersion: '*',
    resource,
    subresource: '',
    name,
  });
  return result.decision === 'Allow';
}

export interface EscalationCheckOptions {
  /** The full authorizer, for the `escalate` and `bind` checks. */
  authorizer: Authorizer;
  resolver: RuleResolver;
}

/** Throws kube's 403 when the write would grant what the requester does not hold. */
export async function checkEscalation(attrs: AdmissionAttributes, opts: EscalationCheckOptions): Promise<void> {
  if (attrs.subresource) return;
  const resource = rbacResourceOf({ group: attrs.resource.group, plural: attrs.resource.resource });
  // attrs.object is read only for RBAC objects: admission copies it on first read.
  if (!resource || !attrs.object || escalationAllowed(attrs.user)) return;
  if (attrs.operation === 'UPDATE' && attrs.oldObject && isOnlyMutatingGCFields(attrs.object, attrs.oldObject)) return;
  const qr = { group: RBAC_GROUP, resource };
  const name = attrs.object.metadata?.name ?? attrs.name;
  const namespace = resource === 'roles' || resource === 'rolebindings' ? attrs.namespace : '';
  if (resource === 'roles' || resource === 'clusterroles') {
    // kube's RoleEscalationAuthorized asks about the request's name: none on a create by POST, so
    // an `escalate` grant limited by resourceNames covers updates of those roles, never creates.
    if (await allowed(opts.authorizer, attrs.user, 'escalate', resource, namespace, attrs.requestName ?? attrs.name)) return;
    const why = confirmNoEscalation(opts.resolver, attrs.user, namespace, (attrs.object.rules as PolicyRule[] | undefined) ?? []);
    if (why) throw newForbidden(qr, name, why);
    if (resource === 'clusterroles') {
      const rule = (attrs.object as ClusterRole).aggregationRule;
      const gathers = attrs.operation === 'UPDATE' && attrs.oldObject ? hasAggregationRuleChanged(rule, (attrs.oldObject as ClusterRole).aggregationRule) : hasAggregationRule(rule);
      if (gathers && confirmNoEscalation(opts.resolver, attrs.user, '', FULL_AUTHORITY)) throw newForbidden(qr, name, AGGREGATION_RULE_FORBIDDEN);
    }
    return;
  }
  const roleRef = (attrs.object as RoleBinding).roleRef;
  const roleResource = roleRef?.kind === 'Role' ? 'roles' : roleRef?.kind === 'ClusterRole' ? 'clusterroles' : undefined;
  // BindingAuthorized: checked in the binding's namespace ("" for cluster role bindings).
  if (roleResource && (await allowed(opts.authorizer, attrs.user, 'bind', roleResource, namespace, roleRef.name))) return;
  let rules: readonly PolicyRule[];
  try {
    rules = opts.resolver.getRoleReferenceRules(roleRef, namespace);
  } catch (err) {
    throw newForbidden(qr, name, (err as Error).message);
  }
  const why = confirmNoEscalation(opts.resolver, attrs.user, namespace, rules);
  if (why) throw newForbidden(qr, name, why);
}

/** The escalation checks as an admission plugin (validating, CREATE and UPDATE). */
export function newRBACEscalationAdmission(opts: EscalationCheckOptions): AdmissionPlugin {
  return {
    name: 'RBACEscalation',
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    validate: (attrs) => checkEscalation(attrs, opts),
  };
}

/** Small builders for RBAC objects and authorization attributes, shared by the authorization tests. */
import type { AuthorizationAttributes, UserInfo } from '../../runtime/api/auth.js';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, Subject } from '../../runtime/authorization/index.js';

export const RBAC = 'rbac.authorization.k8s.io';

export function user(name: string, ...groups: string[]): UserInfo {
  return { username: name, groups: [...groups, 'system:authenticated'] };
}

export function role(namespace: string, name: string, rules: PolicyRule[]): Role {
  return { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { namespace, name }, rules };
}

export function clusterRole(name: string, rules: PolicyRule[], labels?: Record<string, string>, aggregateLabel?: string): ClusterRole {
  const r: ClusterRole = { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name, ...(labels ? { labels } : {}) }, rules };
  if (aggregateLabel) r.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [aggregateLabel]: 'true' } }] };
  return r;
}

export const U = (name: string): Subject => ({ kind: 'User', apiGroup: RBAC, name });
export const G = (name: string): Subject => ({ kind: 'Group', apiGroup: RBAC, name });
export const SA = (name: string, namespace?: string): Subject => ({ kind: 'ServiceAccount', name, ...(namespace ? { namespace } : {}) });

export function roleBinding(namespace: string, name: string, roleKind: 'Role' | 'ClusterRole', roleName: string, subjects: Subject[]): RoleBinding {
  return { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { namespace, name }, roleRef: { apiGroup: RBAC, kind: roleKind, name: roleName }, subjects };
}

export function clusterRoleBinding(name: string, roleName: string, subjects: Subject[]): ClusterRoleBinding {
  return { apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName }, subjects };
}

export function resourceAttrs(u: UserInfo, verb: string, resource: string, opts: { namespace?: string; group?: string; subresource?: string; name?: string } = {}): AuthorizationAttributes {
  return {
    user: u,
    verb,
    isResourceRequest: true,
    path: '',
    namespace: opts.namespace ?? '',
    apiGroup: opts.group ?? 'widgets.example.com',
    apiVersion: 'v1',
    resource,
    subresource: opts.subresource ?? '',
    name: opts.name ?? '',
  };
}

export function pathAttrs(u: UserInfo, verb: string, path: string): AuthorizationAttributes {
  return { user: u, verb, isResourceRequest: false, path, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
}

/**
 * The rbac.authorization.k8s.io/v1 objects as the authorizer reads them (k8s.io/api/rbac/v1), and
 * kube's names for their constants. The generated models describe the same shapes; these are the
 * runtime's view, independent of any generated directory.
 */
import type { KubeObject } from '../api/meta.js';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';
export const AUTHORIZATION_GROUP = 'authorization.k8s.io';

export const VERB_ALL = '*';
export const API_GROUP_ALL = '*';
export const RESOURCE_ALL = '*';
export const NON_RESOURCE_ALL = '*';

export const USER_KIND = 'User';
export const GROUP_KIND = 'Group';
export const SERVICE_ACCOUNT_KIND = 'ServiceAccount';

/** user.SystemPrivilegedGroup: members may do anything, whatever RBAC holds. */
export const SYSTEM_PRIVILEGED_GROUP = 'system:masters';
export const ALL_AUTHENTICATED = 'system:authenticated';
export const ALL_UNAUTHENTICATED = 'system:unauthenticated';

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  kind: string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface Role extends KubeObject {
  rules?: PolicyRule[];
}

export interface ClusterRole extends Role {
  aggregationRule?: { clusterRoleSelectors?: LabelSelector[] };
}

export interface RoleBinding extends KubeObject {
  subjects?: Subject[];
  roleRef: RoleRef;
}

export type ClusterRoleBinding = RoleBinding;

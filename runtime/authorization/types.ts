/**
 * The rbac.authorization.k8s.io/v1 objects the authorizer reads, and kube's names for their
 * constants. The types are the generated models of kgen's built-in API
 * (generator/builtin/rbac.authorization.k8s.io/v1, compiled into generated/models): written once
 * in the input language, imported here as types only, so nothing of generated/ loads at run time.
 */
import type { KubeObject } from '../api/meta.js';
import type * as rbac from '../../generated/models/rbac.authorization.k8s.io/v1.js';

export type { AggregationRule, PolicyRule, RoleRef, Subject } from '../../generated/models/rbac.authorization.k8s.io/v1.js';
export type { LabelSelector, LabelSelectorRequirement } from '../types/index.js';

/** The kinds as objects the storage holds: the generated model, readable as any KubeObject. */
export type Role = rbac.Role & KubeObject;
export type ClusterRole = rbac.ClusterRole & KubeObject;
export type RoleBinding = rbac.RoleBinding & KubeObject;
export type ClusterRoleBinding = rbac.ClusterRoleBinding & KubeObject;
/** Either binding: they have the same fields (subjects, roleRef) and differ only in kind and scope. */
export type Binding = RoleBinding | ClusterRoleBinding;

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

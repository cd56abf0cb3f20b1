// Built-in: rbac.authorization.k8s.io/v1 ClusterRoleBinding, compiled by kgen like any user API.
import type { RoleRef, Subject } from './policy.js';

/**
 * ClusterRoleBinding references a ClusterRole, but not contain it.  It can reference a ClusterRole in the global namespace, and adds who information via Subject.
 * @kgen:resource scope=Cluster
 */
export interface ClusterRoleBinding {
  /**
   * Subjects holds references to the objects the role applies to.
   * @kgen:listType atomic
   * @kgen:protobuf 2
   */
  subjects?: Subject[];
  /**
   * RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.
   * @kgen:protobuf 3
   */
  roleRef: RoleRef;
}

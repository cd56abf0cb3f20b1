// Built-in: rbac.authorization.k8s.io/v1 RoleBinding, compiled by kgen like any user API.
import type { RoleRef, Subject } from './policy.js';

/**
 * RoleBinding references a role, but does not contain it.  It can reference a Role in the same namespace or a ClusterRole in the global namespace. It adds who information via Subjects and namespace information by which namespace it exists in.  RoleBindings in a given namespace only have effect in that namespace.
 * @kgen:resource scope=Namespaced
 */
export interface RoleBinding {
  /**
   * Subjects holds references to the objects the role applies to.
   * @kgen:listType atomic
   * @kgen:protobuf 2
   */
  subjects?: Subject[];
  /**
   * RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.
   * @kgen:protobuf 3
   */
  roleRef: RoleRef;
}

// Built-in: rbac.authorization.k8s.io/v1 Role, compiled by kgen like any user API.
import type { PolicyRule } from './policy.js';

/**
 * Role is a namespaced, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding.
 * @kgen:resource scope=Namespaced
 * @kgen:printcolumn name="Created At" type=string jsonPath=.metadata.creationTimestamp
 */
export interface Role {
  /**
   * Rules holds all the PolicyRules for this Role
   * @kgen:listType atomic
   * @kgen:protobuf 2
   */
  rules?: PolicyRule[];
}

// Built-in: rbac.authorization.k8s.io/v1 ClusterRole, compiled by kgen like any user API.
import type { AggregationRule, PolicyRule } from './policy.js';

/**
 * ClusterRole is a cluster level, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding or ClusterRoleBinding.
 * @kgen:resource scope=Cluster
 * @kgen:printcolumn name="Created At" type=string jsonPath=.metadata.creationTimestamp
 */
export interface ClusterRole {
  /**
   * Rules holds all the PolicyRules for this ClusterRole
   * @kgen:listType atomic
   * @kgen:protobuf 2
   */
  rules?: PolicyRule[];
  /**
   * AggregationRule is an optional field that describes how to build the Rules for this ClusterRole. If AggregationRule is set, then the Rules are controller managed and direct changes to Rules will be stomped by the controller.
   * @kgen:protobuf 3
   */
  aggregationRule?: AggregationRule;
}

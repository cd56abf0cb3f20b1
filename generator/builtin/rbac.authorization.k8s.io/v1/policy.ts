// Built-in: the types rbac.authorization.k8s.io/v1 roles and bindings share (k8s.io/api/rbac/v1),
// written in the kgen input language. Semantic checks (a rule needs verbs, a roleRef kind is
// Role or ClusterRole, …) are kube's RBAC strategy's, in runtime/authorization/strategy.ts.
import type { LabelSelector } from 'kgen';

/**
 * PolicyRule holds information that describes a policy rule, but does not contain information about who the rule applies to or which namespace the rule applies to.
 */
export interface PolicyRule {
  /**
   * Verbs is a list of Verbs that apply to ALL the ResourceKinds contained in this rule. '*' represents all verbs.
   * @kgen:listType atomic
   * @kgen:protobuf 1
   */
  verbs: string[];
  /**
   * APIGroups is the name of the APIGroup that contains the resources.  If multiple API groups are specified, any action requested against one of the enumerated resources in any API group will be allowed. "" represents the core API group and "*" represents all API groups.
   * @kgen:listType atomic
   * @kgen:protobuf 2
   */
  apiGroups?: string[];
  /**
   * Resources is a list of resources this rule applies to. '*' represents all resources.
   * @kgen:listType atomic
   * @kgen:protobuf 3
   */
  resources?: string[];
  /**
   * ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.
   * @kgen:listType atomic
   * @kgen:protobuf 4
   */
  resourceNames?: string[];
  /**
   * NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path Since non-resource URLs are not namespaced, this field is only applicable for ClusterRoles referenced from a ClusterRoleBinding. Rules can either apply to API resources (such as "pods" or "secrets") or non-resource URL paths (such as "/api"),  but not both.
   * @kgen:listType atomic
   * @kgen:protobuf 5
   */
  nonResourceURLs?: string[];
}

/**
 * Subject contains a reference to the object or user identities a role binding applies to.  This can either hold a direct API object reference, or a value for non-objects such as user and group names.
 */
export interface Subject {
  /**
   * Kind of object being referenced. Values defined by this API group are "User", "Group", and "ServiceAccount". If the Authorizer does not recognized the kind value, the Authorizer should report an error.
   * @kgen:protobuf 1
   */
  kind: string;
  /**
   * APIGroup holds the API group of the referenced subject. Defaults to "" for ServiceAccount subjects. Defaults to "rbac.authorization.k8s.io" for User and Group subjects.
   * @kgen:protobuf 2
   */
  apiGroup?: string;
  /**
   * Name of the object being referenced.
   * @kgen:protobuf 3
   */
  name: string;
  /**
   * Namespace of the referenced object.  If the object kind is non-namespace, such as "User" or "Group", and this value is not empty the Authorizer should report an error.
   * @kgen:protobuf 4
   */
  namespace?: string;
}

/** RoleRef contains information that points to the role being used */
export interface RoleRef {
  /**
   * APIGroup is the group for the resource being referenced
   * @kgen:protobuf 1
   */
  apiGroup: string;
  /**
   * Kind is the type of resource being referenced
   * @kgen:protobuf 2
   */
  kind: string;
  /**
   * Name is the name of resource being referenced
   * @kgen:protobuf 3
   */
  name: string;
}

/** AggregationRule describes how to locate ClusterRoles to aggregate into the ClusterRole */
export interface AggregationRule {
  /**
   * ClusterRoleSelectors holds a list of selectors which will be used to find ClusterRoles and create the rules. If any of the selectors match, then the ClusterRole's permissions will be added
   * @kgen:listType atomic
   * @kgen:protobuf 1
   */
  clusterRoleSelectors?: LabelSelector[];
}

// Built-in: authorization.k8s.io/v1 SelfSubjectRulesReview (`kubectl auth can-i --list`):
// create-only and never stored; the server answers from its rule resolver.

/**
 * SelfSubjectRulesReview enumerates the set of actions the current user can perform within a namespace. The returned list of actions may be incomplete depending on the server's authorization mode, and any errors experienced during the evaluation. SelfSubjectRulesReview should be used by UIs to show/hide actions, or to quickly let an end user reason about their permissions. It should NOT Be used by external systems to drive authorization decisions as this raises confused deputy, cache lifetime/revocation, and correctness concerns. SubjectAccessReview, and LocalAccessReview are the correct way to defer authorization decisions to the API server.
 * @kgen:resource scope=Cluster
 * @kgen:virtual
 */
export interface SelfSubjectRulesReview {
  /**
   * Spec holds information about the request being evaluated.
   * @kgen:protobuf 2
   */
  spec: SelfSubjectRulesReviewSpec;
  /**
   * Status is filled in by the server and indicates the set of actions a user can perform.
   * @kgen:protobuf 3
   */
  status?: SubjectRulesReviewStatus;
}

/** SelfSubjectRulesReviewSpec defines the specification for SelfSubjectRulesReview. */
export interface SelfSubjectRulesReviewSpec {
  /**
   * Namespace to evaluate rules for. Required.
   * @kgen:protobuf 1
   */
  namespace?: string;
}

/** SubjectRulesReviewStatus contains the result of a rules check. This check can be incomplete depending on the set of authorizers the server is configured with and any errors experienced during evaluation. Because authorization rules are additive, if a rule appears in a list it's safe to assume the subject has that permission, even if that list is incomplete. */
export interface SubjectRulesReviewStatus {
  /**
   * ResourceRules is the list of actions the subject is allowed to perform on resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete.
   * @kgen:listType atomic
   * @kgen:protobuf 1
   */
  resourceRules: ResourceRule[];
  /**
   * NonResourceRules is the list of actions the subject is allowed to perform on non-resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete.
   * @kgen:listType atomic
   * @kgen:protobuf 2
   */
  nonResourceRules: NonResourceRule[];
  /**
   * Incomplete is true when the rules returned by this call are incomplete. This is most commonly encountered when an authorizer, such as an external authorizer, doesn't support rules evaluation.
   * @kgen:protobuf 3
   */
  incomplete: boolean;
  /**
   * EvaluationError can appear in combination with Rules. It indicates an error occurred during rule evaluation, such as an authorizer that doesn't support rule evaluation, and that ResourceRules and/or NonResourceRules may be incomplete.
   * @kgen:protobuf 4
   */
  evaluationError?: string;
}

/** ResourceRule is the list of actions the subject is allowed to perform on resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete. */
export interface ResourceRule {
  /**
   * Verb is a list of kubernetes resource API verbs, like: get, list, watch, create, update, delete, proxy.  "*" means all.
   * @kgen:listType atomic
   * @kgen:protobuf 1
   */
  verbs: string[];
  /**
   * APIGroups is the name of the APIGroup that contains the resources.  If multiple API groups are specified, any action requested against one of the enumerated resources in any API group will be allowed.  "*" means all.
   * @kgen:listType atomic
   * @kgen:protobuf 2
   */
  apiGroups?: string[];
  /**
   * Resources is a list of resources this rule applies to.  "*" means all in the specified apiGroups. "*\/foo" represents the subresource 'foo' for all resources in the specified apiGroups.
   * @kgen:listType atomic
   * @kgen:protobuf 3
   */
  resources?: string[];
  /**
   * ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.  "*" means all.
   * @kgen:listType atomic
   * @kgen:protobuf 4
   */
  resourceNames?: string[];
}

/** NonResourceRule holds information that describes a rule for the non-resource */
export interface NonResourceRule {
  /**
   * Verb is a list of kubernetes non-resource API verbs, like: get, post, put, delete, patch, head, options.  "*" means all.
   * @kgen:listType atomic
   * @kgen:protobuf 1
   */
  verbs: string[];
  /**
   * NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path.  "*" means all.
   * @kgen:listType atomic
   * @kgen:protobuf 2
   */
  nonResourceURLs?: string[];
}

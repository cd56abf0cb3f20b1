// Built-in: the request attributes and decisions authorization.k8s.io/v1 reviews share
// (k8s.io/api/authorization/v1), written in the kgen input language.

/** ResourceAttributes includes the authorization attributes available for resource requests to the Authorizer interface */
export interface ResourceAttributes {
  /**
   * Namespace is the namespace of the action being requested.  Currently, there is no distinction between no namespace and all namespaces "" (empty) is defaulted for LocalSubjectAccessReviews "" (empty) is empty for cluster-scoped resources "" (empty) means "all" for namespace scoped resources from a SubjectAccessReview or SelfSubjectAccessReview
   * @kgen:protobuf 1
   */
  namespace?: string;
  /**
   * Verb is a kubernetes resource API verb, like: get, list, watch, create, update, delete, proxy.  "*" means all.
   * @kgen:protobuf 2
   */
  verb?: string;
  /**
   * Group is the API Group of the Resource.  "*" means all.
   * @kgen:protobuf 3
   */
  group?: string;
  /**
   * Version is the API Version of the Resource.  "*" means all.
   * @kgen:protobuf 4
   */
  version?: string;
  /**
   * Resource is one of the existing resource types.  "*" means all.
   * @kgen:protobuf 5
   */
  resource?: string;
  /**
   * Subresource is one of the existing resource types.  "" means none.
   * @kgen:protobuf 6
   */
  subresource?: string;
  /**
   * Name is the name of the resource being requested for a "get" or deleted for a "delete". "" (empty) means all.
   * @kgen:protobuf 7
   */
  name?: string;
  /**
   * fieldSelector describes the limitation on access based on field.  It can only limit access, not broaden it.
   * @kgen:protobuf 8
   */
  fieldSelector?: FieldSelectorAttributes;
  /**
   * labelSelector describes the limitation on access based on labels.  It can only limit access, not broaden it.
   * @kgen:protobuf 9
   */
  labelSelector?: LabelSelectorAttributes;
}

/** FieldSelectorAttributes indicates a field limited access. */
export interface FieldSelectorAttributes {
  /**
   * rawSelector is the serialization of a field selector that would be included in a query parameter.
   * @kgen:protobuf 1
   */
  rawSelector?: string;
  /**
   * requirements is the parsed interpretation of a field selector.
   * @kgen:listType atomic
   * @kgen:protobuf 2
   */
  requirements?: SelectorRequirement[];
}

/** LabelSelectorAttributes indicates a label limited access. */
export interface LabelSelectorAttributes {
  /**
   * rawSelector is the serialization of a field selector that would be included in a query parameter.
   * @kgen:protobuf 1
   */
  rawSelector?: string;
  /**
   * requirements is the parsed interpretation of a label selector.
   * @kgen:listType atomic
   * @kgen:protobuf 2
   */
  requirements?: SelectorRequirement[];
}

/** A selector requirement: a key, an operator and values (FieldSelectorRequirement, LabelSelectorRequirement). */
export interface SelectorRequirement {
  /**
   * key is the field selector key that the requirement applies to.
   * @kgen:protobuf 1
   */
  key: string;
  /**
   * operator represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists, DoesNotExist.
   * @kgen:protobuf 2
   */
  operator: string;
  /**
   * values is an array of string values.
   * @kgen:listType atomic
   * @kgen:protobuf 3
   */
  values?: string[];
}

/** NonResourceAttributes includes the authorization attributes available for non-resource requests to the Authorizer interface */
export interface NonResourceAttributes {
  /**
   * Path is the URL path of the request
   * @kgen:protobuf 1
   */
  path?: string;
  /**
   * Verb is the standard HTTP verb
   * @kgen:protobuf 2
   */
  verb?: string;
}

/** SubjectAccessReviewStatus */
export interface SubjectAccessReviewStatus {
  /**
   * Allowed is required. True if the action would be allowed, false otherwise.
   * @kgen:protobuf 1
   */
  allowed: boolean;
  /**
   * Denied is optional. True if the action would be denied, otherwise false. If both allowed is false and denied is false, then the authorizer has no opinion on whether to authorize the action. Denied may not be true if Allowed is true.
   * @kgen:protobuf 4
   */
  denied?: boolean;
  /**
   * Reason is optional.  It indicates why a request was allowed or denied.
   * @kgen:protobuf 2
   */
  reason?: string;
  /**
   * EvaluationError is an indication that some error occurred during the authorization check. It is entirely possible to get an error and be able to continue determine authorization status in spite of it. For instance, RBAC can be missing a role, but enough roles are still present and bound to reason about the request.
   * @kgen:protobuf 3
   */
  evaluationError?: string;
}

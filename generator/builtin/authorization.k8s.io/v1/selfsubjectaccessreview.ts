// Built-in: authorization.k8s.io/v1 SelfSubjectAccessReview (`kubectl auth can-i`): create-only and
// never stored; the server answers from its authorizer (runtime/authorization/reviews.ts).
import type { NonResourceAttributes, ResourceAttributes, SubjectAccessReviewStatus } from './attributes.js';

/**
 * SelfSubjectAccessReview checks whether or the current user can perform an action.  Not filling in a spec.namespace means "in all namespaces".  Self is a special case, because users should always be able to check whether they can perform an action
 * @kgen:resource scope=Cluster
 * @kgen:virtual
 */
export interface SelfSubjectAccessReview {
  /**
   * Spec holds information about the request being evaluated.  user and groups must be empty
   * @kgen:protobuf 2
   */
  spec: SelfSubjectAccessReviewSpec;
  /**
   * Status is filled in by the server and indicates whether the request is allowed or not
   * @kgen:protobuf 3
   */
  status?: SubjectAccessReviewStatus;
}

/** SelfSubjectAccessReviewSpec is a description of the access request.  Exactly one of ResourceAuthorizationAttributes and NonResourceAuthorizationAttributes must be set */
export interface SelfSubjectAccessReviewSpec {
  /**
   * ResourceAuthorizationAttributes describes information for a resource access request
   * @kgen:protobuf 1
   */
  resourceAttributes?: ResourceAttributes;
  /**
   * NonResourceAttributes describes information for a non-resource access request
   * @kgen:protobuf 2
   */
  nonResourceAttributes?: NonResourceAttributes;
}

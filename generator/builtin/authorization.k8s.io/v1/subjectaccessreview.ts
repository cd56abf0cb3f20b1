// Built-in: authorization.k8s.io/v1 SubjectAccessReview and LocalSubjectAccessReview: create-only
// and never stored; the server answers from its authorizer for the user, groups and extra the
// spec names (runtime/authorization/reviews.ts). Aggregated API servers send these to authorize
// every request they serve (kube's delegating authorization).
import type { NonResourceAttributes, ResourceAttributes, SubjectAccessReviewStatus } from './attributes.js';

/**
 * SubjectAccessReview checks whether or not a user or group can perform an action.
 * @kgen:resource scope=Cluster
 * @kgen:virtual
 */
export interface SubjectAccessReview {
  /**
   * Spec holds information about the request being evaluated
   * @kgen:protobuf 2
   */
  spec: SubjectAccessReviewSpec;
  /**
   * Status is filled in by the server and indicates whether the request is allowed or not
   * @kgen:protobuf 3
   */
  status?: SubjectAccessReviewStatus;
}

/**
 * LocalSubjectAccessReview checks whether or not a user or group can perform an action in a given namespace. Having a namespace scoped resource makes it much easier to grant namespace scoped policy that includes permissions checking.
 * @kgen:resource scope=Namespaced
 * @kgen:virtual
 */
export interface LocalSubjectAccessReview {
  /**
   * Spec holds information about the request being evaluated.  spec.namespace must be equal to the namespace you made the request against.  If empty, it is defaulted.
   * @kgen:protobuf 2
   */
  spec: SubjectAccessReviewSpec;
  /**
   * Status is filled in by the server and indicates whether the request is allowed or not
   * @kgen:protobuf 3
   */
  status?: SubjectAccessReviewStatus;
}

/** SubjectAccessReviewSpec is a description of the access request.  Exactly one of ResourceAuthorizationAttributes and NonResourceAuthorizationAttributes must be set */
export interface SubjectAccessReviewSpec {
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
  /**
   * User is the user you're testing for. If you specify "User" but not "Groups", then is it interpreted as "What if User were not a member of any groups
   * @kgen:protobuf 3
   */
  user?: string;
  /**
   * Groups is the groups you're testing for.
   * @kgen:listType atomic
   * @kgen:protobuf 4
   */
  groups?: string[];
  /**
   * Extra corresponds to the user.Info.GetExtra() method from the authenticator.  Since that is input to the authorizer it needs a reflection here.
   * @kgen:protobuf 5
   */
  extra?: Record<string, string[]>;
  /**
   * UID information about the requesting user.
   * @kgen:protobuf 6
   */
  uid?: string;
}

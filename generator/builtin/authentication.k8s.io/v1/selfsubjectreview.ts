// Built-in: authentication.k8s.io/v1 SelfSubjectReview (`kubectl auth whoami`): create-only and
// never stored; the server answers with the requesting user's attributes.
import type { UserInfo } from './userinfo.js';

/**
 * SelfSubjectReview contains the user information that the kube-apiserver has about the user making this request. When using impersonation, users will receive the user info of the user being impersonated.  If impersonation or request header authentication is used, any extra keys will have their case ignored and returned as lowercase.
 * @kgen:resource scope=Cluster
 * @kgen:virtual
 * @kgen:storageversion
 */
export interface SelfSubjectReview {
  /**
   * Status is filled in by the server with the user attributes.
   * @kgen:protobuf 2
   */
  status?: SelfSubjectReviewStatus;
}

/** SelfSubjectReviewStatus is filled by the kube-apiserver and sent back to a user. */
export interface SelfSubjectReviewStatus {
  /**
   * User attributes of the user making this request.
   * @kgen:protobuf 1
   */
  userInfo?: UserInfo;
}

// Built-in: authentication.k8s.io/v1 TokenReview: create-only and never stored; the server
// answers with what its own token authenticators make of spec.token
// (runtime/authentication/reviews.ts). Aggregated API servers send these to authenticate the
// bearer tokens they are given (kube's delegating authentication).
import type { UserInfo } from './userinfo.js';

/**
 * TokenReview attempts to authenticate a token to a known user. Note: TokenReview requests may be cached by the webhook token authenticator plugin in the kube-apiserver.
 * @kgen:resource scope=Cluster
 * @kgen:virtual
 */
export interface TokenReview {
  /**
   * Spec holds information about the request being evaluated
   * @kgen:protobuf 2
   */
  spec: TokenReviewSpec;
  /**
   * Status is filled in by the server and indicates whether the request can be authenticated.
   * @kgen:protobuf 3
   */
  status?: TokenReviewStatus;
}

/** TokenReviewSpec is a description of the token authentication request. */
export interface TokenReviewSpec {
  /**
   * Token is the opaque bearer token.
   * @kgen:protobuf 1
   */
  token?: string;
  /**
   * Audiences is a list of the identifiers that the resource server presented with the token identifies as. Audience-aware token authenticators will verify that the token was intended for at least one of the audiences in this list. If no audiences are provided, the audience will default to the audience of the Kubernetes apiserver.
   * @kgen:listType atomic
   * @kgen:protobuf 2
   */
  audiences?: string[];
}

/** TokenReviewStatus is the result of the token authentication request. */
export interface TokenReviewStatus {
  /**
   * Authenticated indicates that the token was associated with a known user.
   * @kgen:protobuf 1
   */
  authenticated?: boolean;
  /**
   * User is the UserInfo associated with the provided token.
   * @kgen:protobuf 2
   */
  user?: UserInfo;
  /**
   * Audiences are audience identifiers chosen by the authenticator that are compatible with both the TokenReview and token. An identifier is any identifier in the intersection of the TokenReviewSpec audiences and the token's audiences. A client of the TokenReview API that sets the spec.audiences field should validate that a compatible audience identifier is returned in the status.audiences field to ensure that the TokenReview server is audience aware. If a TokenReview returns an empty status.audience field where status.authenticated is "true", the token is valid against the audience of the Kubernetes API server.
   * @kgen:listType atomic
   * @kgen:protobuf 4
   */
  audiences?: string[];
  /**
   * Error indicates that the token couldn't be checked
   * @kgen:protobuf 3
   */
  error?: string;
}

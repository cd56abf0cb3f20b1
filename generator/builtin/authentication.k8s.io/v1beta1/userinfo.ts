// Built-in: authentication.k8s.io/v1beta1 UserInfo (k8s.io/api/authentication/v1), shared by
// SelfSubjectReview, written in the kgen input language.

/** UserInfo holds the information about the user needed to implement the user.Info interface. */
export interface UserInfo {
  /**
   * The name that uniquely identifies this user among all active users.
   * @kgen:protobuf 1
   */
  username?: string;
  /**
   * A unique value that identifies this user across time. If this user is deleted and another user by the same name is added, they will have different UIDs.
   * @kgen:protobuf 2
   */
  uid?: string;
  /**
   * The names of groups this user is a part of.
   * @kgen:listType atomic
   * @kgen:protobuf 3
   */
  groups?: string[];
  /**
   * Any additional information provided by the authenticator.
   * @kgen:protobuf 4
   */
  extra?: Record<string, string[]>;
}

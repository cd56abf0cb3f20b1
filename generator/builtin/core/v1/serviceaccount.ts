// Built-in: core/v1 ServiceAccount (k8s.io/api/core/v1 field names), written in the kgen input
// language. Its TokenRequest subresource (`serviceaccounts/<name>/token`) is served by
// runtime/registry/core/tokenrequest.ts; every namespace gets a `default` ServiceAccount.
import type { ObjectReference } from './event.js';

/**
 * ServiceAccount binds together: * a name, understood by users, and perhaps by peripheral
 * systems, for an identity * a principal that can be authenticated and authorized * a set of
 * secrets
 * @kgen:resource scope=Namespaced shortNames=sa
 */
export interface ServiceAccount {
  /**
   * Secrets is a list of the secrets in the same namespace that pods running using this
   * ServiceAccount are allowed to use.
   * @kgen:listType atomic
   * @kgen:protobuf 2
   */
  secrets?: ObjectReference[];
  /**
   * ImagePullSecrets is a list of references to secrets in the same namespace to use for pulling
   * any images in pods that reference this ServiceAccount.
   * @kgen:listType atomic
   * @kgen:protobuf 3
   */
  imagePullSecrets?: LocalObjectReference[];
  /**
   * AutomountServiceAccountToken indicates whether pods running as this service account should have an API token automatically mounted.
   * @kgen:protobuf 4 pointer
   */
  automountServiceAccountToken?: boolean;
}

/** LocalObjectReference contains enough information to let you locate the referenced object inside the same namespace. */
export interface LocalObjectReference {
  /**
   * Name of the referent.
   * @default ""
   * @kgen:protobuf 1
   */
  name?: string;
}

/**
 * The identity and decision types the authentication, authorization, admission and audit layers
 * share (k8s.io/apiserver/pkg/authentication/user, authorization/authorizer, admission).
 */
import type { KubeObject } from './meta.js';

/** An authenticated (or anonymous) user, as kube's user.Info. */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export const ANONYMOUS_USER: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

/** What is being asked, as kube's authorizer.Attributes. */
export interface AuthorizationAttributes {
  user: UserInfo;
  /** Resource verbs (get, list, watch, create, update, patch, delete, deletecollection, impersonate, escalate, bind, …) or lower-case HTTP methods for non-resource paths. */
  verb: string;
  isResourceRequest: boolean;
  /** The URL path, for non-resource requests. */
  path: string;
  namespace: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  name: string;
}

export type AuthorizationDecision = 'Allow' | 'Deny' | 'NoOpinion';

export interface AuthorizationResult {
  decision: AuthorizationDecision;
  /** Why, for the 403 message and audit annotations. */
  reason: string;
}

export interface Authorizer {
  /** The decision now when it needs no waiting (RBAC, privileged groups), else its promise. */
  authorize(attributes: AuthorizationAttributes): AuthorizationResult | Promise<AuthorizationResult>;
}

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/**
 * An object of another version of a kind, converted to the version a request is served in (a
 * compiled kind's conversion; a CRD's None or Webhook conversion); undefined when its apiVersion
 * is not a version of the kind (one that registers it, or one the CRD lists). Throws the
 * conversion's own error (a conversion webhook's failure).
 */
export type VersionConverter = (obj: KubeObject) => Promise<KubeObject | undefined>;

/** Applies the defaults of an object's own version of a kind in place (see AdmissionAttributes.defaultVersion). */
export type VersionDefaulter = (obj: KubeObject) => void;

/** What admission sees of a write, as kube's admission.Attributes. */
export interface AdmissionAttributes {
  operation: AdmissionOperation;
  /** The new object (CREATE, UPDATE); mutating admission may change it in place. */
  object?: KubeObject;
  /** The current object (UPDATE, DELETE). */
  oldObject?: KubeObject;
  user: UserInfo;
  namespace: string;
  /** The object's name (on a create by POST, the new object's). */
  name: string;
  /**
   * The name in the request's URL, kube's RequestInfo.Name: '' on a create by POST. Checks that
   * kube makes against the request rather than the object (the `escalate` verb) use it; absent
   * when no request is behind the write, and then `name` stands in.
   */
  requestName?: string;
  resource: { group: string; version: string; resource: string };
  subresource: string;
  kind: { group: string; version: string; kind: string };
  /**
   * The object is a custom resource (a CRD's kind, not its scale): kube decodes it unstructured,
   * so a webhook's patch may give it another kind, which the custom resource validator refuses.
   */
  customResource?: boolean;
  /**
   * The storage's converter for the object's kind (absent for a subresource's own kind such as
   * Scale): a mutating webhook's patch may give the object another version of its kind, which
   * kube decodes and converts back to the request's version (runtime.Convert).
   */
  convertVersion?: VersionConverter;
  /**
   * kube's ObjectDefaulter for the object's kind (absent where convertVersion is): applies, in
   * place, the defaults of the object's own apiVersion when it is a version of the kind, and
   * leaves any other object alone. A mutating webhook's patched object is defaulted in the version
   * the patch gave it before it is converted back (`Default(newVersionedObject)`).
   */
  defaultVersion?: VersionDefaulter;
  dryRun: boolean;
  /** CreateOptions / UpdateOptions / PatchOptions / DeleteOptions as kube sends them to webhooks. */
  options?: Record<string, unknown>;
}

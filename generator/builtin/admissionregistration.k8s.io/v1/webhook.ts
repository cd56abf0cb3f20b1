// Built-in: the parts admissionregistration.k8s.io/v1 MutatingWebhook and ValidatingWebhook share,
// written in the kgen input language (k8s.io/api/admissionregistration/v1).
import type { int32, LabelSelector } from 'kgen';

/** WebhookClientConfig contains the information to make a TLS connection with the webhook. */
export interface WebhookClientConfig {
  /**
   * url gives the location of the webhook, in standard URL form (`scheme://host:port/path`).
   * Exactly one of `url` or `service` must be specified; the scheme must be "https".
   * @kgen:protobuf 3 pointer
   */
  url?: string;
  /**
   * service is a reference to the service for this webhook. kgen has no Services: unsupported.
   * @kgen:protobuf 1
   */
  service?: ServiceReference;
  /**
   * caBundle is a PEM encoded CA bundle which will be used to validate the webhook's server
   * certificate. If unspecified, system trust roots on the apiserver are used.
   * @format byte
   * @kgen:protobuf 2
   */
  caBundle?: string;
}

/** ServiceReference holds a reference to Service.legacy.k8s.io. */
export interface ServiceReference {
  /**
   * namespace is the namespace of the service.
   * @kgen:protobuf 1
   */
  namespace: string;
  /**
   * name is the name of the service.
   * @kgen:protobuf 2
   */
  name: string;
  /**
   * path is an optional URL path which will be sent in any request to this service.
   * @kgen:protobuf 3 pointer
   */
  path?: string;
  /**
   * port is the port on the service that is hosting the webhook. Default to 443.
   * @default 443
   * @kgen:protobuf 4 pointer
   */
  port?: int32;
}

/** The operations an admission rule matches. */
export type OperationType = '*' | 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** RuleWithOperations is a tuple of Operations and Resources. */
export interface RuleWithOperations {
  /**
   * Operations is the operations the admission hook cares about - CREATE, UPDATE, DELETE, CONNECT
   * or * for all of those operations and any future admission operations that are added.
   * @kgen:listType atomic
   * @kgen:protobuf 1
   */
  operations?: OperationType[];
  /**
   * APIGroups is the API groups the resources belong to. '*' is all groups.
   * @kgen:listType atomic
   * @kgen:protobuf 2.1
   */
  apiGroups?: string[];
  /**
   * APIVersions is the API versions the resources belong to. '*' is all versions.
   * @kgen:listType atomic
   * @kgen:protobuf 2.2
   */
  apiVersions?: string[];
  /**
   * Resources is a list of resources this rule applies to: 'pods', 'pods/status', '*' (all
   * resources, not subresources), '*' + '/scale', 'pods/*', '* / *' without spaces (everything).
   * @kgen:listType atomic
   * @kgen:protobuf 2.3
   */
  resources?: string[];
  /**
   * scope specifies the scope of this rule: "Cluster", "Namespaced" or "*".
   * @default "*"
   * @kgen:protobuf 2.4
   */
  scope?: '*' | 'Cluster' | 'Namespaced';
}

/** FailurePolicyType specifies how unrecognized errors from the admission endpoint are handled. */
export type FailurePolicyType = 'Ignore' | 'Fail';

/** MatchPolicyType specifies the type of match policy. */
export type MatchPolicyType = 'Exact' | 'Equivalent';

/** SideEffectClass specifies the types of side effects a webhook may have. */
export type SideEffectClass = 'Unknown' | 'None' | 'Some' | 'NoneOnDryRun';

/**
 * The fields every admission webhook has, with the same numbers in both messages (kgen's input
 * language has no struct embedding). objectSelector is numbered differently in the two, so each
 * declares it.
 */
export interface WebhookCommon {
  /**
   * The name of the admission webhook, fully qualified, e.g. imagepolicy.kubernetes.io.
   * @kgen:protobuf 1
   */
  name: string;
  /**
   * ClientConfig defines how to communicate with the hook.
   * @kgen:protobuf 2
   */
  clientConfig: WebhookClientConfig;
  /**
   * Rules describes what operations on what resources/subresources the webhook cares about.
   * @kgen:listType atomic
   * @kgen:protobuf 3
   */
  rules?: RuleWithOperations[];
  /**
   * FailurePolicy defines how unrecognized errors from the admission endpoint are handled.
   * @default "Fail"
   * @kgen:protobuf 4 pointer
   */
  failurePolicy?: FailurePolicyType;
  /**
   * matchPolicy defines how the "rules" list is used to match incoming requests.
   * @default "Equivalent"
   * @kgen:protobuf 9 pointer
   */
  matchPolicy?: MatchPolicyType;
  /**
   * NamespaceSelector decides whether to run the webhook on an object based on whether the
   * namespace for that object matches the selector.
   * @default {}
   * @kgen:protobuf 5
   */
  namespaceSelector?: LabelSelector;
  /**
   * SideEffects states whether this webhook has side effects: None, NoneOnDryRun (Some and Unknown are not allowed in v1).
   * @kgen:protobuf 6 pointer
   */
  sideEffects: SideEffectClass;
  /**
   * TimeoutSeconds specifies the timeout for this webhook: between 1 and 30 seconds.
   * @default 10
   * @kgen:protobuf 7 pointer
   */
  timeoutSeconds?: int32;
  /**
   * AdmissionReviewVersions is an ordered list of preferred `AdmissionReview` versions the
   * Webhook expects. kgen sends v1.
   * @kgen:listType atomic
   * @kgen:protobuf 8
   */
  admissionReviewVersions: string[];
}

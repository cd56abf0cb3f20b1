/**
 * admissionregistration.k8s.io/v1 webhook configurations as the runtime reads them (the
 * generated models of the built-in API have the same shape; the runtime does not import
 * generated code).
 */
import type { KubeObject } from '../../api/meta.js';

export const ADMISSIONREGISTRATION_GROUP = 'admissionregistration.k8s.io';
export const MUTATING_RESOURCE = 'mutatingwebhookconfigurations';
export const VALIDATING_RESOURCE = 'validatingwebhookconfigurations';

export interface MetaLabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface RuleWithOperations {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: '*' | 'Cluster' | 'Namespaced';
}

export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  /** Base64 of a PEM bundle. */
  caBundle?: string;
}

export interface Webhook {
  name: string;
  clientConfig: WebhookClientConfig;
  rules?: RuleWithOperations[];
  failurePolicy?: 'Ignore' | 'Fail';
  matchPolicy?: 'Exact' | 'Equivalent';
  namespaceSelector?: MetaLabelSelector;
  objectSelector?: MetaLabelSelector;
  sideEffects?: 'None' | 'NoneOnDryRun' | 'Some' | 'Unknown';
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  /** Mutating webhooks only. */
  reinvocationPolicy?: 'Never' | 'IfNeeded';
}

export interface WebhookConfiguration extends KubeObject {
  webhooks?: Webhook[];
}

export type WebhookType = 'mutating' | 'validating';

/** One webhook of one configuration, as the dispatchers see it. */
export interface WebhookAccessor {
  /** `<configuration>/<index>`: unique among the webhooks of one type. */
  uid: string;
  configurationName: string;
  webhook: Webhook;
}

/** kube's default timeoutSeconds for admissionregistration/v1 webhooks. */
export const DEFAULT_TIMEOUT_SECONDS = 10;

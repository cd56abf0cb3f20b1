/**
 * admissionregistration.k8s.io/v1 webhook configurations as the runtime reads them. The types
 * are the generated models of kgen's built-in API (generator/builtin/admissionregistration.k8s.io/v1,
 * compiled into generated/models), imported as types only.
 */
import type { KubeObject } from '../../api/meta.js';
import type { MutatingWebhook, ValidatingWebhook } from '../../../generated/models/admissionregistration.k8s.io/v1.js';

export type { RuleWithOperations, WebhookClientConfig } from '../../../generated/models/admissionregistration.k8s.io/v1.js';
export type { LabelSelector as MetaLabelSelector } from '../../types/index.js';

export const ADMISSIONREGISTRATION_GROUP = 'admissionregistration.k8s.io';
export const MUTATING_RESOURCE = 'mutatingwebhookconfigurations';
export const VALIDATING_RESOURCE = 'validatingwebhookconfigurations';

/** A webhook of either configuration kind (the fields they share, and the mutating one's reinvocationPolicy). */
export type Webhook = ValidatingWebhook & Pick<MutatingWebhook, 'reinvocationPolicy'>;

/** A stored Mutating- or ValidatingWebhookConfiguration. */
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

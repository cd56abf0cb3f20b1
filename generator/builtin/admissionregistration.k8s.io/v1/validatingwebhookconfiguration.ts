// Built-in: admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration, written in the kgen
// input language and compiled by kgen like any user API.
import type { LabelSelector } from 'kgen';
import type { WebhookCommon } from './webhook.js';

/**
 * ValidatingWebhookConfiguration describes the configuration of an admission webhook that
 * accepts or rejects an object without changing it.
 * @kgen:resource scope=Cluster
 */
export interface ValidatingWebhookConfiguration {
  /**
   * Webhooks is a list of webhooks and the affected resources and operations.
   * @kgen:listType map
   * @kgen:listMapKey name
   * @kgen:protobuf 2
   */
  webhooks?: ValidatingWebhook[];
}

/** ValidatingWebhook describes an admission webhook and the resources and operations it applies to. */
export interface ValidatingWebhook extends WebhookCommon {
  /**
   * ObjectSelector decides whether to run the webhook based on if the object has matching labels.
   * @default {}
   * @kgen:protobuf 10
   */
  objectSelector?: LabelSelector;
}

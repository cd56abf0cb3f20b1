// Built-in: admissionregistration.k8s.io/v1 MutatingWebhookConfiguration, written in the kgen
// input language and compiled by kgen like any user API.
import type { LabelSelector } from 'kgen';
import type { WebhookCommon } from './webhook.js';

/**
 * MutatingWebhookConfiguration describes the configuration of an admission webhook that
 * accepts or rejects and may change an object.
 * @kgen:resource scope=Cluster
 */
export interface MutatingWebhookConfiguration {
  /**
   * Webhooks is a list of webhooks and the affected resources and operations.
   * @kgen:listType map
   * @kgen:listMapKey name
   * @kgen:protobuf 2
   */
  webhooks?: MutatingWebhook[];
}

/** MutatingWebhook describes an admission webhook and the resources and operations it applies to. */
export interface MutatingWebhook extends WebhookCommon {
  /**
   * ObjectSelector decides whether to run the webhook based on if the object has matching labels.
   * @default {}
   * @kgen:protobuf 11
   */
  objectSelector?: LabelSelector;
  /**
   * reinvocationPolicy indicates whether this webhook should be called multiple times as part of
   * a single admission evaluation: "Never" or "IfNeeded".
   * @default "Never"
   * @kgen:protobuf 10 pointer
   */
  reinvocationPolicy?: 'Never' | 'IfNeeded';
}

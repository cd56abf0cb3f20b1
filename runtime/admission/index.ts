/**
 * Admission (k8s.io/apiserver/pkg/admission): what runs between a write's decoding and its
 * storage. The plugin interface other layers implement (NamespaceLifecycle, RBAC escalation, …):
 *
 *   export interface AdmissionPlugin {
 *     readonly name: string;
 *     handles?(operation: AdmissionOperation): boolean;
 *     mutate?(attrs: AdmissionAttributes, ctx: AdmissionContext): void | Promise<void>;   // may change attrs.object
 *     validate?(attrs: AdmissionAttributes, ctx: AdmissionContext): void | Promise<void>; // throw to deny
 *   }
 *
 * Pass plugins as ServerOptions.admissionPlugins (or chain.addPlugin). Throw a StatusError to
 * answer with it; any other error becomes kube's 403 `<resource> "<name>" is forbidden: <msg>`.
 */
export type {
  AdmissionAttributes,
  AdmissionContext,
  AdmissionHooks,
  AdmissionOperation,
  AdmissionPlugin,
  TypedAdmissionAttributes,
} from '../api/admission.js';
export { AdmissionChain, type AdmissionAPIs, type ResourceAdmission } from './chain.js';
export { newAdmissionChain, loadAdmissionModules } from './setup.js';
export { newAdmissionForbidden, webhookDenied, failedCallingWebhook, ErrCallingWebhook } from './errors.js';
export { Webhooks, type WebhooksConfig } from './webhook/webhooks.js';
export { WebhookConfigurationSource } from './webhook/source.js';
export { shouldCallHook, ruleMatches, selectorMatches } from './webhook/matcher.js';
export { newAdmissionReview, verifyAdmissionResponse, ADMISSION_API_VERSION, type AdmissionReview, type AdmissionRequest } from './webhook/review.js';
export { validateWebhookConfiguration, webhookConfigurationValidation } from './webhook/validation.js';
export type { Webhook, WebhookConfiguration, WebhookClientConfig, RuleWithOperations } from './webhook/types.js';

/**
 * Validation of Mutating/ValidatingWebhookConfigurations beyond their schema (kube's
 * admissionregistration validation.go, v1 rules), run as an in-process validating admission
 * plugin so a bad configuration is a 422 before it is stored.
 */
import type { AdmissionAttributes } from '../../api/auth.js';
import { newInvalid } from '../../api/status.js';
import { field, isDNS1123Subdomain, toStatusCauses, type FieldError } from '../../validation/index.js';
import { validateLabelSelector } from '../../validation/labelselector.js';
import type { AdmissionPlugin } from '../../api/admission.js';
import { ADMISSIONREGISTRATION_GROUP, MUTATING_RESOURCE, VALIDATING_RESOURCE, type RuleWithOperations, type Webhook, type WebhookConfiguration } from './types.js';

const REVIEW_VERSIONS = ['v1', 'v1beta1'];
const SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const OPERATIONS = ['*', 'CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

export function validateWebhook(hook: Webhook, path: string, mutating: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const name = hook.name ?? '';
  for (const msg of isDNS1123Subdomain(name)) errs.push(field.invalid(`${path}.name`, name, msg));
  if (name.split('.').length < 3) errs.push(field.invalid(`${path}.name`, name, 'should be a domain with at least three segments separated by dots'));
  (hook.rules ?? []).forEach((rule, i) => errs.push(...validateRule(rule, `${path}.rules[${i}]`)));
  const versions = hook.admissionReviewVersions ?? [];
  if (versions.length === 0 || !versions.some((v) => REVIEW_VERSIONS.includes(v))) {
    errs.push(field.required(`${path}.admissionReviewVersions`, `must include at least one of ${REVIEW_VERSIONS.join(', ')}`));
  }
  if (!hook.sideEffects) errs.push(field.required(`${path}.sideEffects`, `must specify one of ${SIDE_EFFECTS.join(', ')}`));
  else if (!SIDE_EFFECTS.includes(hook.sideEffects)) errs.push(field.notSupported(`${path}.sideEffects`, hook.sideEffects, SIDE_EFFECTS));
  const timeout = hook.timeoutSeconds;
  if (timeout !== undefined && (timeout < 1 || timeout > 30)) errs.push(field.invalid(`${path}.timeoutSeconds`, timeout, 'the timeout value must be between 1 and 30 seconds'));
  errs.push(...validateClientConfig(hook, `${path}.clientConfig`));
  errs.push(...validateLabelSelector(hook.namespaceSelector, `${path}.namespaceSelector`));
  errs.push(...validateLabelSelector(hook.objectSelector, `${path}.objectSelector`));
  if (!mutating && (hook as { reinvocationPolicy?: unknown }).reinvocationPolicy !== undefined) {
    errs.push(field.forbidden(`${path}.reinvocationPolicy`, 'only mutating webhooks may be reinvoked'));
  }
  return errs;
}

function validateClientConfig(hook: Webhook, path: string): FieldError[] {
  const { url, service } = hook.clientConfig ?? {};
  if (url !== undefined && service !== undefined) return [field.required(path, 'exactly one of url or service is required')];
  if (service !== undefined) return validateWebhookService(service, `${path}.service`);
  if (url === undefined) return [field.required(path, 'exactly one of url or service is required')];
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [field.invalid(`${path}.url`, url, 'host must be specified')];
  }
  const errs: FieldError[] = [];
  if (parsed.protocol !== 'https:') errs.push(field.invalid(`${path}.url`, url, "'https' is the only allowed URL scheme"));
  if (!parsed.hostname) errs.push(field.invalid(`${path}.url`, url, 'host must be specified'));
  if (parsed.username || parsed.password) errs.push(field.invalid(`${path}.url`, url, 'user information is not permitted in the URL'));
  if (parsed.hash) errs.push(field.invalid(`${path}.url`, url, 'fragments are not permitted in the URL'));
  if (parsed.search) errs.push(field.invalid(`${path}.url`, url, 'query parameters are not permitted in the URL'));
  return errs;
}

/** kube's ValidateWebhookService. */
function validateWebhookService(service: { namespace?: string; name?: string; path?: string; port?: number }, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!service.name) errs.push(field.required(`${path}.name`, 'service name is required'));
  if (!service.namespace) errs.push(field.required(`${path}.namespace`, 'service namespace is required'));
  const port = service.port ?? 443;
  if (!Number.isInteger(port) || port < 1 || port > 65535) errs.push(field.invalid(`${path}.port`, port, 'port is not valid: must be between 1 and 65535, inclusive'));
  const urlPath = service.path;
  if (urlPath === undefined || urlPath === '' || urlPath === '/') return errs;
  if (urlPath === '//') return [...errs, field.invalid(`${path}.path`, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errs.push(field.invalid(`${path}.path`, urlPath, "must start with a '/'"));
  return errs;
}

function validateRule(rule: RuleWithOperations, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const list = (values: string[] | undefined, name: string) => {
    if (!values || values.length === 0) errs.push(field.required(`${path}.${name}`));
    else if (values.length > 1 && values.includes('*')) errs.push(field.invalid(`${path}.${name}`, values, 'if \'*\' is present, must not specify other values'));
  };
  list(rule.operations, 'operations');
  list(rule.apiGroups, 'apiGroups');
  list(rule.apiVersions, 'apiVersions');
  (rule.operations ?? []).forEach((op, i) => {
    if (!OPERATIONS.includes(op)) errs.push(field.notSupported(`${path}.operations[${i}]`, op, OPERATIONS));
  });
  const resources = rule.resources ?? [];
  if (resources.length === 0) errs.push(field.required(`${path}.resources`));
  resources.forEach((res, i) => {
    if (res === '') errs.push(field.required(`${path}.resources[${i}]`));
    else if (res.split('/').length > 2 || res.startsWith('/') || res.endsWith('/')) {
      errs.push(field.invalid(`${path}.resources[${i}]`, res, 'must be of the form resource or resource/subresource'));
    }
  });
  return errs;
}

export function validateWebhookConfiguration(config: WebhookConfiguration, mutating: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (config.webhooks ?? []).forEach((hook, i) => {
    errs.push(...validateWebhook(hook, `webhooks[${i}]`, mutating));
    if (seen.has(hook.name)) errs.push(field.duplicate(`webhooks[${i}].name`, hook.name));
    seen.add(hook.name);
  });
  return errs;
}

/** The plugin: 422 Invalid for a configuration kgen could not call. */
export const webhookConfigurationValidation: AdmissionPlugin = {
  name: 'WebhookConfigurationValidation',
  handles: (op) => op === 'CREATE' || op === 'UPDATE',
  validate(attrs: AdmissionAttributes) {
    const { group, resource } = attrs.resource;
    if (group !== ADMISSIONREGISTRATION_GROUP || attrs.subresource !== '' || !attrs.object) return;
    if (resource !== MUTATING_RESOURCE && resource !== VALIDATING_RESOURCE) return;
    const errs = validateWebhookConfiguration(attrs.object as WebhookConfiguration, resource === MUTATING_RESOURCE);
    if (errs.length > 0) throw newInvalid({ group, kind: attrs.kind.kind }, attrs.object.metadata.name ?? attrs.name, toStatusCauses(errs));
  },
};

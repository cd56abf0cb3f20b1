/**
 * Validation of spec.conversion.webhook (apiextensions validation.go validateCustomResourceConversion:
 * validateConversionReviewVersions and the clientConfig checks of k8s.io/apiserver/pkg/util/webhook
 * ValidateWebhookURL / ValidateWebhookService). kube validates the internal version, so its
 * field paths are `spec.conversion.webhookClientConfig` and `spec.conversion.conversionReviewVersions`;
 * kgen reports the same paths. A service clientConfig is valid (as in kube) but kgen cannot call
 * it: conversions then fail with a message saying so (webhook-converter.ts).
 */
import { field, isDNS1035Label, type FieldError } from '../validation/index.js';
import type { WebhookConversion } from './webhook-converter.js';
import { SUPPORTED_REVIEW_VERSIONS } from './conversion-review.js';

/** `path` is the conversion's (`spec.conversion`). */
export function validateWebhookConversion(webhook: WebhookConversion, path: string): FieldError[] {
  return [...validateClientConfig(webhook.clientConfig, `${path}.webhookClientConfig`), ...validateReviewVersions(webhook.conversionReviewVersions, `${path}.conversionReviewVersions`)];
}

function validateReviewVersions(versions: string[] | undefined, path: string): FieldError[] {
  const supported = SUPPORTED_REVIEW_VERSIONS.join(', ');
  if (!versions || versions.length === 0) return [field.required(path)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(field.invalid(`${path}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errs.push(field.invalid(`${path}[${i}]`, v, msg));
  });
  if (!versions.some((v) => (SUPPORTED_REVIEW_VERSIONS as readonly string[]).includes(v))) {
    errs.push(field.invalid(path, versions, `must include at least one of ${supported}`));
  }
  return errs;
}

function validateClientConfig(cc: WebhookConversion['clientConfig'], path: string): FieldError[] {
  if (!cc) return [field.required(path, 'required when strategy is set to Webhook')];
  const hasURL = cc.url !== undefined && cc.url !== null;
  const hasService = cc.service !== undefined && cc.service !== null;
  if (hasURL === hasService) return [field.required(path, 'exactly one of url or service is required')];
  if (hasService) {
    const errs: FieldError[] = [];
    const svc = cc.service!;
    if (!svc.name) errs.push(field.required(`${path}.service.name`, 'service name is required'));
    if (!svc.namespace) errs.push(field.required(`${path}.service.namespace`, 'service namespace is required'));
    if (svc.port !== undefined && (svc.port < 1 || svc.port > 65535)) errs.push(field.invalid(`${path}.service.port`, svc.port, 'port is not valid: must be between 1 and 65535, inclusive'));
    if (svc.path !== undefined && svc.path !== '' && !svc.path.startsWith('/')) errs.push(field.invalid(`${path}.service.path`, svc.path, "must start with a '/'"));
    return errs;
  }
  return validateURL(cc.url!, `${path}.url`);
}

/** ValidateWebhookURL with forceHttps. */
function validateURL(raw: string, path: string): FieldError[] {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return [field.invalid(path, raw, 'host must be specified')];
  }
  const errs: FieldError[] = [];
  if (url.protocol !== 'https:') errs.push(field.invalid(path, raw, "'https' is the only allowed URL scheme"));
  if (!url.hostname) errs.push(field.invalid(path, raw, 'host must be specified'));
  if (url.username || url.password) errs.push(field.invalid(path, raw, 'user information is not permitted in the URL'));
  if (url.hash || raw.includes('#')) errs.push(field.invalid(path, raw, 'fragments are not permitted in the URL'));
  if (url.search || raw.includes('?')) errs.push(field.invalid(path, raw, 'query parameters are not permitted in the URL'));
  return errs;
}

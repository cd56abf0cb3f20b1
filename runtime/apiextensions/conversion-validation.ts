/**
 * Validation of spec.conversion (apiextensions validation.go validateCustomResourceConversion,
 * validateConversionReviewVersions, and k8s.io/apiserver/pkg/util/webhook ValidateWebhookURL /
 * ValidateWebhookService / ValidateCABundle). kube validates the internal version, so its field
 * paths are `spec.conversion.webhookClientConfig` and `spec.conversion.conversionReviewVersions`
 * even for a v1 CRD (whose fields are spec.conversion.webhook.{clientConfig,conversionReviewVersions});
 * kgen reports the same paths. A service clientConfig is valid (as in kube).
 */
import { X509Certificate } from 'node:crypto';
import { field, isDNS1035Label, isDNS1123Subdomain, type FieldError } from '../validation/index.js';
import type { WebhookConversion } from './webhook-converter.js';
import { SUPPORTED_REVIEW_VERSIONS } from './conversion-review.js';

export interface ConversionValidationOptions {
  /** conversionReviewVersions must name one kube understands (false on update when the old list had none). */
  requireRecognizedConversionReviewVersion: boolean;
  /** An invalid caBundle is allowed (on create, before the CRD is established, or when the old one was invalid too). */
  allowInvalidCABundle: boolean;
}

/** validateCustomResourceConversion; `path` is the conversion's (`spec.conversion`). */
export function validateConversion(conversion: { strategy?: string; webhook?: WebhookConversion | null } | undefined | null, path: string, opts: ConversionValidationOptions): FieldError[] {
  if (!conversion) return [];
  const errs: FieldError[] = [];
  if (!conversion.strategy) errs.push(field.required(`${path}.strategy`));
  else if (conversion.strategy !== 'None' && conversion.strategy !== 'Webhook') errs.push(field.notSupported(`${path}.strategy`, conversion.strategy, ['None', 'Webhook']));
  const cc = conversion.webhook?.clientConfig;
  const reviewVersions = conversion.webhook?.conversionReviewVersions;
  if (conversion.strategy === 'Webhook') {
    errs.push(...validateClientConfig(cc, `${path}.webhookClientConfig`, opts));
    errs.push(...validateReviewVersions(reviewVersions, `${path}.conversionReviewVersions`, opts.requireRecognizedConversionReviewVersion));
  } else {
    if (cc !== undefined && cc !== null) errs.push(field.forbidden(`${path}.webhookClientConfig`, 'should not be set when strategy is not set to Webhook'));
    if (reviewVersions && reviewVersions.length > 0) errs.push(field.forbidden(`${path}.conversionReviewVersions`, 'should not be set when strategy is not set to Webhook'));
  }
  return errs;
}

/** hasValidConversionReviewVersionOrEmpty: whether an update must name a recognized review version. */
export function hasValidConversionReviewVersionOrEmpty(versions: string[] | undefined): boolean {
  return !versions || versions.length === 0 || versions.some((v) => (SUPPORTED_REVIEW_VERSIONS as readonly string[]).includes(v));
}

function validateReviewVersions(versions: string[] | undefined, path: string, requireRecognized: boolean): FieldError[] {
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
  if (requireRecognized && !versions.some((v) => (SUPPORTED_REVIEW_VERSIONS as readonly string[]).includes(v))) {
    errs.push(field.invalid(path, versions, `must include at least one of ${supported}`));
  }
  return errs;
}

type ClientConfig = NonNullable<WebhookConversion['clientConfig']>;

function validateClientConfig(cc: ClientConfig | undefined | null, path: string, opts: ConversionValidationOptions): FieldError[] {
  if (!cc) return [field.required(path, 'required when strategy is set to Webhook')];
  const hasURL = cc.url !== undefined && cc.url !== null;
  const hasService = cc.service !== undefined && cc.service !== null;
  const errs: FieldError[] = [];
  if (hasURL === hasService) errs.push(field.required(path, 'exactly one of url or service is required'));
  else if (hasURL) errs.push(...validateWebhookURL(cc.url!, `${path}.url`));
  else {
    const svc = cc.service!;
    if (!svc.name) errs.push(field.required(`${path}.service.name`, 'service name is required'));
    if (!svc.namespace) errs.push(field.required(`${path}.service.namespace`, 'service namespace is required'));
    // The internal type's port is an int32 defaulted to 443; a v1 CRD without one gets the default.
    if (svc.port !== undefined && (svc.port < 1 || svc.port > 65535)) errs.push(field.invalid(`${path}.service.port`, svc.port, 'port is not valid: must be between 1 and 65535, inclusive'));
    if (svc.path !== undefined && svc.path !== null) errs.push(...validateServicePath(svc.path, `${path}.service.path`));
  }
  if (cc.caBundle && !opts.allowInvalidCABundle) errs.push(...validateCABundle(cc.caBundle, `${path}.caBundle`));
  return errs;
}

/** ValidateWebhookService's path rules. */
function validateServicePath(p: string, path: string): FieldError[] {
  if (p === '' || p === '/') return [];
  if (p === '//') return [field.invalid(path, p, 'segment[0] may not be empty')];
  if (!p.startsWith('/')) return [field.invalid(path, p, "must start with a '/'")];
  let check = p.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  const errs: FieldError[] = [];
  check.split('/').forEach((step, i) => {
    if (step === '') errs.push(field.invalid(path, p, `segment[${i}] may not be empty`));
    else for (const failure of isDNS1123Subdomain(step)) errs.push(field.invalid(path, p, `segment[${i}]: ${failure}`));
  });
  return errs;
}

/** Go's url.Parse, the parts ValidateWebhookURL reads. */
function goURL(raw: string): { scheme: string; host: string; user?: string; fragment: string; query: string } | string {
  let rest = raw;
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  let scheme = '';
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest);
  if (m) {
    scheme = m[1]!.toLowerCase();
    rest = rest.slice(m[0].length);
  } else if (/^[^/?]*:/.test(rest)) return `parse ${JSON.stringify(raw)}: missing protocol scheme`;
  let query = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    query = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  let host = '';
  let user: string | undefined;
  if (rest.startsWith('//')) {
    const end = rest.indexOf('/', 2);
    let authority = end < 0 ? rest.slice(2) : rest.slice(2, end);
    const at = authority.lastIndexOf('@');
    if (at >= 0) {
      user = authority.slice(0, at);
      authority = authority.slice(at + 1);
    }
    host = authority;
  }
  return { scheme, host, user, fragment, query };
}

/** ValidateWebhookURL with forceHttps. */
export function validateWebhookURL(raw: string, path: string): FieldError[] {
  const form = '; desired format: https://host[/path]';
  const u = goURL(raw);
  if (typeof u === 'string') return [field.required(path, `url must be a valid URL: ${u}${form}`)];
  const errs: FieldError[] = [];
  if (u.scheme !== 'https') errs.push(field.invalid(path, u.scheme, `'https' is the only allowed URL scheme${form}`));
  if (u.host === '') errs.push(field.invalid(path, u.host, `host must be specified${form}`));
  if (u.user !== undefined) errs.push(field.invalid(path, u.user, 'user information is not permitted in the URL'));
  if (u.fragment !== '') errs.push(field.invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.query !== '') errs.push(field.invalid(path, u.query, 'query parameters are not permitted in the URL'));
  return errs;
}

/** ValidateCABundle: client-go's cert.ParseCertsPEM over the (base64) bundle. */
export function validateCABundle(caBundle: string, path: string): FieldError[] {
  const pem = Buffer.from(caBundle, 'base64').toString('latin1');
  const blocks = [...pem.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)-----END \1-----/g)];
  let certs = 0;
  for (const [, type, body] of blocks) {
    if (type !== 'CERTIFICATE') continue;
    try {
      new X509Certificate(Buffer.from(body!.replace(/\s+/g, ''), 'base64'));
      certs++;
    } catch (e) {
      return [field.invalid(path, caBundle, `x509: ${(e as Error).message}`)];
    }
  }
  if (certs === 0) return [field.invalid(path, caBundle, 'data does not contain any valid RSA or ECDSA certificates')];
  return [];
}

/**
 * Keeping credentials out of audit events. kube never copies request headers into events; kgen
 * goes further, because the bar is that no token ever reaches the log:
 * - query parameters that carry credentials (`access_token`, `token`) are redacted in requestURI;
 * - objects of authentication.k8s.io (TokenReview, TokenRequest, …) lose every `token` field, and
 *   core Secrets lose their `data` / `stringData` values, in kubectl's last-applied annotation too;
 * - every credential the request itself presented (bearer token, basic auth, query token) and
 *   every credential the server knows (the token file's tokens) is replaced wherever it appears
 *   in a string of the event: path, requestURI, objectRef, bodies, user agent, annotations. The
 *   request's own credentials are those it presented, read before the authenticator removed
 *   `Authorization` (RequestContext.presentedAuthorization), so a valid token that also appears
 *   in the path or body is scrubbed there too. Percent-encoded forms are scrubbed as well.
 */
import type { IncomingHttpHeaders } from 'node:http';

export const REDACTED = '[REDACTED]';

/** Query parameters clients use to pass bearer tokens (websocket clients, some proxies). */
const TOKEN_QUERY_PARAMS = new Set(['access_token', 'token']);
/** Credentials shorter than this are not scrubbed from free text: replacing them would mangle it. */
const MIN_SCRUB_LENGTH = 8;
const AUTHENTICATION_GROUP = 'authentication.k8s.io';

/** requestURI with the values of token-carrying query parameters replaced. */
export function redactRequestURI(uri: string): string {
  const q = uri.indexOf('?');
  if (q < 0) return uri;
  const query = uri
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // Keep the raw name: a malformed escape is not a known parameter.
      }
      return eq >= 0 && TOKEN_QUERY_PARAMS.has(name.toLowerCase()) ? `${rawName}=${encodeURIComponent(REDACTED)}` : pair;
    })
    .join('&');
  return `${uri.slice(0, q)}?${query}`;
}

/** The credentials a request carries, to be scrubbed from anything recorded about it. */
export function requestCredentials(headers: IncomingHttpHeaders, uri: string): string[] {
  const found: string[] = [];
  for (const value of headerValues(headers.authorization)) {
    const match = /^\s*(\S+)\s+(.+?)\s*$/.exec(value);
    if (!match) {
      found.push(value.trim());
      continue;
    }
    const [, scheme, credentials] = match;
    found.push(credentials);
    if (scheme.toLowerCase() === 'basic') {
      const decoded = Buffer.from(credentials, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon >= 0) found.push(decoded.slice(colon + 1));
    }
  }
  const q = uri.indexOf('?');
  if (q >= 0) {
    for (const [name, value] of new URLSearchParams(uri.slice(q + 1))) {
      if (TOKEN_QUERY_PARAMS.has(name.toLowerCase()) && value) found.push(value);
    }
  }
  return [...new Set(found.filter((s) => s.length >= MIN_SCRUB_LENGTH))];
}

function headerValues(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * Removes secret material from a decoded request or response object in place. `request` names the
 * request's API group and resource, for list items that carry no apiVersion or kind of their own.
 */
export function redactObject(obj: unknown, request: { apiGroup: string; resource: string }): void {
  if (!isRecord(obj)) return;
  const group = groupOf(obj.apiVersion) ?? request.apiGroup;
  if (group === AUTHENTICATION_GROUP || request.apiGroup === AUTHENTICATION_GROUP) {
    redactTokenFields(obj, 0);
    return;
  }
  if (group !== '') return;
  const secrets = obj.kind === 'Secret' || obj.kind === 'SecretList' || (request.apiGroup === '' && request.resource === 'secrets');
  if (!secrets) return;
  redactSecretData(obj);
  if (Array.isArray(obj.items)) for (const item of obj.items) redactSecretData(item);
}

/**
 * redactObject for a body that is not an object: a JSON patch (RFC 6902) to a Secret carries
 * values in its operations, so each operation on the root, `/data` or `/stringData` (or below)
 * loses its `value`. Other operations (labels, annotations) are kept as sent.
 */
export function redactPatchOperations(ops: unknown[], request: { apiGroup: string; resource: string }): void {
  if (request.apiGroup !== '' || request.resource !== 'secrets') return;
  for (const op of ops) {
    if (!isRecord(op) || !('value' in op)) continue;
    const path = typeof op.path === 'string' ? op.path : undefined;
    const first = path?.split('/')[1];
    if (first === undefined || first === '' || first === 'data' || first === 'stringData') op.value = REDACTED;
    else if (path === `/metadata/annotations/${LAST_APPLIED_POINTER}`) op.value = redactedLastApplied(op.value);
    else if (path === '/metadata/annotations') redactLastApplied(op.value);
    else if (path === '/metadata' && isRecord(op.value)) redactLastApplied(op.value.annotations);
  }
}

/** kubectl apply's copy of what it applied: for a Secret, its data too. */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const LAST_APPLIED_POINTER = LAST_APPLIED.replace(/~/g, '~0').replace(/\//g, '~1');

/** A last-applied annotation's Secret without its values; one that is not a JSON object, replaced whole. */
function redactedLastApplied(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    const applied: unknown = JSON.parse(value);
    if (!isRecord(applied)) return REDACTED;
    redactSecretData(applied);
    return JSON.stringify(applied);
  } catch {
    return REDACTED;
  }
}

function redactLastApplied(annotations: unknown): void {
  if (isRecord(annotations) && LAST_APPLIED in annotations) annotations[LAST_APPLIED] = redactedLastApplied(annotations[LAST_APPLIED]);
}

function groupOf(apiVersion: unknown): string | undefined {
  if (typeof apiVersion !== 'string') return undefined;
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** Replaces every field named `token` (TokenReview.spec.token, TokenRequest.status.token, …). */
function redactTokenFields(value: unknown, depth: number): void {
  if (depth > 64 || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) redactTokenFields(item, depth + 1);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key === 'token' && record[key] !== undefined && record[key] !== null) record[key] = REDACTED;
    else redactTokenFields(record[key], depth + 1);
  }
}

function redactSecretData(secret: unknown): void {
  if (!isRecord(secret)) return;
  for (const field of ['data', 'stringData']) {
    const data = secret[field];
    if (!isRecord(data)) continue;
    for (const key of Object.keys(data)) data[key] = REDACTED;
  }
  if (isRecord(secret.metadata)) redactLastApplied(secret.metadata.annotations);
}

/** Replaces every occurrence of the credentials it was made for in one string. */
export type Scrubber = (text: string) => string;

/**
 * One pattern for many credentials (a token file may hold thousands): each credential as given
 * and percent-encoded as a URL path or query would carry it, longest first so a credential that
 * contains another is replaced whole. Undefined when there is nothing long enough to scrub.
 */
export function newScrubber(credentials: Iterable<string>): Scrubber | undefined {
  const forms = new Set<string>();
  for (const c of credentials) {
    if (c.length < MIN_SCRUB_LENGTH) continue;
    forms.add(c);
    forms.add(encodeURIComponent(c));
    forms.add(encodeURI(c));
  }
  if (forms.size === 0) return undefined;
  const escaped = [...forms].sort((a, b) => b.length - a.length).map((f) => f.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  const pattern = new RegExp(escaped.join('|'), 'g');
  return (text) => (text.length < MIN_SCRUB_LENGTH ? text : text.replace(pattern, REDACTED));
}

/** Both scrubbers, in turn (either may be absent). */
export function composeScrubbers(a: Scrubber | undefined, b: Scrubber | undefined): Scrubber | undefined {
  if (!a || !b) return a ?? b;
  return (text) => b(a(text));
}

/** Returns value with every occurrence of each credential in its strings (keys too) replaced. */
export function scrubCredentials<T>(value: T, credentials: readonly string[] | Scrubber | undefined): T {
  const scrubber = typeof credentials === 'function' ? credentials : credentials && newScrubber(credentials);
  if (!scrubber) return value;
  return scrub(value, scrubber, 0) as T;
}

function scrub(value: unknown, scrubber: Scrubber, depth: number): unknown {
  if (typeof value === 'string') return scrubber(value);
  if (typeof value !== 'object' || value === null) return value;
  // Deeper than anything real: recorded as redacted rather than walked (or leaked).
  if (depth > 1000) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => scrub(v, scrubber, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[scrubber(k)] = scrub(v, scrubber, depth + 1);
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

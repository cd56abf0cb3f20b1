/**
 * Webhook authorization (k8s.io/apiserver/plugin/pkg/authorizer/webhook), as kube's
 * --authorization-webhook-config-file turns it on: each request's attributes go to the webhook
 * as an authorization.k8s.io SubjectAccessReview; `status.allowed` allows, `status.denied`
 * denies at once, and anything else is no opinion (the next authorizer decides).
 *
 * Answers are cached by the review's spec: allowed ones for `authorizedTTLMs` (kube's
 * --authorization-webhook-cache-authorized-ttl, default 5m), others for `unauthorizedTTLMs`
 * (--authorization-webhook-cache-unauthorized-ttl, default 30s). A failed call is no opinion
 * with the error as its reason (kube's union then reports it), and is not cached.
 */
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from '../api/auth.js';
import { postReview, type WebhookEndpoint } from '../webhook/kubeconfig-endpoint.js';
import { TTLCache } from '../webhook/ttl-cache.js';

export interface WebhookAuthorizerOptions {
  endpoint: WebhookEndpoint;
  authorizedTTLMs?: number;
  unauthorizedTTLMs?: number;
  /** `v1` (default) or `v1beta1` (kube's --authorization-webhook-version). */
  version?: 'v1' | 'v1beta1';
  /** Deadline of one call; default 10 s. */
  timeoutMs?: number;
  now?: () => number;
}

interface SubjectAccessReviewStatus {
  allowed?: boolean;
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

export function webhookAuthorizer(opts: WebhookAuthorizerOptions): Authorizer {
  const version = opts.version ?? 'v1';
  const cache = new TTLCache<AuthorizationResult>(8192, opts.now);
  const authorizedTTL = opts.authorizedTTLMs ?? 5 * 60_000;
  const unauthorizedTTL = opts.unauthorizedTTLMs ?? 30_000;
  return {
    async authorize(a: AuthorizationAttributes): Promise<AuthorizationResult> {
      const spec = reviewSpec(a, version);
      const key = JSON.stringify(spec);
      const cached = cache.get(key);
      if (cached) return cached;
      let answer: unknown;
      try {
        answer = await postReview(opts.endpoint, { apiVersion: `authorization.k8s.io/${version}`, kind: 'SubjectAccessReview', metadata: { creationTimestamp: null }, spec, status: { allowed: false } }, opts.timeoutMs ?? 10_000);
      } catch (err) {
        return { decision: 'NoOpinion', reason: `error contacting the authorization webhook: ${(err as Error).message}` };
      }
      const status = ((answer as { status?: SubjectAccessReviewStatus } | null)?.status ?? {}) as SubjectAccessReviewStatus;
      const reason = status.reason ?? status.evaluationError ?? '';
      const result: AuthorizationResult = status.allowed === true ? { decision: 'Allow', reason } : { decision: status.denied === true ? 'Deny' : 'NoOpinion', reason };
      cache.set(key, result, result.decision === 'Allow' ? authorizedTTL : unauthorizedTTL);
      return result;
    },
  };
}

/** The SubjectAccessReview spec of a request, as kube's webhook authorizer builds it. */
function reviewSpec(a: AuthorizationAttributes, version: 'v1' | 'v1beta1'): Record<string, unknown> {
  const spec: Record<string, unknown> = { user: a.user.username };
  // v1beta1 named the user's groups `group`.
  spec[version === 'v1' ? 'groups' : 'group'] = a.user.groups;
  if (a.user.uid) spec.uid = a.user.uid;
  if (a.user.extra) spec.extra = a.user.extra;
  if (a.isResourceRequest) {
    spec.resourceAttributes = {
      namespace: a.namespace,
      verb: a.verb,
      group: a.apiGroup,
      version: a.apiVersion,
      resource: a.resource,
      subresource: a.subresource,
      name: a.name,
    };
  } else {
    spec.nonResourceAttributes = { path: a.path, verb: a.verb };
  }
  return spec;
}

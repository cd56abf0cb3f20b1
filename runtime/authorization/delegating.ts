/**
 * kube's delegating authorization (k8s.io/apiserver DelegatingAuthorizationOptions), what an
 * aggregated API server authorises with: the always-allowed paths (--authorization-always-allow-paths,
 * default /healthz, /readyz, /livez; a trailing `*` matches a prefix, as kube's path authorizer),
 * then system:masters (kube's --authorization-always-allow-groups default), then a
 * SubjectAccessReview to the delegating server for everything else, with its answers cached.
 */
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from '../api/auth.js';
import { unionAuthorizer } from './union.js';
import { webhookAuthorizer, type WebhookAuthorizerOptions } from './webhook.js';

export const DEFAULT_ALWAYS_ALLOW_PATHS = ['/healthz', '/readyz', '/livez'] as const;

const ALLOW: AuthorizationResult = { decision: 'Allow', reason: '' };
const NO_OPINION: AuthorizationResult = { decision: 'NoOpinion', reason: '' };

/** kube's path.NewAuthorizer: non-resource requests to these paths (or below a `prefix*`) are allowed. */
export function alwaysAllowPathsAuthorizer(paths: readonly string[]): Authorizer {
  const exact = new Set(paths.filter((p) => !p.endsWith('*')));
  const prefixes = paths.filter((p) => p.endsWith('*')).map((p) => p.slice(0, -1));
  for (const p of paths) if (p.includes('*') && !p.endsWith('*')) throw new Error(`only trailing * allowed in ${JSON.stringify(p)}`);
  return {
    authorize(a: AuthorizationAttributes): AuthorizationResult {
      if (a.isResourceRequest) return NO_OPINION;
      if (exact.has(a.path) || prefixes.some((p) => a.path.startsWith(p))) return ALLOW;
      return NO_OPINION;
    },
  };
}

export interface DelegatingAuthorizerOptions {
  alwaysAllowPaths?: readonly string[];
  /** The SubjectAccessReview endpoint of the delegating server, with kube's delegating cache TTLs (10 s each by default). */
  webhook: WebhookAuthorizerOptions;
}

export function delegatingAuthorizer(opts: DelegatingAuthorizerOptions): Authorizer {
  return unionAuthorizer([
    alwaysAllowPathsAuthorizer(opts.alwaysAllowPaths ?? DEFAULT_ALWAYS_ALLOW_PATHS),
    webhookAuthorizer({ ...opts.webhook, authorizedTTLMs: opts.webhook.authorizedTTLMs ?? 10_000, unauthorizedTTLMs: opts.webhook.unauthorizedTTLMs ?? 10_000 }),
  ]);
}

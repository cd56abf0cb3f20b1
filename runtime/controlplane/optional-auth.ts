/**
 * The authenticators and authorizers a default `kgen serve` does not use, built only when
 * configured and loaded through import() (issue 20: loading them at every start cost ~10 % of
 * start-up). JWT/OIDC (oidc.ts: node:https, JWKS, CEL claim rules), the TokenReview webhook
 * (webhook-token.ts and the webhook client) and the --authorization-mode authorizers (modes.ts,
 * with the SubjectAccessReview webhook) stay unloaded when their flags are not given.
 */
import type { Authorizer } from '../api/auth.js';
import type { RequestAuthenticator } from '../authentication/authenticator.js';
import type { JWTAuthenticatorConfig } from '../authentication/jwt-config.js';
import type { TokenWebhookOptions } from '../authentication/webhook-token.js';
import type { AuthorizationModesOptions } from '../authorization/modes.js';

export interface OptionalAuthenticators {
  jwtAuthenticator?: RequestAuthenticator;
  tokenWebhookAuthenticator?: RequestAuthenticator;
}

/** The JWT and TokenReview-webhook authenticators the options ask for (none: nothing is loaded). */
export async function optionalAuthenticators(opts: {
  jwt?: JWTAuthenticatorConfig[];
  tokenWebhook?: TokenWebhookOptions;
  /** The ServiceAccount token issuers: a JWT authenticator may not claim one (kube's disallowedIssuers). */
  serviceAccountIssuers?: string[];
}): Promise<OptionalAuthenticators> {
  const out: OptionalAuthenticators = {};
  if (opts.jwt?.length) {
    const overlapping = (await import('../authentication/jwt-config.js')).disallowedIssuerProblems(opts.jwt, opts.serviceAccountIssuers ?? []);
    if (overlapping.length > 0) throw new Error(`invalid JWT authenticators: ${overlapping.join('; ')}`);
    out.jwtAuthenticator = (await import('../authentication/oidc.js')).jwtAuthenticator(opts.jwt);
  }
  if (opts.tokenWebhook) out.tokenWebhookAuthenticator = (await import('../authentication/webhook-token.js')).tokenWebhookAuthenticator(opts.tokenWebhook);
  return out;
}

/** kube's --authorization-mode union; `rbac` is the RBAC authorizer (undefined without the RBAC kinds). */
export async function modesAuthorizer(opts: AuthorizationModesOptions, rbac: Authorizer | undefined): Promise<Authorizer> {
  return (await import('../authorization/modes.js')).authorizerForModes(opts, rbac);
}

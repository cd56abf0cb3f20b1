/**
 * authentication.k8s.io/v1 TokenReview and SelfSubjectReview (pkg/registry/authentication):
 * create-only, never stored.
 *
 * - TokenReview answers with what the server's own token authenticators (static tokens, the
 *   token webhook, …) make of spec.token — the same ones its requests meet. kube's audience
 *   rule: the audiences asked about are spec.audiences, else the server's; an authenticator's
 *   answer must share one of them. ServiceAccount tokens are audience-aware: checked against the
 *   audiences asked about (a token the API server issued for itself is not valid for `vault`).
 *   The others are audience-agnostic (kube's WrapAudienceAgnosticToken): with server audiences
 *   (apiAudiences) they are valid for the intersection, without any for whatever was asked.
 * - SelfSubjectReview (`kubectl auth whoami`) answers with the requesting user — the
 *   impersonated one when impersonating.
 */
import type { UserInfo } from '../api/auth.js';
import type { KubeObject } from '../api/meta.js';
import { newBadRequest } from '../api/status.js';
import type { APIRequest } from '../endpoints/handler.js';
import type { IncomingAPIRequest } from '../api/request.js';
import { withAudiences, type RequestAuthenticator } from './authenticator.js';
import { INVALID_BEARER_TOKEN } from './bearertoken.js';

/** kube's rest.Creater for a virtual resource. */
type Creater = (obj: KubeObject, req: APIRequest) => Promise<KubeObject>;

export interface TokenReviewOptions {
  /** The bearer-token authenticators of the server (not x509, not request headers, not anonymous). */
  tokens: RequestAuthenticator;
  /** kube's --api-audiences; none by default. */
  apiAudiences?: readonly string[];
}

/** v1.UserInfo of a user: empty fields left out, as kube's omitempty. */
export function userInfoObject(user: UserInfo): Record<string, unknown> {
  const out: Record<string, unknown> = { username: user.username };
  if (user.uid) out.uid = user.uid;
  if (user.groups.length) out.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length) out.extra = structuredClone(user.extra);
  return out;
}

export function newTokenReviewCreater(opts: TokenReviewOptions): Creater {
  const apiAudiences = opts.apiAudiences ?? [];
  return async (obj) => {
    const spec = (obj.spec ?? {}) as { token?: string; audiences?: string[] };
    if (!spec.token) throw newBadRequest('token is required for TokenReview in authentication');
    const asked = spec.audiences?.length ? spec.audiences : apiAudiences;
    // Audience-agnostic tokens are valid for the server's audiences among those asked about.
    const valid = apiAudiences.length ? asked.filter((a) => apiAudiences.includes(a)) : [...asked];
    const status: Record<string, unknown> = { user: {} };
    // A fake request carrying only the token (kube's TokenReview REST does the same), and the
    // audiences asked about for the audience-aware authenticators (ServiceAccount tokens).
    const fake = { headers: { authorization: `Bearer ${spec.token}` } } as unknown as IncomingAPIRequest;
    if (asked.length) withAudiences(fake, asked);
    const result = await opts.tokens.authenticate(fake);
    if (result && 'user' in result) {
      // An audience-aware authenticator says which asked audiences the token is valid for;
      // an agnostic one's token is valid for `valid`. None of those asked: not authenticated.
      const audiences = result.audiences ?? valid;
      // kube's WrapAudienceAgnosticToken answers "not mine" here, and the bearer-token wrapper
      // turns that into its error.
      if (asked.length && !audiences.some((a) => asked.includes(a))) return { ...obj, status: { ...status, error: INVALID_BEARER_TOKEN } };
      status.authenticated = true;
      status.user = userInfoObject(result.user);
      if (audiences.length) status.audiences = audiences;
    } else {
      // kube reports the authenticators' error text (the token itself never appears in it); its
      // TokenReview asks the request authenticator, whose bearer-token wrapper names a token no
      // authenticator recognises "invalid bearer token" (request/bearertoken).
      status.error = result && 'error' in result ? result.error : INVALID_BEARER_TOKEN;
    }
    return { ...obj, status };
  };
}

export function newSelfSubjectReviewCreater(): Creater {
  return async (obj, req) => {
    const user = req.user;
    if (!user) throw newBadRequest('no user present on request');
    return {
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      metadata: { creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z') },
      status: { userInfo: userInfoObject(user) },
    };
  };
}

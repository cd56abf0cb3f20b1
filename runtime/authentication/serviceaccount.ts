/**
 * The service account token authenticator (kube's pkg/serviceaccount JWTTokenAuthenticator with
 * the bound-token validator): a bearer JWT signed with the server's service account key for its
 * issuer authenticates as `system:serviceaccount:<ns>:<name>` in the groups
 * `system:serviceaccounts` and `system:serviceaccounts:<ns>`, when
 *
 * - one of its audiences is one of the requested audiences: the server's API audiences, or a
 *   TokenReview's spec.audiences (a token meant for the API server is not valid for another service);
 * - it has not expired (and is already valid: nbf);
 * - its ServiceAccount still exists with the uid it names and is not being deleted;
 * - the object it is bound to (a Secret) still exists with the uid it names and is not being deleted.
 *
 * Any other JWT or token is not this authenticator's (undefined): the union asks the next one.
 * The lookups are bound late (`bind`), once the stores exist: the chain is built before them.
 */
import type { UserInfo } from '../api/auth.js';
import type { KubeObject } from '../api/meta.js';
import type { IncomingAPIRequest } from '../api/request.js';
import { audiencesOf, type AuthenticationResult, type RequestAuthenticator } from './authenticator.js';
import {
  ALL_SERVICE_ACCOUNTS_GROUP,
  CREDENTIAL_ID_EXTRA,
  SERVICE_ACCOUNT_USERNAME_PREFIX,
  verifyServiceAccountToken,
  type ServiceAccountClaims,
  type ServiceAccountKey,
} from './serviceaccount-jwt.js';
import { bearerToken } from './tokenfile.js';
import { VerifiedTokens } from './verified-tokens.js';

/** Reads the objects a token names; undefined when absent. */
export interface ServiceAccountTokenGetter {
  getServiceAccount(namespace: string, name: string): Promise<KubeObject | undefined>;
  getSecret(namespace: string, name: string): Promise<KubeObject | undefined>;
}

export interface ServiceAccountAuthenticatorOptions {
  /** The signing key (a function: an in-memory key is made on first use). */
  key: () => ServiceAccountKey;
  issuer: string;
  /** kube's --api-audiences: a token must be meant for one of them. */
  audiences: readonly string[];
  /** Seconds since the epoch (tests). */
  now?: () => number;
}

export interface ServiceAccountAuthenticator extends RequestAuthenticator {
  /** Connects the lookups; until then every service account token is refused. */
  bind(getter: ServiceAccountTokenGetter): void;
}

/** The user a valid token authenticates as (kube's serviceaccount.UserInfo). */
export function serviceAccountUser(claims: ServiceAccountClaims): UserInfo {
  const { namespace, serviceaccount } = claims['kubernetes.io'];
  return {
    username: `${SERVICE_ACCOUNT_USERNAME_PREFIX}${namespace}:${serviceaccount.name}`,
    uid: serviceaccount.uid,
    groups: [ALL_SERVICE_ACCOUNTS_GROUP, `${ALL_SERVICE_ACCOUNTS_GROUP}:${namespace}`],
    extra: { [CREDENTIAL_ID_EXTRA]: [`JTI=${claims.jti}`] },
  };
}

const alive = (obj: KubeObject | undefined, uid: string) => obj !== undefined && obj.metadata.uid === uid && !obj.metadata.deletionTimestamp;

export function serviceAccountAuthenticator(opts: ServiceAccountAuthenticatorOptions): ServiceAccountAuthenticator {
  let getter: ServiceAccountTokenGetter | undefined;
  const now = opts.now ?? (() => Math.floor(Date.now() / 1000));
  const verified = new VerifiedTokens<ServiceAccountClaims>();

  async function validate(claims: ServiceAccountClaims, requested: readonly string[]): Promise<AuthenticationResult> {
    const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud as unknown as string];
    // kube's jwtTokenAuthenticator: the token's audiences intersected with the requested ones
    // (a TokenReview's spec.audiences, else the server's); a token for another audience is refused.
    const audiences = aud.filter((a) => requested.includes(a));
    if (audiences.length === 0) return { error: `token audiences ${JSON.stringify(aud)} is invalid for the target audiences ${JSON.stringify(requested)}` };
    const t = now();
    if (typeof claims.exp !== 'number' || claims.exp < t) return { error: 'service account token has expired' };
    if (typeof claims.nbf === 'number' && claims.nbf > t + 60) return { error: 'service account token is not valid yet' };
    const k8s = claims['kubernetes.io'];
    if (!k8s?.serviceaccount?.name || !k8s.namespace) return { error: 'service account token claims are incomplete' };
    if (!getter) return { error: 'service account token lookup is not ready' };
    const sa = await getter.getServiceAccount(k8s.namespace, k8s.serviceaccount.name);
    if (!alive(sa, k8s.serviceaccount.uid)) return { error: `service account ${k8s.namespace}/${k8s.serviceaccount.name} has been deleted` };
    if (k8s.secret) {
      const secret = await getter.getSecret(k8s.namespace, k8s.secret.name);
      if (!alive(secret, k8s.secret.uid)) return { error: `secret ${k8s.namespace}/${k8s.secret.name} bound to the token has been deleted` };
    }
    return { user: serviceAccountUser(claims), audiences };
  }

  return {
    bind(g) {
      getter = g;
    },
    authenticate(request: IncomingAPIRequest) {
      const token = bearerToken(request);
      if (!token) return undefined;
      const key = opts.key();
      const claims = verified.claims(token, key, () => verifyServiceAccountToken(key, opts.issuer, token));
      if (!claims) return undefined;
      return validate(claims, audiencesOf(request) ?? opts.audiences).then((result) => {
        if (result && 'user' in result) delete request.headers.authorization;
        return result;
      });
    },
  };
}

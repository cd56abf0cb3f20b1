/**
 * The bearer-token request authenticator (k8s.io/apiserver/pkg/authentication/request/bearertoken):
 * a request that presents `Authorization: Bearer <token>` is the token authenticators' to answer,
 * and a token none of them recognises is an error ("invalid bearer token"), never "no
 * credentials": failOnError must not let it fall through to the anonymous authenticator, so a
 * bad, expired or foreign token is a 401 on every path, the health and version endpoints
 * included, as in kube. An absent or empty token is left alone (kube: no credentials).
 */
import type { IncomingAPIRequest } from '../api/request.js';
import type { AuthenticationResult, RequestAuthenticator } from './authenticator.js';
import { bearerToken } from './tokenfile.js';

export const INVALID_BEARER_TOKEN = 'invalid bearer token';

const orInvalid = (result: AuthenticationResult): AuthenticationResult => result ?? { error: INVALID_BEARER_TOKEN };

/** tokens (the token authenticators' union) behind kube's bearer-token rule above. */
export function bearerTokenAuthenticator(tokens: RequestAuthenticator): RequestAuthenticator {
  return {
    authenticate(request: IncomingAPIRequest) {
      const presented = bearerToken(request);
      const result = tokens.authenticate(request);
      if (!presented) return result;
      return result instanceof Promise ? result.then(orInvalid) : orInvalid(result);
    },
    knownCredentials: tokens.knownCredentials && (() => tokens.knownCredentials!()),
  };
}

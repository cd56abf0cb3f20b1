/**
 * Authentication for the API server (kube's BuildAuthenticator): X.509 client certificates,
 * then static bearer tokens, in a union; anonymous (restricted to the health and version paths)
 * only for requests that presented no credentials at all.
 */
import { anonymousAuthenticator, DEFAULT_ANONYMOUS_PATHS } from './anonymous.js';
import { failOnError, unionAuthenticator, type RequestAuthenticator } from './authenticator.js';
import { bearerTokenAuthenticator } from './bearertoken.js';
import { requestHeaderAuthenticator, type RequestHeaderOptions } from './requestheader.js';
import { loadTokenFile, tokenFileAuthenticator } from './tokenfile.js';
import { x509Authenticator } from './x509.js';

export { anonymousAuthenticator, DEFAULT_ANONYMOUS_PATHS, pathMatches } from './anonymous.js';
export { failOnError, unionAuthenticator, type AuthenticationResult, type RequestAuthenticator } from './authenticator.js';
export { bearerTokenAuthenticator, INVALID_BEARER_TOKEN } from './bearertoken.js';
export { insecureDevAuthenticator, INSECURE_DEV_USER } from './insecure.js';
export { bearerToken, loadTokenFile, parseTokenFile, tokenFileAuthenticator, type TokenTable } from './tokenfile.js';
export * from './user.js';
export { x509Authenticator, type ClientCertificate } from './x509.js';
export { CLIENT_AUTH_USAGE } from './certificates.js';
export { requestHeaderAuthenticator, type RequestHeaderOptions } from './requestheader.js';
// The JWT (OIDC) and TokenReview-webhook authenticators are not re-exported: they load node:https,
// CEL and the webhook client, which a server that is not configured for them must not pay for at
// start-up. Import ./oidc.js, ./jwt-config.js and ./webhook-token.js directly (the control plane
// does, through import(), only when configured: runtime/controlplane/optional-auth.ts).
export type { TokenWebhookOptions } from './webhook-token.js';
export type { JWTAuthenticatorConfig, OIDCFlags } from './jwt-config.js';
export * from './serviceaccount-jwt.js';
export { serviceAccountAuthenticator, serviceAccountUser, type ServiceAccountAuthenticator, type ServiceAccountTokenGetter } from './serviceaccount.js';
export { newSelfSubjectReviewCreater, newTokenReviewCreater, userInfoObject, type TokenReviewOptions } from './reviews.js';

export interface AuthenticationOptions {
  /** kube's --token-auth-file. */
  tokenAuthFile?: string;
  /**
   * The --requestheader-* options (an authenticating proxy such as kube's aggregator), tried
   * first as kube does; x509 then accepts only certificates clientCA signed.
   */
  requestHeader?: RequestHeaderOptions & { x509ClientCA: string };
  /** The JWT issuers' authenticator (kube's --authentication-config jwt list, or the --oidc-* flags; oidc.ts). */
  jwt?: RequestAuthenticator;
  /** kube's --authentication-token-webhook-config-file: tokens no one else knows go to a TokenReview webhook (webhook-token.ts). */
  tokenWebhook?: RequestAuthenticator;
  /** Paths anonymous requests may reach; default the health and version endpoints. */
  anonymousPaths?: readonly string[];
  /** Service account tokens (JWTs the server signed), tried after the static tokens. */
  serviceAccounts?: RequestAuthenticator;
  warn?: (line: string) => void;
}

export interface ServerAuthenticator extends RequestAuthenticator {
  /** The bearer-token authenticators alone, in order: what a TokenReview asks. */
  tokens: RequestAuthenticator;
}

export function newAuthenticator(opts: AuthenticationOptions = {}): ServerAuthenticator {
  const authenticators: RequestAuthenticator[] = [];
  if (opts.requestHeader) authenticators.push(requestHeaderAuthenticator(opts.requestHeader));
  authenticators.push(x509Authenticator(opts.requestHeader?.x509ClientCA));
  const tokens: RequestAuthenticator[] = [];
  if (opts.tokenAuthFile) tokens.push(tokenFileAuthenticator(loadTokenFile(opts.tokenAuthFile, opts.warn)));
  if (opts.serviceAccounts) tokens.push(opts.serviceAccounts);
  if (opts.jwt) tokens.push(opts.jwt);
  // Last, as kube orders its token authenticators: the webhook is asked only about unknown tokens.
  if (opts.tokenWebhook) tokens.push(opts.tokenWebhook);
  // kube's bearertoken.New(union of the token authenticators): a presented token no one knows is
  // a 401, never an anonymous request (./bearertoken.ts).
  const tokenUnion = unionAuthenticator(tokens);
  if (tokens.length > 0) authenticators.push(bearerTokenAuthenticator(tokenUnion));
  const server = failOnError(unionAuthenticator(authenticators), anonymousAuthenticator(opts.anonymousPaths ?? DEFAULT_ANONYMOUS_PATHS));
  return { ...server, tokens: tokenUnion };
}

/**
 * Request authenticators (k8s.io/apiserver/pkg/authentication/authenticator and
 * request/union): each looks at the request and answers with a user, an error (credentials
 * were presented but are not valid: 401), or nothing (it does not apply). The union tries them
 * in order and stops at the first answer; kube's FailOnError wrapper then falls back to the
 * anonymous authenticator only when no one answered at all.
 */
import type { UserInfo } from '../api/auth.js';
import type { IncomingAPIRequest } from '../api/request.js';
import { withAuthenticatedGroup } from './user.js';

/**
 * `audiences`, when an authenticator sets it, are the audiences the credential was checked for
 * and is valid for (kube's authenticator.Response.Audiences): audience-aware authenticators
 * (ServiceAccount tokens) set it; audience-agnostic ones (static tokens, OIDC) leave it out.
 */
export type AuthenticationResult = { user: UserInfo; audiences?: string[] } | { error: string } | undefined;

const requestedAudiences = new WeakMap<object, readonly string[]>();

/**
 * kube's authenticator.WithAudiences: the audiences a credential must be valid for when they are
 * not the server's own (a TokenReview's spec.audiences). Audience-aware authenticators read them
 * with audiencesOf(); without them they check the server's audiences.
 */
export function withAudiences<T extends object>(request: T, audiences: readonly string[]): T {
  requestedAudiences.set(request, [...audiences]);
  return request;
}

/** The audiences withAudiences() asked for, if any (kube's authenticator.AudiencesFrom). */
export function audiencesOf(request: object): readonly string[] | undefined {
  return requestedAudiences.get(request);
}

export interface RequestAuthenticator {
  /** May remove the credentials it consumed from the request (kube deletes `Authorization`). */
  authenticate(request: IncomingAPIRequest): AuthenticationResult | Promise<AuthenticationResult>;
  /**
   * The secrets it accepts (static tokens), for audit to scrub wherever they appear in what it
   * records, whoever presented them. Absent when it holds none (x509, request headers).
   */
  knownCredentials?(): readonly string[];
  /**
   * The headers that carry a front proxy's word about the user (the request-header
   * authenticator's --requestheader-* names and prefixes, lower-cased), which the authentication
   * filter removes from every authenticated request. Absent when it reads none.
   */
  authenticationHeaders?(): AuthenticationHeaders;
}

/** Header names and name prefixes, lower-cased. */
export interface AuthenticationHeaders {
  names: readonly string[];
  prefixes: readonly string[];
}

/** The authentication headers of several authenticators. */
function authenticationHeadersOf(authenticators: readonly RequestAuthenticator[]): (() => AuthenticationHeaders) | undefined {
  const readers = authenticators.filter((a) => a.authenticationHeaders);
  if (readers.length === 0) return undefined;
  return () => {
    const all = readers.map((a) => a.authenticationHeaders!());
    return { names: all.flatMap((h) => h.names), prefixes: all.flatMap((h) => h.prefixes) };
  };
}

/** The known credentials of several authenticators. */
function knownCredentialsOf(authenticators: readonly RequestAuthenticator[]): () => readonly string[] {
  return () => authenticators.flatMap((a) => a.knownCredentials?.() ?? []);
}

/**
 * The union of authenticators, in order: the first user or error wins. Users it returns carry
 * `system:authenticated` (kube's AuthenticatedGroupAdder). It answers synchronously when every
 * authenticator it asks does (x509, tokens, request headers: no request awaits them), and
 * awaits only from the first one that returns a promise.
 */
export function unionAuthenticator(authenticators: readonly RequestAuthenticator[]): RequestAuthenticator {
  // Asks the authenticators from `start` on; `errors` holds those that the earlier ones gave.
  const ask = (request: IncomingAPIRequest, start: number, errors: string[]): AuthenticationResult | Promise<AuthenticationResult> => {
    for (let i = start; i < authenticators.length; i++) {
      const result = authenticators[i]!.authenticate(request);
      if (result instanceof Promise) return result.then((r) => (r !== undefined && 'user' in r ? authenticated(r) : ask(request, i + 1, collect(errors, r))));
      if (result === undefined) continue;
      if ('user' in result) return authenticated(result);
      errors.push(result.error);
    }
    return errors.length > 0 ? { error: errors.join(', ') } : undefined;
  };
  const headers = authenticationHeadersOf(authenticators);
  return { authenticate: (request) => ask(request, 0, []), knownCredentials: knownCredentialsOf(authenticators), ...(headers ? { authenticationHeaders: headers } : {}) };
}

function authenticated(result: { user: UserInfo; audiences?: string[] }): AuthenticationResult {
  return result.audiences ? { user: withAuthenticatedGroup(result.user), audiences: result.audiences } : { user: withAuthenticatedGroup(result.user) };
}

function collect(errors: string[], result: { error: string } | undefined): string[] {
  if (result !== undefined) errors.push(result.error);
  return errors;
}

/**
 * kube's union.NewFailOnError(authenticator, anonymous): a request whose credentials failed is
 * refused; one that presented none falls through to `fallback` (anonymous). Synchronous when
 * both answer synchronously.
 */
export function failOnError(primary: RequestAuthenticator, fallback: RequestAuthenticator): RequestAuthenticator {
  const headers = authenticationHeadersOf([primary, fallback]);
  return {
    authenticate(request) {
      const result = primary.authenticate(request);
      if (result instanceof Promise) return result.then((r) => (r !== undefined ? r : fallback.authenticate(request)));
      return result !== undefined ? result : fallback.authenticate(request);
    },
    knownCredentials: knownCredentialsOf([primary, fallback]),
    ...(headers ? { authenticationHeaders: headers } : {}),
  };
}

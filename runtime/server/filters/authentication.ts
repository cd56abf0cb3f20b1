/**
 * Authentication (kube's WithAuthentication): runs the authenticator; the user it returns is
 * set on the context for every later filter, the handler and admission. A request it does not
 * authenticate (bad credentials, or no credentials where anonymous is not allowed) is refused
 * with kube's 401 Status `Unauthorized`.
 *
 * As kube's WithAuthentication, an authenticated request loses `Authorization` and every
 * front-proxy header — the standard X-Remote-* ones and the configured --requestheader-* names
 * and prefixes — whoever authenticated it: a client certificate or token user's own
 * `X-Remote-User` (or custom `X-User`) must never reach a later layer, least of all the
 * aggregator's proxy, whose backend believes the configured headers from this server's
 * front-proxy certificate.
 */
import { statusError } from '../../api/status.js';
import type { APIResponse } from '../../endpoints/handler.js';
import { errorResponse } from '../../endpoints/responsewriters.js';
import type { RequestAuthenticator } from '../../authentication/authenticator.js';
import type { AuthenticationResult } from '../../authentication/authenticator.js';
import { authenticationHeadersClearer, STANDARD_AUTHENTICATION_HEADERS } from '../../authentication/requestheader.js';
import type { ChainHandler, ChainResult, Filter, RequestContext } from './types.js';

export function unauthorizedResponse() {
  return errorResponse(statusError('Unauthorized', 'Unauthorized'));
}

/**
 * failedAuthentication: kube's WithFailedAuthenticationAudit around the 401 (audit runs after
 * this filter, so a refused request is recorded here or nowhere).
 */
export function withAuthentication(
  authenticator: RequestAuthenticator,
  log: (line: string) => void = () => undefined,
  failedAuthentication?: (ctx: RequestContext, response: APIResponse) => void,
): Filter {
  const configured = authenticator.authenticationHeaders?.();
  const clearHeaders = authenticationHeadersClearer({
    names: ['authorization', ...STANDARD_AUTHENTICATION_HEADERS.names, ...(configured?.names ?? [])],
    prefixes: [...STANDARD_AUTHENTICATION_HEADERS.prefixes, ...(configured?.prefixes ?? [])],
  });
  const authenticated = (ctx: RequestContext, next: ChainHandler, result: AuthenticationResult): ChainResult => {
    if (result === undefined || 'error' in result) {
      if (result) log(`Unable to authenticate the request: ${result.error}`);
      const response = unauthorizedResponse();
      failedAuthentication?.(ctx, response);
      return response;
    }
    ctx.user = result.user;
    clearHeaders(ctx.request);
    return next(ctx);
  };
  return (next) => (ctx) => {
    const authorization = ctx.request.headers.authorization;
    if (authorization !== undefined) ctx.presentedAuthorization = authorization;
    const result = authenticator.authenticate(ctx.request);
    return result instanceof Promise ? result.then((r) => authenticated(ctx, next, r)) : authenticated(ctx, next, result);
  };
}

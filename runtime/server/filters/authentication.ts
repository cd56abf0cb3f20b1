/**
 * Authentication (kube's WithAuthentication): runs the authenticator; the user it returns is
 * set on the context for every later filter, the handler and admission. A request it does not
 * authenticate (bad credentials, or no credentials where anonymous is not allowed) is refused
 * with kube's 401 Status `Unauthorized`.
 */
import { statusError } from '../../api/status.js';
import { errorResponse } from '../../endpoints/responsewriters.js';
import type { RequestAuthenticator } from '../../authentication/authenticator.js';
import type { AuthenticationResult } from '../../authentication/authenticator.js';
import type { ChainHandler, ChainResult, Filter, RequestContext } from './types.js';

export function unauthorizedResponse() {
  return errorResponse(statusError('Unauthorized', 'Unauthorized'));
}

export function withAuthentication(authenticator: RequestAuthenticator, log: (line: string) => void = () => undefined): Filter {
  const authenticated = (ctx: RequestContext, next: ChainHandler, result: AuthenticationResult): ChainResult => {
    if (result === undefined || 'error' in result) {
      if (result) log(`Unable to authenticate the request: ${result.error}`);
      return unauthorizedResponse();
    }
    ctx.user = result.user;
    return next(ctx);
  };
  return (ctx, next) => {
    const authorization = ctx.request.headers.authorization;
    if (authorization !== undefined) ctx.presentedAuthorization = authorization;
    const result = authenticator.authenticate(ctx.request);
    return result instanceof Promise ? result.then((r) => authenticated(ctx, next, r)) : authenticated(ctx, next, result);
  };
}

/**
 * Authentication (kube's WithAuthentication): runs the authenticator; the user it returns is
 * set on the context for every later filter, the handler and admission. A request it does not
 * authenticate (bad credentials, or no credentials where anonymous is not allowed) is refused
 * with kube's 401 Status `Unauthorized`.
 */
import { statusError } from '../../api/status.js';
import { errorResponse } from '../../endpoints/responsewriters.js';
import type { RequestAuthenticator } from '../../authentication/authenticator.js';
import type { Filter } from './types.js';

export function unauthorizedResponse() {
  return errorResponse(statusError('Unauthorized', 'Unauthorized'));
}

export function withAuthentication(authenticator: RequestAuthenticator, log: (line: string) => void = () => undefined): Filter {
  return async (ctx, next) => {
    const result = await authenticator.authenticate(ctx.request);
    if (result === undefined || 'error' in result) {
      if (result) log(`Unable to authenticate the request: ${result.error}`);
      return unauthorizedResponse();
    }
    ctx.user = result.user;
    return next(ctx);
  };
}

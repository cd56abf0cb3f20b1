/**
 * Reading the request body, innermost in the chain: only a request that was authenticated,
 * admitted by the in-flight limits and authorized has its body read (kube reads bodies in the
 * handler, behind every filter). A request refused earlier leaves its body unread, and the HTTP
 * server closes its connection after the answer. Bounds and errors: runtime/server/body.ts.
 */
import { errorResponse } from '../../endpoints/responsewriters.js';
import type { ChainResult, Filter, RequestContext, ChainHandler } from './types.js';

export function withRequestBody(): Filter {
  return (next: ChainHandler) => (ctx: RequestContext): ChainResult => {
    // Requests without a body (most: GET, DELETE) and those not from the HTTP server pass as they are.
    const reading = ctx.request.readBody?.();
    if (reading === undefined) return next(ctx);
    return reading.then(
      () => next(ctx),
      (err: unknown) => errorResponse(err),
    );
  };
}

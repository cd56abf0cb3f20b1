/**
 * Panic recovery (kube's WithPanicRecovery), the outermost filter: anything a later filter or
 * handler throws becomes a Status. StatusErrors keep their code; any other error is logged with
 * its stack and answered as a 500 `Internal error occurred: <message>`, never with the stack.
 */
import { StatusError } from '../../api/status.js';
import { errorResponse } from '../../endpoints/responsewriters.js';
import type { ChainResult, Filter, RequestContext } from './types.js';

export function withPanicRecovery(log: (line: string) => void): Filter {
  const recover = (ctx: RequestContext, err: unknown) => {
    if (!(err instanceof StatusError)) {
      const { method, url } = ctx.request;
      log(`panic recovered: ${method} ${url.split('?')[0]}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
    return errorResponse(err);
  };
  return (next) => (ctx) => {
    let result: ChainResult;
    try {
      result = next(ctx);
    } catch (err) {
      return recover(ctx, err);
    }
    return result instanceof Promise ? result.then(undefined, (err: unknown) => recover(ctx, err)) : result;
  };
}

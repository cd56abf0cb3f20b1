/**
 * Request info (kube's WithRequestInfo): resolves verb, group, version, namespace, resource,
 * subresource and name from the request line once, for every later filter and the handler.
 */
import { resolveRequestInfo } from '../requestinfo.js';
import { requestURL } from './context.js';
import type { Filter } from './types.js';

export function withRequestInfo(): Filter {
  return (ctx, next) => {
    const url = requestURL(ctx.request.url);
    ctx.info = resolveRequestInfo(ctx.request.method, url.pathname, url.searchParams);
    return next(ctx);
  };
}

/**
 * Request info (kube's WithRequestInfo): resolves verb, group, version, namespace, resource,
 * subresource and name from the request line once, for every later filter and the handler.
 */
import { resolveRequestInfo } from '../requestinfo.js';
import { isConnectSubresource } from './context.js';
import type { Filter } from './types.js';

export function withRequestInfo(): Filter {
  // Resolved per request: a memo of the last request line would only spare work for a client
  // repeating the very same request (a benchmark), not for real traffic.
  return (next) => (ctx) => {
    ctx.info = resolveRequestInfo(ctx.request.method, ctx.url.pathname, ctx.url.searchParams);
    // kube authorises a WebSocket upgrade to a CONNECT subresource (exec, attach) as `create`.
    if (ctx.request.upgrade && ctx.info.verb === 'get' && isConnectSubresource(ctx.info)) ctx.info.verb = 'create';
    return next(ctx);
  };
}

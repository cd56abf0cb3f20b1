/**
 * Request info (kube's WithRequestInfo): resolves verb, group, version, namespace, resource,
 * subresource and name from the request line once, for every later filter and the handler.
 */
import type { RequestInfo } from '../../endpoints/handler.js';
import { resolveRequestInfo } from '../requestinfo.js';
import { isConnectSubresource } from './context.js';
import type { Filter } from './types.js';

export function withRequestInfo(): Filter {
  // Clients repeat request lines (a controller polling one object, a benchmark): the last one's
  // info is remembered, and each request gets its own copy (the info depends only on the
  // method and the URL).
  let lastMethod: string | undefined;
  let lastURL: string | undefined;
  let last: RequestInfo | undefined;
  return (ctx, next) => {
    const { method, url: raw } = ctx.request;
    if (last === undefined || raw !== lastURL || method !== lastMethod) {
      last = resolveRequestInfo(method, ctx.url.pathname, ctx.url.searchParams);
      lastMethod = method;
      lastURL = raw;
    }
    ctx.info = { ...last, parts: [...last.parts] };
    // kube authorises a WebSocket upgrade to a CONNECT subresource (exec, attach) as `create`.
    if (ctx.request.upgrade && ctx.info.verb === 'get' && isConnectSubresource(ctx.info)) ctx.info.verb = 'create';
    return next(ctx);
  };
}

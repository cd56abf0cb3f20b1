/** Building requests and contexts for filter unit tests, without a server. */
import type { UserInfo } from '../../../runtime/api/auth.js';
import type { APIResponse, ObjectResponse } from '../../../runtime/endpoints/handler.js';
import { objectResponse } from '../../../runtime/endpoints/responsewriters.js';
import type { IncomingAPIRequest } from '../../../runtime/server/handler.js';
import { newRequestContext } from '../../../runtime/server/filters/context.js';
import type { ChainHandler, RequestContext } from '../../../runtime/server/filters/types.js';
import { resolveRequestInfo } from '../../../runtime/server/requestinfo.js';

export function request(method: string, url: string, headers: Record<string, string | string[]> = {}, extra: Partial<IncomingAPIRequest> = {}): IncomingAPIRequest {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { method, url, headers: lower, signal: new AbortController().signal, ...extra };
}

/** A context as the request-info filter leaves it, optionally authenticated as user. */
export function contextFor(method: string, url: string, opts: { headers?: Record<string, string | string[]>; user?: UserInfo; extra?: Partial<IncomingAPIRequest> } = {}): RequestContext {
  const ctx = newRequestContext(request(method, url, opts.headers, opts.extra));
  ctx.info = resolveRequestInfo(method, ctx.url.pathname, ctx.url.searchParams);
  if (opts.user) ctx.user = opts.user;
  return ctx;
}

/** A handler that answers 200 and records the contexts it saw. */
export function recordingHandler(): ChainHandler & { calls: RequestContext[] } {
  const calls: RequestContext[] = [];
  const handler = async (ctx: RequestContext): Promise<APIResponse> => {
    calls.push(ctx);
    return objectResponse(200, { ok: true });
  };
  return Object.assign(handler, { calls });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function body(response: APIResponse): any {
  return JSON.parse((response as ObjectResponse).payload);
}

export const alice: UserInfo = { username: 'alice', groups: ['dev', 'system:authenticated'] };
export const admin: UserInfo = { username: 'kgen-admin', groups: ['system:masters', 'system:authenticated'] };

/**
 * Serving a custom subresource (`@kgen:subresource custom`) through the user's handler: the
 * object is read first (after the chain authorised the subresource, so a NotFound is answered
 * before the handler runs), then
 *   GET (verbs=get)            the handler's object as JSON, or its streamBody chunk by chunk;
 *   CONNECT (verbs=connect)    a WebSocket upgrade (GET, or POST, authorised as `create`, as kube
 *                              maps exec) running the handler's session over a channel protocol.
 * Without a handler (no `--handlers` module attached one) the subresource answers 404 with a
 * message saying so, as kube answers a subresource no REST storage serves.
 */
import { newBadRequest, statusError } from '../api/status.js';
import { isStreamBody, type SubresourceContext, type SubresourceHandler } from '../api/subresources.js';
import { ANONYMOUS_USER as ANONYMOUS } from '../api/auth.js';
import { acceptChannelSession, offersChannelProtocol } from './channels.js';
import type { APIRequest, APIResponse, RequestScope, StreamResponse } from './handler.js';
import { namespaceFor } from './requestscope.js';
import { objectResponse } from './responsewriters.js';

export function customSubresource(scope: RequestScope, name: string) {
  return scope.definition.subresources.custom?.find((c) => c.name === name);
}

function handlerOf(scope: RequestScope, name: string): SubresourceHandler<unknown, unknown> {
  const handler = scope.subresourceHandler?.(name);
  if (!handler) {
    throw statusError('NotFound', `no handler serves ${scope.definition.plural}/${name}: start the server with --handlers <module> attaching one`, {
      group: scope.definition.group,
      kind: scope.definition.plural,
    });
  }
  return handler;
}

async function context(scope: RequestScope, req: APIRequest, handler: SubresourceHandler<unknown, unknown>): Promise<SubresourceContext<unknown, unknown>> {
  const options = handler.parseOptions ? handler.parseOptions(req.query) : Object.fromEntries(req.query);
  const object = await scope.store.get(namespaceFor(scope, req.info), req.info.name);
  return { user: req.user ?? ANONYMOUS, object, options, query: req.query, signal: req.signal };
}

/** GET: an object, or a stream ended when the client goes away (the request's signal). */
export async function getCustom(scope: RequestScope, req: APIRequest): Promise<APIResponse> {
  const sub = req.info.subresource;
  const handler = handlerOf(scope, sub);
  if (!handler.get) throw statusError('MethodNotAllowed', `${scope.definition.plural}/${sub} has no GET handler`);
  const ctx = await context(scope, req, handler);
  const result = await handler.get(ctx);
  if (!isStreamBody(result)) return objectResponse(200, result);
  const iterator = result.chunks[Symbol.asyncIterator]();
  const decoder = new TextDecoder();
  const response: StreamResponse = {
    kind: 'stream',
    code: 200,
    contentType: result.contentType,
    headers: {},
    chunks: {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          const r = await iterator.next();
          if (r.done) return { done: true, value: undefined };
          return { done: false, value: typeof r.value === 'string' ? r.value : decoder.decode(r.value, { stream: true }) };
        },
      }),
    },
    close: () => void iterator.return?.(),
  };
  return response;
}

/** CONNECT: a WebSocket upgrade speaking v5.channel.k8s.io (or v4). */
export async function connectCustom(scope: RequestScope, req: APIRequest): Promise<APIResponse> {
  const sub = req.info.subresource;
  const handler = handlerOf(scope, sub);
  if (!handler.connect) throw statusError('MethodNotAllowed', `${scope.definition.plural}/${sub} has no CONNECT handler`);
  const upgrade = req.upgrade;
  // kube's wsstream: a CONNECT that is not a WebSocket upgrade is a bad request.
  if (!upgrade) throw newBadRequest('Upgrade request required');
  if (!offersChannelProtocol(upgrade)) throw newBadRequest('a WebSocket subprotocol v5.channel.k8s.io or v4.channel.k8s.io is required');
  const ctx = await context(scope, req, handler);
  const connect = handler.connect.bind(handler);
  return acceptChannelSession(upgrade, (session) => connect({ ...ctx, signal: session.signal }, session));
}

export type { SubresourceHandler };

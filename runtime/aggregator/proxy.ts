/**
 * kube-aggregator's proxy handler: a request for a remote APIService's group/version is sent to
 * a backend address (resolved through its Service and Endpoints) with the user's identity in the
 * front-proxy headers, and the answer streamed back as it comes, as kube's UpgradeAwareHandler
 * copies it (status and headers as the backend sent them, body chunks with backpressure; never
 * read whole into memory). An APIService that
 * is not Available answers 503 "service unavailable", exactly as kube's; a backend that cannot
 * be reached answers 503 with the error. A redirect from the backend is not passed on (502).
 * An upgrade request (WebSocket, SPDY) is proxied too, its connection joined to the backend's
 * (upgrade.ts).
 */
import type { UserInfo } from '../api/auth.js';
import type { IncomingMessage } from 'node:http';
import { AbortHandlerError, type APIResponse, type ObjectResponse, type ResponseHeaders } from '../endpoints/handler.js';
import type { IncomingAPIRequest } from '../api/request.js';
import type { RemoteAPIService } from './remote.js';
import { resolveEndpoint, type ServiceListers } from './resolver.js';
import { isHopByHop, proxyHeaders, sendToBackend, upgradeAtBackend } from './transport.js';
import { isUpgradeRequest, joinUpgraded } from './upgrade.js';

/** Go's http.Error: text/plain, nosniff, the message and a newline. */
export function proxyError(message: string, code: number): ObjectResponse {
  return {
    kind: 'object',
    code,
    contentType: 'text/plain; charset=utf-8',
    headers: { 'X-Content-Type-Options': 'nosniff' },
    payload: `${message}\n`,
  };
}

/** The backend's headers without hop-by-hop ones; its Content-Length kept when asked (see below). */
function responseHeaders(headers: NodeJS.Dict<string | string[]>, keepLength = false): ResponseHeaders {
  const out: ResponseHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name === 'content-type' || (isHopByHop(name) && !(keepLength && name === 'content-length'))) continue;
    out[name] = value;
  }
  return out;
}

/**
 * The backend's body as it arrives; throws AbortHandlerError when it ends before the backend
 * finished it, so the writer cuts the client's connection instead of ending it: Go's ReverseProxy
 * (under kube's UpgradeAwareHandler) panics with http.ErrAbortHandler when copying the body
 * fails, and kube's WithPanicRecovery lets net/http close the connection. `closedByUs` is true
 * once kgen itself closed the stream (client gone, shutdown), which is not the backend's failure.
 */
async function* bodyOf(res: IncomingMessage, closedByUs: () => boolean = () => false): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of res) yield chunk as Buffer;
  } catch (err) {
    if (closedByUs()) return;
    throw new AbortHandlerError(`the backend broke off its answer: ${(err as Error).message}`);
  }
  if (!res.complete && !closedByUs()) throw new AbortHandlerError('the backend broke off its answer');
}

function isWatch(url: URL): boolean {
  const watch = url.searchParams.get('watch');
  return watch === 'true' || watch === '1' || url.pathname.split('/').includes('watch');
}

/** A 3xx naming a Location (UpgradeAwareHandler.RejectForwardingRedirects' test). */
function isRedirect(code: number | undefined, location: string | undefined): boolean {
  return code !== undefined && code >= 300 && code <= 399 && !!location;
}

/** What UpgradeAwareHandler answers in place of a backend's redirect: 502, its text, no other header. */
function rejectedRedirect(): ObjectResponse {
  return { kind: 'object', code: 502, contentType: 'text/plain; charset=utf-8', headers: {}, payload: 'the backend attempted to redirect this request, which is not permitted' };
}

export async function proxyToBackend(remote: RemoteAPIService, listers: ServiceListers, incoming: IncomingAPIRequest, user: UserInfo | undefined, log: (line: string) => void): Promise<APIResponse> {
  if (!user) return proxyError('missing user', 500);
  if (!remote.available) return proxyError('service unavailable', 503);
  let endpoint: URL;
  try {
    endpoint = resolveEndpoint(listers, remote.ref);
  } catch (err) {
    log(`aggregator: ${remote.name}: ${(err as Error).message}`);
    return proxyError('service unavailable', 503);
  }
  const url = new URL(incoming.url, 'https://front.invalid');
  const abort = new AbortController();
  const onAbort = () => abort.abort();
  const signal = incoming.signal;
  signal.addEventListener('abort', onAbort, { once: true });
  // Set when the answer is handed on as a stream: the request's signal (client gone, deadline)
  // must still abort the backend request until the stream ends.
  let streaming = false;
  try {
    const headers = proxyHeaders(incoming.headers, user);
    if (incoming.body) headers['content-length'] = String(incoming.body.length);
    const backendRequest = { method: incoming.method, endpoint, path: url.pathname + url.search, headers, body: incoming.body, signal: abort.signal };
    let res: IncomingMessage;
    const upgrade = incoming.upgrade && incoming.headers.upgrade && isUpgradeRequest(incoming.headers) ? incoming.upgrade : undefined;
    if (upgrade) {
      // The filter chain authorized it as any request; the backend sees the upgrade (upgrade.ts).
      const answer = await upgradeAtBackend(remote.agent, remote.tls, { ...backendRequest, headers: { ...headers, connection: 'Upgrade', upgrade: incoming.headers.upgrade } });
      if (answer.switched) return joinUpgraded(upgrade.socket, upgrade.head, answer.res, answer.socket, answer.head);
      // Refused: relayed below as any answer (the server writes it on the socket and closes).
      res = answer.res;
    } else {
      res = await sendToBackend(remote.agent, remote.tls, backendRequest);
    }
    if (isRedirect(res.statusCode, res.headers.location)) {
      // kube-aggregator's --aggregator-reject-forwarding-redirect (on by default since 1.26,
      // CVE-2022-3172): a backend must not send the client (with its credentials) elsewhere.
      res.resume();
      return rejectedRedirect();
    }
    const contentType = res.headers['content-type'] ?? 'application/octet-stream';
    if (isWatch(url) && (res.statusCode ?? 500) < 300) {
      let closed = false;
      return {
        kind: 'stream',
        code: res.statusCode ?? 200,
        contentType,
        headers: responseHeaders(res.headers),
        // The backend's bytes as they come (a protobuf watch is not UTF-8); a backend that
        // breaks off mid-stream cuts the client's watch too, as kube's proxy does.
        chunks: bodyOf(res, () => closed),
        close: () => {
          closed = true;
          res.destroy();
          abort.abort();
        },
      };
    }
    // Anything else is copied as it comes, bytes as they are (a protobuf answer is not UTF-8), so
    // a backend answering gigabytes holds no more of kgen's memory than the socket buffers. As in
    // kube, audit records the status code and no response object, and the request's deadline
    // still applies while the body is copied (the timeout filter closes the stream).
    streaming = true;
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      signal.removeEventListener('abort', onAbort);
      res.destroy();
      abort.abort();
    };
    return {
      kind: 'stream',
      code: res.statusCode ?? 502,
      contentType,
      headers: responseHeaders(res.headers, true),
      chunks: bodyOf(res),
      close,
      passThrough: true,
    };
  } catch (err) {
    log(`aggregator: error while proxying request to ${remote.name}: ${(err as Error).message}`);
    return proxyError((err as Error).message, 503);
  } finally {
    if (!streaming) signal.removeEventListener('abort', onAbort);
  }
}

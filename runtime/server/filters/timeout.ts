/**
 * The deadline of non-long-running requests (kube's WithRequestDeadline and
 * WithTimeoutForNonLongRunningRequests): `--request-timeout` (default 60 s), shortened by a
 * smaller positive `?timeout=` (kubectl sends `timeout=32s`). When it passes, the request's
 * signal is aborted and the client gets 504 Timeout; what the handler returns afterwards is
 * dropped. Watches and other long-running requests are exempt (they have `timeoutSeconds`).
 * A pass-through stream (a proxied backend's answer, copied as it comes) stays under the deadline until it
 * ends: past it, the request's signal aborts, which ends the stream and cuts the connection (kube's
 * timeout handler aborts a response whose headers were written).
 */
import { newBadRequest, statusError } from '../../api/status.js';
import type { APIResponse, StreamResponse } from '../../endpoints/handler.js';
import { errorResponse } from '../../endpoints/responsewriters.js';
import type { IncomingAPIRequest } from '../../api/request.js';
import { isLongRunning } from './context.js';
import { parseGoDuration } from '../../api/duration.js';
import type { Filter, RequestURL } from './types.js';

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

export const TIMEOUT_MESSAGE = 'Timeout: request did not complete within requested timeout - context deadline exceeded';

/** The effective timeout: the server's, or the user's `?timeout=` when positive and smaller. */
export function requestTimeout(url: RequestURL, serverTimeoutMs: number): number {
  // Most requests have no `timeout` parameter (nor an escaped name that could decode to it).
  const query = url.search;
  if (query === '' || (!query.includes('timeout') && !query.includes('%'))) return serverTimeoutMs;
  const value = url.searchParams.get('timeout');
  if (!value) return serverTimeoutMs;
  let user: number;
  try {
    user = parseGoDuration(value);
  } catch (err) {
    throw newBadRequest(`invalid timeout specified in the request URL - ${(err as Error).message}`);
  }
  return user > 0 && user < serverTimeoutMs ? user : serverTimeoutMs;
}

export function withTimeout(serverTimeoutMs: number = DEFAULT_REQUEST_TIMEOUT_MS): Filter {
  return (next) => (ctx) => {
    if (isLongRunning(ctx.info)) return next(ctx);
    let timeoutMs: number;
    try {
      timeoutMs = requestTimeout(ctx.url, serverTimeoutMs);
    } catch (err) {
      return errorResponse(err);
    }
    if (!(timeoutMs > 0)) return next(ctx);
    const request = ctx.request;
    const abortOther = request.startDeadline === undefined ? combinedDeadline(request) : (request.startDeadline(), undefined);
    const result = next(ctx);
    // A response given synchronously cannot have outlived its deadline: no timer is needed.
    if (!(result instanceof Promise)) return result;
    return new Promise<APIResponse>((resolve, reject) => {
      const timer = setTimeout(() => {
        const reason = new Error('context deadline exceeded');
        if (abortOther) abortOther(reason);
        else request.passDeadline!(reason);
        resolve(errorResponse(statusError('Timeout', TIMEOUT_MESSAGE, {})));
      }, timeoutMs);
      // The deadline answers a request; it does not keep a process alive. A request that never ends
      // (its client gone at shutdown, a handler stuck) would otherwise hold an embedding process
      // open for up to a minute after the server's close().
      timer.unref();
      result.then(
        (response) => {
          if (response.kind === 'stream' && response.passThrough) resolve(untilStreamEnds(response, () => clearTimeout(timer)));
          else {
            clearTimeout(timer);
            resolve(response);
          }
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(err);
        },
      );
    });
  };
}

/**
 * For a request without startDeadline (not the HTTP server's): its signal combined with a
 * deadline controller, and the deadline's abort.
 */
function combinedDeadline(request: IncomingAPIRequest): (reason: unknown) => void {
  const deadline = new AbortController();
  request.signal = AbortSignal.any([request.signal, deadline.signal]);
  return (reason) => deadline.abort(reason);
}

/** The stream, calling `ended` once when its chunks run out or fail, or it is closed. */
function untilStreamEnds(response: StreamResponse, ended: () => void): StreamResponse {
  const source = response.chunks;
  async function* chunks(): AsyncGenerator<string | Buffer> {
    try {
      yield* source;
    } finally {
      ended();
    }
  }
  return {
    ...response,
    chunks: chunks(),
    close() {
      ended();
      response.close();
    },
  };
}

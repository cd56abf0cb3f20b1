/**
 * The deadline of non-long-running requests (kube's WithRequestDeadline and
 * WithTimeoutForNonLongRunningRequests): `--request-timeout` (default 60 s), shortened by a
 * smaller positive `?timeout=` (kubectl sends `timeout=32s`). When it passes, the request's
 * signal is aborted and the client gets 504 Timeout; what the handler returns afterwards is
 * dropped. Watches and other long-running requests are exempt (they have `timeoutSeconds`).
 */
import { newBadRequest, statusError } from '../../api/status.js';
import type { APIResponse } from '../../endpoints/handler.js';
import { errorResponse } from '../../endpoints/responsewriters.js';
import { isLongRunning, requestURL } from './context.js';
import { parseGoDuration } from './duration.js';
import type { Filter } from './types.js';

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

export const TIMEOUT_MESSAGE = 'Timeout: request did not complete within requested timeout - context deadline exceeded';

/** The effective timeout: the server's, or the user's `?timeout=` when positive and smaller. */
export function requestTimeout(rawURL: string, serverTimeoutMs: number): number {
  const value = requestURL(rawURL).searchParams.get('timeout');
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
  return async (ctx, next) => {
    if (isLongRunning(ctx.info)) return next(ctx);
    let timeoutMs: number;
    try {
      timeoutMs = requestTimeout(ctx.request.url, serverTimeoutMs);
    } catch (err) {
      return errorResponse(err);
    }
    if (!(timeoutMs > 0)) return next(ctx);
    const deadline = new AbortController();
    ctx.request.signal = AbortSignal.any([ctx.request.signal, deadline.signal]);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<APIResponse>((resolve) => {
      timer = setTimeout(() => {
        deadline.abort(new Error('context deadline exceeded'));
        resolve(errorResponse(statusError('Timeout', TIMEOUT_MESSAGE, {})));
      }, timeoutMs);
    });
    try {
      return await Promise.race([next(ctx), expired]);
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * When RestClient tries again, as client-go's withRetry (rest/with_retry.go):
 * - a connection error (reset, refused, broken pipe, hang-up) is retried only for idempotent reads
 *   (GET, HEAD): a write may have reached the server before the connection dropped;
 * - a 429 or 5xx response is retried for any method, but only if it carries Retry-After, the
 *   server's statement that the request was not acted on and may be sent again;
 * - at most maxRetries times after the first attempt.
 */
import type { ResponseHeaders } from './transport.js';

/** Longest Retry-After we honour; a server asking for more is waited on for this long. */
export const MAX_RETRY_AFTER_SECONDS = 30;
/** Backoff after a connection error: BASE·2^(n-1), capped. client-go waits a flat 1 s. */
export const CONNECTION_RETRY_BASE_MS = 200;
export const CONNECTION_RETRY_MAX_MS = 5_000;

const CONNECTION_ERROR_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ECONNABORTED']);

export function isIdempotentRead(method: string): boolean {
  const m = method.toUpperCase();
  return m === 'GET' || m === 'HEAD';
}

/** A transient transport failure: the connection broke or never opened. */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as NodeJS.ErrnoException).code;
  if (code && CONNECTION_ERROR_CODES.has(code)) return true;
  return /socket hang up/i.test(err.message);
}

/** Retry-After as whole seconds (the only form kube-apiserver sends), or undefined. */
export function retryAfterSeconds(headers: ResponseHeaders): number | undefined {
  const raw = headers['retry-after'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value);
}

/** Milliseconds to wait before retry number `retry` (1-based) after a connection error, or undefined to give up. */
export function connectionErrorDelay(method: string, err: unknown, retry: number, maxRetries: number): number | undefined {
  if (retry > maxRetries || !isIdempotentRead(method) || !isConnectionError(err)) return undefined;
  return Math.min(CONNECTION_RETRY_BASE_MS * 2 ** (retry - 1), CONNECTION_RETRY_MAX_MS);
}

/** Milliseconds to wait before retry number `retry` after an HTTP response, or undefined to give up. */
export function responseDelay(statusCode: number, headers: ResponseHeaders, retry: number, maxRetries: number): number | undefined {
  if (retry > maxRetries) return undefined;
  if (statusCode !== 429 && statusCode < 500) return undefined;
  const seconds = retryAfterSeconds(headers);
  if (seconds === undefined) return undefined;
  return Math.min(seconds, MAX_RETRY_AFTER_SECONDS) * 1000;
}

/**
 * Making the per-request context the filters share, and the long-running check (kube's
 * LongRunningRequestCheck: watches and streaming subresources are exempt from the request
 * timeout, the wait group and the in-flight limits).
 */
import { performance } from 'node:perf_hooks';
import type { RequestInfo } from '../../endpoints/handler.js';
import type { IncomingAPIRequest } from '../handler.js';
import type { RequestContext } from './types.js';

const LONG_RUNNING_SUBRESOURCES = new Set(['proxy', 'log', 'exec', 'attach', 'portforward']);

export function newRequestContext(request: IncomingAPIRequest): RequestContext {
  return { request, startedAt: performance.now(), responseHeaders: {}, annotations: {} };
}

/** kube's BasicLongRunningRequestCheck with verbs {watch} and kube's streaming subresources. */
export function isLongRunning(info: RequestInfo | undefined): boolean {
  if (!info) return false;
  if (info.verb === 'watch') return true;
  return info.isResourceRequest && LONG_RUNNING_SUBRESOURCES.has(info.subresource);
}

/**
 * The request URL, parsed as a path (never as `//authority`), with dot segments resolved. The
 * chain rewrites the request to this form first, so every filter and the handler (anonymous
 * paths, authorization, routing) sees the same path: `/healthz/../apis/x` cannot look like a
 * health check to one layer and a resource to another.
 */
export function requestURL(raw: string): URL {
  return new URL(`http://kgen.invalid${raw.startsWith('/') ? raw : `/${raw}`}`);
}

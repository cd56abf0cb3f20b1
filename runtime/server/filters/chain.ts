/**
 * The handler chain, assembled in this one place in kube's order (DefaultBuildHandlerChain in
 * k8s.io/apiserver/pkg/server/config.go), outermost first:
 *
 *   panic recovery → [loopback Host, insecure dev mode only] → request info → metrics → in-flight
 *   wait group → timeout (non-long-running) → CORS → authentication → audit → impersonation →
 *   max-in-flight → authorization → request body → handler
 *
 * The request body is read last, as kube's handlers read it: nothing is read for a request that
 * is not authenticated, admitted and authorized.
 *
 * Admission runs inside the handler, before storage. Every filter is a small async function in
 * its own module (see types.ts); the list is data, so tests and tools can read it.
 */
import type { Authorizer } from '../../api/auth.js';
import { newBadRequest } from '../../api/status.js';
import type { APIResponse } from '../../endpoints/handler.js';
import { errorResponse } from '../../endpoints/responsewriters.js';
import type { RequestAuthenticator } from '../../authentication/authenticator.js';
import type { IncomingAPIRequest } from '../../api/request.js';
import type { FailedAuthenticationAuditor } from './audit.js';
import { withAuthentication } from './authentication.js';
import { withAuthorization } from './authorization.js';
import { newRequestContext, parseRequestURL, parseVerbatimURL } from './context.js';
import { withCORS } from './cors.js';
import { withImpersonation } from './impersonation.js';
import { withMetrics } from './metrics.js';
import { DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT, DEFAULT_MAX_REQUESTS_INFLIGHT, InFlightCounters, withMaxInFlightLimit } from './maxinflight.js';
import { dotSegmentError, hasDotSegment } from './dotsegments.js';
import { withLoopbackHostOnly } from './loopbackhost.js';
import { withPanicRecovery } from './panics.js';
import { withRequestBody } from './requestbody.js';
import { withRequestInfo } from './requestinfo.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, withTimeout } from './timeout.js';
import type { ChainHandler, ChainResult, Filter, RequestContext, RequestURL } from './types.js';
import { SafeWaitGroup, withWaitGroup } from './waitgroup.js';

export interface ChainConfig {
  authenticator: RequestAuthenticator;
  authorizer: Authorizer;
  /** Counts non-long-running requests for graceful shutdown. */
  waitGroup?: SafeWaitGroup;
  /** --request-timeout; default 60 s. 0 disables. */
  requestTimeoutMs?: number;
  /** --max-requests-inflight (default 400) and --max-mutating-requests-inflight (default 200); 0 disables. */
  maxRequestsInflight?: number;
  maxMutatingRequestsInflight?: number;
  inFlight?: InFlightCounters;
  /** --cors-allowed-origins (regular expressions); empty disables CORS. */
  corsAllowedOrigins?: readonly string[];
  /** The audit filter (runtime/server/filters/audit.ts, built by openAudit); absent records nothing. */
  audit?: Filter;
  /** Records a request authentication refused (openAudit's failedAuthentication). */
  failedAuthentication?: FailedAuthenticationAuditor;
  log?: (line: string) => void;
  /** Insecure dev mode: serve only requests whose Host is a loopback name (DNS rebinding). */
  loopbackHostsOnly?: boolean;
}

export interface NamedFilter {
  name: string;
  filter: Filter;
}

/** No filter: the next handler itself (kube installs nothing in its place). */
const passThrough: Filter = (next) => next;

/** The filters in kube's order, outermost first. */
export function handlerChainFilters(config: ChainConfig): NamedFilter[] {
  const log = config.log ?? (() => undefined);
  return [
    { name: 'panic-recovery', filter: withPanicRecovery(log) },
    ...(config.loopbackHostsOnly ? [{ name: 'loopback-host', filter: withLoopbackHostOnly() }] : []),
    { name: 'request-info', filter: withRequestInfo() },
    { name: 'metrics', filter: withMetrics() },
    { name: 'wait-group', filter: withWaitGroup(config.waitGroup ?? new SafeWaitGroup()) },
    { name: 'timeout', filter: withTimeout(config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS) },
    { name: 'cors', filter: withCORS(config.corsAllowedOrigins ?? []) },
    { name: 'authentication', filter: withAuthentication(config.authenticator, log, config.failedAuthentication) },
    { name: 'audit', filter: config.audit ?? passThrough },
    { name: 'impersonation', filter: withImpersonation(config.authorizer) },
    {
      name: 'max-in-flight',
      filter: withMaxInFlightLimit(
        {
          maxRequestsInflight: config.maxRequestsInflight ?? DEFAULT_MAX_REQUESTS_INFLIGHT,
          maxMutatingRequestsInflight: config.maxMutatingRequestsInflight ?? DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT,
        },
        config.inFlight,
      ),
    },
    { name: 'authorization', filter: withAuthorization(config.authorizer) },
    { name: 'request-body', filter: withRequestBody() },
  ];
}

/**
 * handler wrapped by filters, the first outermost: each filter's handler calls the next one's
 * directly (kube's handler chain), with no layer between them.
 */
export function composeFilters(filters: readonly NamedFilter[], handler: ChainHandler): ChainHandler {
  return filters.reduceRight<ChainHandler>((next, { filter }) => filter(next), handler);
}

/** Serves one request: the response itself when the whole chain answered synchronously. */
export type RequestServer = (request: IncomingAPIRequest) => ChainResult;

/**
 * Serves one request through the chain: a path with dot segments is refused (see
 * dotsegments.ts), the URL is parsed once onto the request context and the request rewritten to
 * its canonical path (see parseRequestURL), and the headers
 * filters added (Audit-Id, CORS, …) are merged into the response.
 */
export function serveThrough(chain: ChainHandler): RequestServer {
  return (request) => {
    // A line the URL parser leaves as it is has no dot segment (see parseVerbatimURL): only the
    // others are checked before they are parsed.
    let url = parseVerbatimURL(request.url);
    if (url === undefined) {
      if (hasDotSegment(request.url)) return errorResponse(dotSegmentError(request.url));
      try {
        url = parseRequestURL(request.url);
      } catch {
        return errorResponse(newBadRequest(`invalid request URL ${JSON.stringify(request.url)}`));
      }
    }
    const canonical = url.pathname + url.search;
    if (canonical !== request.url) request.url = canonical;
    const ctx = newRequestContext(request, url);
    const result = chain(ctx);
    return result instanceof Promise ? result.then((response) => withFilterHeaders(ctx, response)) : withFilterHeaders(ctx, result);
  };
}

function withFilterHeaders(ctx: RequestContext, response: APIResponse): APIResponse {
  // Responses are built per request, so replacing the headers object is safe (and keeps a
  // stream's methods); the request's context is done with, so its headers can be the response's
  // own when the response has none (no copy).
  const added = ctx.responseHeaders;
  for (const _ in added) {
    response.headers = hasAny(response.headers) ? { ...added, ...response.headers } : added;
    break;
  }
  return response;
}

function hasAny(headers: object): boolean {
  for (const _ in headers) return true;
  return false;
}

export function buildHandlerChain(handler: ChainHandler, config: ChainConfig): RequestServer {
  return serveThrough(composeFilters(handlerChainFilters(config), handler));
}

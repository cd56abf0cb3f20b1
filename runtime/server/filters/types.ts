/**
 * The filter chain's contract (kube's DefaultBuildHandlerChain, as functions). A filter is kube's
 * `func(http.Handler) http.Handler`: given the next handler once, when the chain is assembled, it
 * returns its own handler, which gets the request context and returns the response; it may answer
 * itself (401, 403, 429, …) without calling next. A filter that configuration turns off returns
 * next itself (kube does not install it), so it costs a request nothing. Filters are assembled in
 * one place, in kube's order.
 */
import type { AuthorizationResult, UserInfo } from '../../api/auth.js';
import type { APIResponse, RequestInfo } from '../../endpoints/handler.js';
import type { IncomingAPIRequest } from '../../api/request.js';
import type { AuditLevel as Level } from '../../api/admission.js';

/** What the layers read of the request URL: its path and its query. */
export interface RequestURL {
  readonly pathname: string;
  /** `?…`, or '' without a query (as URL.search). */
  readonly search: string;
  readonly searchParams: URLSearchParams;
}

export interface RequestContext {
  readonly request: IncomingAPIRequest;
  /**
   * The request URL, parsed once when the request enters the chain (see parseRequestURL): the
   * path and query every filter and the handler read. Shared: read it, never modify it.
   */
  readonly url: RequestURL;
  /** Set by the request-info filter. */
  info?: RequestInfo;
  /**
   * The `Authorization` header as the request presented it, kept by the authentication filter
   * before an authenticator removes it (as kube's do), so that audit can still scrub the
   * credential wherever else the request repeats it (path, body).
   */
  presentedAuthorization?: string;
  /** Set by authentication (the impersonated user after impersonation). */
  user?: UserInfo;
  /** The authenticated user when impersonation replaced `user`. */
  impersonator?: UserInfo;
  /** Set by authorization, for audit annotations. */
  authorization?: AuthorizationResult;
  /** Monotonic start time (performance.now()). */
  readonly startedAt: number;
  /** Response headers any filter may add (e.g. Audit-Id, Warning). */
  readonly responseHeaders: Record<string, string | string[]>;
  /** Free-form annotations for the audit event (kube's audit annotations). */
  readonly annotations: Record<string, string>;
  /** The audit level the policy gave the request, set by the audit filter (undefined: not audited). */
  auditLevel?: Level;
}

/**
 * A response, or its promise. Filters and handlers that can decide at once return the response
 * itself, so a request the whole chain answers synchronously allocates no promise per layer;
 * a filter awaits only when what it got is a promise (see afterResult).
 */
export type ChainResult = APIResponse | Promise<APIResponse>;

export type ChainHandler = (ctx: RequestContext) => ChainResult;

export type Filter = (next: ChainHandler) => ChainHandler;

/**
 * Runs `after` once `result` is settled: at once for a response, after the promise otherwise
 * (then rethrowing its rejection). Errors thrown synchronously by next(ctx) are the caller's.
 */
export function afterResult(result: ChainResult, after: () => void): ChainResult {
  if (!(result instanceof Promise)) {
    after();
    return result;
  }
  return result.then(
    (response) => {
      after();
      return response;
    },
    (err: unknown) => {
      after();
      throw err;
    },
  );
}

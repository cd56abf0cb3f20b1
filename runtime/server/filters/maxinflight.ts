/**
 * Max-in-flight (kube's WithMaxInFlightLimit): at most `--max-requests-inflight` read-only
 * (get, list) and `--max-mutating-requests-inflight` mutating requests run at once; past the
 * limit a request is refused at once with 429, `Retry-After: 1` and a TooManyRequests Status,
 * rather than queued. Long-running requests (watches) do not count, a limit of 0 means no
 * limit, and `system:masters` members are always served (kube: "a system:master is so
 * powerful that they should always get an answer"). /healthz, /livez and /readyz are never
 * counted nor refused: probes must answer under any load.
 *
 * A request holds its slot until its response has been written to the connection (kube's filter
 * counts until its handler, which writes the response, returns): a LIST answered at once from
 * the watch cache still holds megabytes until the client has read them, and those are what the
 * limit bounds.
 */
import { statusError } from '../../api/status.js';
import { errorResponse } from '../../endpoints/responsewriters.js';
import { isMember, SYSTEM_PRIVILEGED_GROUP } from '../../authentication/user.js';
import type { RequestInfo } from '../../endpoints/handler.js';
import { isLongRunning } from './context.js';
import { afterResult, type ChainResult, type Filter } from './types.js';

export const DEFAULT_MAX_REQUESTS_INFLIGHT = 400;
export const DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT = 200;

const NON_MUTATING_VERBS = new Set(['get', 'list', 'watch']);

export interface InFlightLimits {
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
}

/** The counters, exposed for tests and metrics. */
export class InFlightCounters {
  readOnly = 0;
  mutating = 0;
}

export function tooManyRequestsResponse() {
  return errorResponse(statusError('TooManyRequests', 'Too many requests, please try again later.', { retryAfterSeconds: 1 }));
}

const HEALTH_PATH = /^\/(?:healthz|livez|readyz)(?:\/[^/]*)?$/;

/** /healthz, /livez, /readyz and their named checks (`/readyz/ping`). */
function isHealthProbe(info: RequestInfo | undefined): boolean {
  return info !== undefined && !info.isResourceRequest && HEALTH_PATH.test(info.path);
}

export function withMaxInFlightLimit(limits: InFlightLimits, counters = new InFlightCounters()): Filter {
  const readOnlyDone = () => void counters.readOnly--;
  const mutatingDone = () => void counters.mutating--;
  return (next) => (ctx) => {
    if (isLongRunning(ctx.info) || isHealthProbe(ctx.info)) return next(ctx);
    const mutating = !NON_MUTATING_VERBS.has(ctx.info?.verb ?? '');
    const key = mutating ? 'mutating' : 'readOnly';
    const limit = mutating ? limits.maxMutatingRequestsInflight : limits.maxRequestsInflight;
    if (limit <= 0) return next(ctx);
    if (counters[key] >= limit) {
      if (isMember(ctx.user, SYSTEM_PRIVILEGED_GROUP)) return next(ctx);
      return tooManyRequestsResponse();
    }
    counters[key]++;
    const done = mutating ? mutatingDone : readOnlyDone;
    if (ctx.request.untilWritten) {
      // Released by the HTTP server once the response is written, whatever the chain answers
      // (a throw becomes the panic filter's answer, which is written too).
      ctx.request.untilWritten(done);
      return next(ctx);
    }
    let result: ChainResult;
    try {
      result = next(ctx);
    } catch (err) {
      done();
      throw err;
    }
    return afterResult(result, done);
  };
}

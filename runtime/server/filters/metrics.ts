/**
 * The metrics filter: records each request as kube's InstrumentRouteFunc/MonitorRequest does
 * (apiserver_request_total, apiserver_request_duration_seconds, apiserver_response_sizes), the
 * in-flight and long-running gauges, and 429s as terminations and flow-control rejections.
 *
 * It sits right after request-info, so the duration covers authentication and authorization.
 * Like kube, only requests that reached the handler (authorized) are counted in
 * apiserver_request_total: a 401 or a 403 from the chain is not, and a 429 from max-in-flight is
 * counted in apiserver_request_terminations_total and apiserver_flowcontrol_rejected_requests_total.
 *
 * Cheap on the GET path: one string key per request and one Map lookup find a record holding the
 * request's histogram series and a per-code counter array; no label objects are built.
 */
import { isUnroutedResponse } from '../../endpoints/dispatch.js';
import type { APIResponse, RequestInfo, StreamResponse } from '../../endpoints/handler.js';
import {
  currentInflightRequests,
  flowcontrolRejected,
  longRunningRequests,
  registeredWatchers,
  requestDuration,
  requestTerminations,
  requestTotal,
  responseSizes,
  watchEvents,
} from '../../metrics/apiserver.js';
import type { HistogramSeries, ScalarSeries } from '../../metrics/series.js';
import { isConnectSubresource, isLongRunning } from './context.js';
import type { ChainResult, Filter, RequestContext } from './types.js';

const COMPONENT = 'apiserver';

/** kube's validConnectRequests: subresources reported as CONNECT. Custom CONNECT subresources register here. */
export const CONNECT_SUBRESOURCES = new Set(['log', 'exec', 'portforward', 'attach', 'proxy']);

const RESOURCE_VERBS: Record<string, string> = {
  get: 'GET',
  list: 'LIST',
  watch: 'WATCH',
  create: 'POST',
  update: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  deletecollection: 'DELETECOLLECTION',
};

/** kube's CleanVerb over the installer's verb: LIST, WATCH, APPLY (apply patches), CONNECT. */
export function cleanVerb(info: RequestInfo, method: string, contentType: string | undefined): string {
  if (!info.isResourceRequest) return method.toUpperCase();
  if (info.subresource && (CONNECT_SUBRESOURCES.has(info.subresource) || isConnectSubresource(info))) return 'CONNECT';
  const verb = RESOURCE_VERBS[info.verb];
  if (verb === undefined) return info.verb === 'connect' ? 'CONNECT' : 'other';
  if (verb === 'PATCH' && contentType !== undefined && contentType.startsWith('application/apply-patch')) return 'APPLY';
  return verb;
}

/** kube's CleanScope. */
export function cleanScope(info: RequestInfo): string {
  if (info.name !== '' || info.verb === 'create') return 'resource';
  if (info.namespace !== '') return 'namespace';
  return info.isResourceRequest ? 'cluster' : '';
}

/** kube's cleanDryRun: '' unless the query names dryRun; then its sorted distinct values. */
function cleanDryRun(url: string): string {
  if (!url.includes('dryRun')) return '';
  const q = url.indexOf('?');
  const values = new URLSearchParams(q < 0 ? '' : url.slice(q + 1)).getAll('dryRun');
  if (values.some((v) => v !== 'All')) return 'invalid';
  return [...new Set(values)].sort().join(',');
}

/** Everything recorded for one (verb, dry_run, group, version, resource, subresource, scope). */
interface RequestRecord {
  labels: string[];
  duration: HistogramSeries;
  sizes?: HistogramSeries;
  codes: (ScalarSeries | undefined)[];
}

const records = new Map<string, RequestRecord>();

/**
 * The record found last: consecutive requests often share all seven labels (any GET of one
 * resource does, whatever the object's name), and comparing them costs less than building the
 * key and hashing it.
 */
let lastRecord: RequestRecord | undefined;

function recordFor(verb: string, dryRun: string, group: string, version: string, resource: string, subresource: string, scope: string): RequestRecord {
  const last = lastRecord;
  if (last !== undefined) {
    const l = last.labels;
    if (l[4] === resource && l[0] === verb && l[3] === version && l[2] === group && l[5] === subresource && l[6] === scope && l[1] === dryRun) return last;
  }
  const key = `${verb} ${dryRun} ${group} ${version} ${resource} ${subresource} ${scope}`;
  let r = records.get(key);
  if (!r) {
    const labels = [verb, dryRun, group, version, resource, subresource, scope, COMPONENT];
    r = {
      labels,
      duration: requestDuration.with(...labels),
      // kube: "We are only interested in response sizes of read requests."
      sizes: verb === 'GET' || verb === 'LIST' ? responseSizes.with(verb, group, version, resource, subresource, scope, COMPONENT) : undefined,
      codes: [],
    };
    records.set(key, r);
  }
  lastRecord = r;
  return r;
}

function codeSeries(r: RequestRecord, code: number): ScalarSeries {
  return (r.codes[code] ??= requestTotal.with(...r.labels, String(code)));
}

function responseSize(response: APIResponse): number {
  if (response.kind !== 'object') return 0;
  // payload.length counts UTF-16 units: the byte count for ASCII JSON, without encoding it again.
  return response.body ? response.body.length : response.payload.length;
}

/** The in-flight gauges kube's max-in-flight filter sets (requests counted here, whatever the limit). */
const inflight = { readOnly: currentInflightRequests.with('readOnly'), mutating: currentInflightRequests.with('mutating') };

const READ_ONLY = new Set(['get', 'list', 'watch']);

let kindOf: (group: string, version: string, resource: string) => string = (_g, _v, resource) => resource;

/** How registered_watchers names a resource's kind (set by the server from its installed APIs). */
export function setWatchKindResolver(resolve: (group: string, version: string, resource: string) => string | undefined): void {
  kindOf = (group, version, resource) => resolve(group, version, resource) ?? resource;
}

/**
 * A long-running response counted in apiserver_longrunning_requests until it closes; a watch's
 * events are counted as they are written, and the watch in apiserver_registered_watchers.
 */
function trackLongRunning(response: StreamResponse, info: RequestInfo, verb: string, scope: string): StreamResponse {
  const gauge = longRunningRequests.with(verb, info.apiGroup, info.apiVersion, info.resource, info.subresource, scope, COMPONENT);
  gauge.value++;
  const isWatch = verb === 'WATCH';
  const watchers = isWatch ? registeredWatchers.with(info.apiGroup, info.apiVersion, kindOf(info.apiGroup, info.apiVersion, info.resource)) : undefined;
  if (watchers) watchers.value++;
  const close = response.close.bind(response);
  let closed = false;
  response.close = () => {
    if (!closed) {
      closed = true;
      gauge.value--;
      if (watchers) watchers.value--;
    }
    close();
  };
  if (isWatch) {
    const events = watchEvents.with(info.apiGroup, info.apiVersion, info.resource);
    const chunks = response.chunks;
    response.chunks = {
      [Symbol.asyncIterator]() {
        const it = chunks[Symbol.asyncIterator]();
        return {
          next: () =>
            it.next().then((r) => {
              if (!r.done) events.value++;
              return r;
            }),
          return: (value?: unknown) => (it.return ? it.return(value) : Promise.resolve({ done: true as const, value: undefined })),
        } as AsyncIterator<string | Buffer>;
      },
    };
  }
  return response;
}

export function withMetrics(): Filter {
  return (next) => (ctx) => {
    const info = ctx.info;
    if (!info) return next(ctx);
    const longRunning = isLongRunning(info);
    const gauge = longRunning ? undefined : READ_ONLY.has(info.verb) ? inflight.readOnly : inflight.mutating;
    if (gauge) gauge.value++;
    let result: ChainResult;
    try {
      result = next(ctx);
    } catch (err) {
      if (gauge) gauge.value--;
      throw err;
    }
    if (result instanceof Promise) {
      return result.then((response) => {
        if (gauge) gauge.value--;
        return record(ctx, info, response, longRunning);
      });
    }
    if (gauge) gauge.value--;
    return record(ctx, info, result, longRunning);
  };
}

function record(ctx: RequestContext, info: RequestInfo, response: APIResponse, longRunning: boolean): APIResponse {
  const request = ctx.request;
  const contentType = request.headers['content-type'];
  const verb = cleanVerb(info, request.method, contentType);
  const scope = cleanScope(info);
  const code = response.code;
  if (ctx.authorization?.decision !== 'Allow') {
    // Answered by the chain before the handler: only the self-defence answers are recorded.
    if (code === 429) {
      requestTerminations.with(verb, info.apiGroup, info.apiVersion, info.resource, info.subresource, scope, COMPONENT, '429').value++;
      flowcontrolRejected.with('global-default', 'global-default', 'concurrency-limit').value++;
    }
    return response;
  }
  // A path no route serves is not counted (kube instruments its routes only): its labels are the
  // client's words, and counting them would let one client grow the metrics without bound.
  if (code === 404 && isUnroutedResponse(response)) return response;
  const group = info.isResourceRequest ? info.apiGroup : '';
  const version = info.isResourceRequest ? info.apiVersion : '';
  const resource = info.isResourceRequest ? info.resource : '';
  // Non-resource requests are recorded under their path (kube: requestInfo.Path), when served.
  const subresource = info.isResourceRequest ? info.subresource : code < 400 ? info.path : '';
  const r = recordFor(verb, cleanDryRun(request.url), group, version, resource, subresource, scope);
  codeSeries(r, code).value++;
  if (response.kind === 'stream' && longRunning) {
    // A long-running request's duration is its set-up, as kube records a watch when it starts.
    r.duration.observe((performance.now() - ctx.startedAt) / 1000);
    return trackLongRunning(response, info, verb, scope);
  }
  // A pass-through stream (a proxied answer copied as it comes) is measured when it ends, as
  // kube's instrumentation observes the handler's duration and the bytes it wrote once it returns.
  if (response.kind === 'stream' && response.passThrough) return measuredStream(response, r, ctx.startedAt);
  r.duration.observe((performance.now() - ctx.startedAt) / 1000);
  r.sizes?.observe(responseSize(response));
  return response;
}

/** The stream, observing the request's duration and the bytes written once it ends or closes. */
function measuredStream(response: StreamResponse, r: RequestRecord, startedAt: number): StreamResponse {
  let bytes = 0;
  let observed = false;
  const observe = () => {
    if (observed) return;
    observed = true;
    r.duration.observe((performance.now() - startedAt) / 1000);
    r.sizes?.observe(bytes);
  };
  const source = response.chunks;
  async function* chunks(): AsyncGenerator<string | Buffer> {
    try {
      for await (const chunk of source) {
        bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
        yield chunk;
      }
    } finally {
      observe();
    }
  }
  return {
    ...response,
    chunks: chunks(),
    close() {
      response.close();
      observe();
    },
  };
}

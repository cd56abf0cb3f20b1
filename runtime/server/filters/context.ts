/**
 * Making the per-request context the filters share, and the long-running check (kube's
 * LongRunningRequestCheck: watches and streaming subresources are exempt from the request
 * timeout, the wait group and the in-flight limits).
 */
import { performance } from 'node:perf_hooks';
import type { RequestInfo } from '../../endpoints/handler.js';
import type { IncomingAPIRequest } from '../../api/request.js';
import type { RequestContext } from './types.js';

const LONG_RUNNING_SUBRESOURCES = new Set(['proxy', 'log', 'exec', 'attach', 'portforward']);

export function newRequestContext(request: IncomingAPIRequest): RequestContext {
  return { request, startedAt: performance.now(), responseHeaders: {}, annotations: {} };
}

/** Custom subresources (`group/resource/subresource`): all long-running; some CONNECT. */
const customLongRunning = new Set<string>();
const customConnect = new Set<string>();

/** Registers a custom subresource (the installer does, per installed kind) as long-running, and CONNECT when it is. */
export function registerCustomSubresource(group: string, resource: string, subresource: string, connect: boolean): void {
  const key = `${group}/${resource}/${subresource}`;
  customLongRunning.add(key);
  if (connect) customConnect.add(key);
}

/** Whether the request is for a CONNECT custom subresource. */
export function isConnectSubresource(info: RequestInfo): boolean {
  return info.isResourceRequest && info.subresource !== '' && customConnect.has(`${info.apiGroup}/${info.resource}/${info.subresource}`);
}

/** kube's BasicLongRunningRequestCheck with verbs {watch}, kube's streaming subresources and custom ones. */
export function isLongRunning(info: RequestInfo | undefined): boolean {
  if (!info) return false;
  if (info.verb === 'watch') return true;
  if (!info.isResourceRequest || info.subresource === '') return false;
  return LONG_RUNNING_SUBRESOURCES.has(info.subresource) || customLongRunning.has(`${info.apiGroup}/${info.resource}/${info.subresource}`);
}

/**
 * The request URL, parsed as a path (never as `//authority`), with dot segments resolved. The
 * chain rewrites the request to this form first, so every filter and the handler (anonymous
 * paths, authorization, routing) sees the same path: `/healthz/../apis/x` cannot look like a
 * health check to one layer and a resource to another.
 */
export function requestURL(raw: string): URL {
  // Each layer of a request parses its URL again; the last one parsed is remembered. The URL is
  // therefore shared: callers read it and never modify it (nor its searchParams).
  if (raw === lastRaw) return lastURL;
  const url = new URL(`http://kgen.invalid${raw.startsWith('/') ? raw : `/${raw}`}`);
  lastRaw = raw;
  lastURL = url;
  return url;
}

let lastRaw: string | undefined;
let lastURL: URL;

/**
 * An abort made only when someone asks for its signal: most requests never read theirs, and an
 * AbortController (with AbortSignal.any for a deadline) per request is a measurable cost.
 * abort() before the signal exists is remembered; children (a request's deadline) abort with it.
 */
/**
 * The reason a request's signal aborts with when none is given: one AbortError made once, since
 * AbortController.abort() without a reason builds a DOMException (~5 µs) for every request that
 * took its signal.
 */
const REQUEST_ENDED = new DOMException('This operation was aborted', 'AbortError');

export class LazyAbort {
  private controller?: AbortController;
  private children?: LazyAbort[];
  private reason: unknown;
  aborted = false;

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Aborts (reason undefined: an AbortError), and every child; idempotent. */
  abort(reason: unknown = REQUEST_ENDED): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
    const children = this.children;
    this.children = undefined;
    if (children) for (const child of children) child.abort(reason);
  }

  /** Whether anyone asked for the signal of this abort or of one of its children. */
  get signalMade(): boolean {
    if (this.controller) return true;
    const children = this.children;
    if (children) for (const child of children) if (child.signalMade) return true;
    return false;
  }

  /** A LazyAbort that aborts when this one does, or on its own. */
  child(): LazyAbort {
    const child = new LazyAbort();
    if (this.aborted) child.abort(this.reason);
    else (this.children ??= []).push(child);
    return child;
  }
}

/**
 * A request whose `signal` is its `lazyAbort`'s (the HTTP server's requests): filters that add
 * a deadline replace lazyAbort with a child instead of combining signals.
 */
export interface LazySignalRequest {
  lazyAbort: LazyAbort;
}

/** The request as a LazySignalRequest, when its signal is lazy. */
export function lazySignalRequest(request: object): LazySignalRequest | undefined {
  return (request as Partial<LazySignalRequest>).lazyAbort instanceof LazyAbort ? (request as LazySignalRequest) : undefined;
}

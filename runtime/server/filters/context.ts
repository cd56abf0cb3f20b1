/**
 * Making the per-request context the filters share, and the long-running check (kube's
 * LongRunningRequestCheck: watches and streaming subresources are exempt from the request
 * timeout, the wait group and the in-flight limits).
 */
import { performance } from 'node:perf_hooks';
import type { RequestInfo } from '../../endpoints/handler.js';
import type { IncomingAPIRequest } from '../../api/request.js';
import type { RequestContext, RequestURL } from './types.js';

export type { RequestURL };

const LONG_RUNNING_SUBRESOURCES = new Set(['proxy', 'log', 'exec', 'attach', 'portforward']);

/** The context of one request; `url` is its parsed URL (parsed here when the caller has not). */
export function newRequestContext(request: IncomingAPIRequest, url: RequestURL = parseRequestURL(request.url)): RequestContext {
  return { request, url, startedAt: performance.now(), responseHeaders: {}, annotations: {} };
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
 * A request line the WHATWG URL parser would leave as it is: a path and query of characters it
 * neither percent-encodes nor rewrites (no `\`, space, quotes, `<>`, `` ` ``, `{}`, `#`,
 * non-ASCII or controls), and no dot segment in the path (`/.`, or `%2e` which it reads as `.`).
 */
const VERBATIM = /^\/[\w\-.~!$&()*+,;=:@/%]*(?:\?[\w\-.~!$&()*+,;=:@/?%]*)?$/;
const ENCODED_DOT = /%2e/i;

/**
 * A verbatim request URL: its parts are slices of the request line; the query is parsed on first
 * read, and every request without one shares one empty URLSearchParams (read it, never modify it).
 */
class VerbatimRequestURL implements RequestURL {
  private params?: URLSearchParams;
  constructor(
    readonly pathname: string,
    readonly search: string,
  ) {}

  get searchParams(): URLSearchParams {
    return (this.params ??= this.search === '' ? NO_QUERY : new URLSearchParams(this.search));
  }
}

const NO_QUERY = new URLSearchParams();

/**
 * The request URL, parsed as a path (never as `//authority`), with dot segments resolved, as
 * `new URL` parses it, but for a `\` in the path, kept as a character (see literalBackslashes).
 * A request line it would leave as it is is only split (most are). The chain parses it once, rewrites the request to this form and keeps it on the
 * request context (RequestContext.url, passed on as ResolvedRequest.url), so every filter and
 * the handler (anonymous paths, authorization, routing) reads the same parse: `/healthz/../apis/x`
 * cannot look like a health check to one layer and a resource to another.
 */
export function parseRequestURL(raw: string): RequestURL {
  return parseVerbatimURL(raw) ?? new URL(`http://kgen.invalid${literalBackslashes(raw.startsWith('/') ? raw : `/${raw}`)}`);
}

/**
 * The request line with every `\` of its path percent-encoded. The URL parser reads `\` in an
 * http URL's path as `/` (browsers' rule); Go keeps it as a character of its segment, and kube
 * splits paths on `/` only. Read as `/`, `/healthz\..\api/v1/secrets` would resolve to the
 * Secret list (a dot segment dotsegments.ts never saw) and `/api\v1\secrets` would be that
 * list too, behind a proxy that saw neither path.
 */
function literalBackslashes(raw: string): string {
  const backslash = raw.indexOf('\\');
  if (backslash < 0) return raw;
  const query = raw.indexOf('?');
  if (query >= 0 && query < backslash) return raw;
  const end = query < 0 ? raw.length : query;
  return raw.slice(0, end).replaceAll('\\', '%5C') + raw.slice(end);
}

/**
 * The request URL when the URL parser would leave the line as it is (see VERBATIM), else
 * undefined. Such a line has no dot segment: every segment follows a `/`, and a line with `/.`
 * or `%2e` in its path is not taken here.
 */
export function parseVerbatimURL(raw: string): RequestURL | undefined {
  if (!VERBATIM.test(raw)) return undefined;
  const q = raw.indexOf('?');
  const pathname = q < 0 ? raw : raw.slice(0, q);
  if (pathname.includes('/.') || ENCODED_DOT.test(pathname)) return undefined;
  return new VerbatimRequestURL(pathname, q < 0 || q === raw.length - 1 ? '' : raw.slice(q));
}

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

function noop(): void {}

export class LazyAbort {
  private controller?: AbortController;
  private children?: LazyAbort[];
  private listeners?: ((reason: unknown) => void)[];
  /** Why it aborted (undefined until then). */
  reason: unknown;
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
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) for (const listener of listeners) listener(reason);
    const children = this.children;
    this.children = undefined;
    if (children) for (const child of children) child.abort(reason);
  }

  /**
   * Calls listener (once) with the reason when this aborts, without making a signal: what a
   * request body read needs (an AbortSignal, its listener and its removal cost ~2 % of a
   * create's CPU). Returns the listener's removal. Not called if this has already aborted:
   * callers check `aborted` first.
   */
  onAbort(listener: (reason: unknown) => void): () => void {
    if (this.aborted) return noop;
    (this.listeners ??= []).push(listener);
    return () => {
      const listeners = this.listeners;
      const i = listeners ? listeners.indexOf(listener) : -1;
      if (i >= 0) listeners!.splice(i, 1);
    };
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

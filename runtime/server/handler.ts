/**
 * The API server's request handling, independent of fastify: resolve RequestInfo, answer the
 * non-resource paths (merged discovery, OpenAPI, health, version), and pass everything else down
 * the server chain (runtime/server/delegation.ts). Anything unmatched is kube's 404 Status.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { UserInfo } from '../api/auth.js';
import { statusError } from '../api/status.js';
import type { IncomingAPIRequest, UpgradeRequest } from '../api/request.js';
import { notFoundResponse } from '../endpoints/dispatch.js';
import type { APIRequest, APIResponse, RequestInfo } from '../endpoints/handler.js';
import { errorResponse, objectResponse } from '../endpoints/responsewriters.js';
import type { DelegationTarget, ResolvedRequest } from './delegation.js';
import { HEALTH_ENDPOINTS, serveHealth, type HealthCheck, type HealthEndpoint } from './health.js';
import type { OpenAPIRequestHeaders } from './openapi.js';
import { parseRequestURL, type RequestURL } from './filters/context.js';
import { resolveRequestInfo, splitPath } from './requestinfo.js';
import { versionInfo } from './version.js';

export type { IncomingAPIRequest } from '../api/request.js';
export type { ResolvedRequest } from './delegation.js';

/** The request's parsed URL: the chain's, or parsed here for a request that did not come through it. */
export function urlOf(incoming: IncomingAPIRequest, resolved: ResolvedRequest): RequestURL {
  return resolved.url ?? parseRequestURL(incoming.url);
}

export interface APIServerParts {
  /**
   * The server chain after the front (kube's CreateServerChain): the aggregator's remote
   * APIServices, the compiled-APIs server, the extensions server. Each answers what it owns and
   * passes the rest on; what no one answers is kube's 404.
   */
  chain: readonly DelegationTarget[];
  /** Discovery merged over every server of the chain. */
  discovery: { serve(segments: string[], accept: string | undefined): APIResponse | undefined };
  /** OpenAPI merged over every server of the chain. */
  openapi: { serve(segments: string[], query: URLSearchParams, headers: OpenAPIRequestHeaders): APIResponse | undefined };
  health: Record<HealthEndpoint, readonly HealthCheck[]>;
  /** More non-resource handlers (metrics, profiles, the HTML reference), tried after the built-in ones. */
  nonResource?: readonly [string, NonResourceHandler][];
}

export type NonResourceHandler = (req: APIRequest, segments: string[]) => Promise<APIResponse | undefined> | APIResponse | undefined;

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/**
 * Whether a path has an empty segment (`//`). kube authorizes such a path (its request info trims
 * the outer slashes and keeps inner empty parts) but routes none: the API server's director and
 * go-restful match `/api/v1/…` by prefix and token, the path recorder exactly. kgen's segments
 * skip empty ones, so `/api/v1//secrets` would be the Secret list, behind a proxy in front that
 * saw another path: such a path is kube's 404, after authentication and authorization.
 */
function hasEmptySegment(path: string): boolean {
  return path.includes('//');
}

/** An APIRequest whose signal is read through: the server makes it only if a handler asks. */
class ResolvedAPIRequest implements APIRequest {
  body?: Buffer;
  constructor(
    public info: APIRequest['info'],
    public method: string,
    public query: URLSearchParams,
    public headers: IncomingHttpHeaders,
    body: Buffer | undefined,
    public user: APIRequest['user'],
    private readonly incoming: IncomingAPIRequest,
    private readonly resolved: ResolvedRequest,
  ) {
    if (body !== undefined) this.body = body;
  }

  get auditAnnotations(): Record<string, string> | undefined {
    return this.resolved.annotations;
  }

  get auditLevel(): APIRequest['auditLevel'] {
    return this.resolved.auditLevel;
  }

  get signal(): AbortSignal {
    return this.incoming.signal;
  }

  get upgrade(): UpgradeRequest | undefined {
    return this.incoming.upgrade;
  }
}

/** The handlers' view of a request the chain resolved (info must be set). */
export function apiRequestOf(incoming: IncomingAPIRequest, resolved: ResolvedRequest): APIRequest {
  const url = urlOf(incoming, resolved);
  const info = resolved.info ?? resolveRequestInfo(incoming.method, url.pathname, url.searchParams);
  return new ResolvedAPIRequest(info, incoming.method, url.searchParams, incoming.headers, incoming.body, resolved.user, incoming, resolved);
}

/**
 * The front of the server chain (kube's aggregator handler with its delegates): non-resource
 * requests for discovery, OpenAPI, health and version are answered here from the merged
 * documents; everything else goes down the chain of DelegationTargets.
 */
export class APIServerHandler {
  /** Non-resource handlers, tried in this order; each answers undefined for paths it does not own. */
  private readonly nonResource: readonly [string, NonResourceHandler][];

  constructor(private readonly parts: APIServerParts) {
    this.nonResource = [
      ['discovery', (req, segments) => parts.discovery.serve(segments, header(req.headers, 'accept'))],
      [
        'openapi',
        (req, segments) =>
          parts.openapi.serve(segments, req.query, {
            accept: header(req.headers, 'accept'),
            'if-none-match': header(req.headers, 'if-none-match'),
          }),
      ],
      ['health', (req, segments) => this.health(req, segments)],
      ['version', (_req, segments) => (segments.length === 1 && segments[0] === 'version' ? objectResponse(200, versionInfo()) : undefined)],
      ...(parts.nonResource ?? []),
    ];
  }

  /**
   * Serves a request; `resolved` carries the chain's RequestInfo and user (else resolved here,
   * anonymous). Resource requests go straight down the chain, awaiting only a server that
   * answers with a promise.
   */
  handle(incoming: IncomingAPIRequest, resolved: ResolvedRequest = {}): APIResponse | Promise<APIResponse> {
    try {
      // The chain's own context is what it resolved: passed down as it is, not copied per request.
      if (resolved.info?.isResourceRequest) {
        return hasEmptySegment(resolved.info.path) ? notFoundResponse() : this.delegate(incoming, resolved, 0);
      }
      const url = urlOf(incoming, resolved);
      if (hasEmptySegment(url.pathname)) return notFoundResponse();
      const { user, annotations, auditLevel } = resolved;
      const req = apiRequestOf(incoming, { url, info: resolved.info, user, annotations, auditLevel });
      const delegated: ResolvedRequest = { url, info: req.info, user, annotations, auditLevel };
      if (req.info.isResourceRequest) return this.delegate(incoming, delegated, 0);
      return this.nonResourceRequest(incoming, req, delegated);
    } catch (err) {
      return errorResponse(err);
    }
  }

  private async nonResourceRequest(incoming: IncomingAPIRequest, req: APIRequest, delegated: ResolvedRequest): Promise<APIResponse> {
    try {
      const segments = splitPath(urlOf(incoming, delegated).pathname);
      for (const [, handle] of this.nonResource) {
        const response = await handle(req, segments);
        if (!response) continue;
        if (incoming.method !== 'GET' && incoming.method !== 'HEAD') {
          return errorResponse(statusError('MethodNotAllowed', `the server does not allow this method on the requested resource`));
        }
        return response;
      }
      return await this.delegate(incoming, delegated, 0);
    } catch (err) {
      return errorResponse(err);
    }
  }

  /** Passes the request to the chain's servers from `from` on; what none answers is kube's 404. */
  private delegate(incoming: IncomingAPIRequest, delegated: ResolvedRequest, from: number): APIResponse | Promise<APIResponse> {
    const chain = this.parts.chain;
    for (let i = from; i < chain.length; i++) {
      const answer: APIResponse | undefined | Promise<APIResponse | undefined> = chain[i]!.serve(incoming, delegated);
      if (answer instanceof Promise) {
        return answer.then(
          (response) => response ?? this.delegateCatching(incoming, delegated, i + 1),
          (err: unknown) => errorResponse(err),
        );
      }
      if (answer) return answer;
    }
    return notFoundResponse();
  }

  private delegateCatching(incoming: IncomingAPIRequest, delegated: ResolvedRequest, from: number): APIResponse | Promise<APIResponse> {
    try {
      return this.delegate(incoming, delegated, from);
    } catch (err) {
      return errorResponse(err);
    }
  }

  private health(req: APIRequest, segments: string[]): Promise<APIResponse | undefined> | undefined {
    const endpoint = segments[0] as HealthEndpoint;
    if (!(HEALTH_ENDPOINTS as readonly string[]).includes(endpoint)) return undefined;
    return serveHealth(endpoint, this.parts.health[endpoint], segments.slice(1), req.query);
  }
}

/**
 * The API server's request handling, independent of fastify: resolve RequestInfo, then either
 * dispatch a resource request to its RequestScope or try the non-resource handlers in order
 * (discovery, OpenAPI, health, version). Anything unmatched is kube's 404 Status.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { UserInfo } from '../api/auth.js';
import { statusError } from '../api/status.js';
import type { ClientCertificate } from '../authentication/x509.js';
import { notFoundResponse, serveResource } from '../endpoints/dispatch.js';
import type { APIRequest, APIResponse, RequestInfo } from '../endpoints/handler.js';
import { errorResponse, objectResponse } from '../endpoints/responsewriters.js';
import type { DiscoveryDocuments } from './discovery.js';
import { HEALTH_ENDPOINTS, serveHealth, type HealthCheck, type HealthEndpoint } from './health.js';
import type { APIInstaller } from './installer.js';
import type { OpenAPIDocuments } from './openapi.js';
import { requestURL } from './filters/context.js';
import { resolveRequestInfo, splitPath } from './requestinfo.js';
import { versionInfo } from './version.js';

export interface IncomingAPIRequest {
  method: string;
  /** Path and query, as on the request line. */
  url: string;
  headers: IncomingHttpHeaders;
  body?: Buffer;
  signal: AbortSignal;
  /** The client's address on the connection (for audit sourceIPs). */
  remoteAddress?: string;
  /** Every header's values, one per header line (Node joins repeated ones with ", "). */
  headersDistinct?: Record<string, string[]>;
  /** The client's TLS certificate, as the TLS layer verified it; absent without one. */
  clientCertificate?: ClientCertificate;
}

/** What the filter chain resolved before the handler runs. */
export interface ResolvedRequest {
  info?: RequestInfo;
  user?: UserInfo;
}

export interface APIServerParts {
  installer: APIInstaller;
  discovery: DiscoveryDocuments;
  openapi: OpenAPIDocuments;
  health: Record<HealthEndpoint, readonly HealthCheck[]>;
}

type NonResourceHandler = (req: APIRequest, segments: string[]) => Promise<APIResponse | undefined> | APIResponse | undefined;

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

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
    ];
  }

  /** Serves a request; `resolved` carries the chain's RequestInfo and user (else resolved here, anonymous). */
  async handle(incoming: IncomingAPIRequest, resolved: ResolvedRequest = {}): Promise<APIResponse> {
    try {
      const url = requestURL(incoming.url);
      const info = resolved.info ?? resolveRequestInfo(incoming.method, url.pathname, url.searchParams);
      const req: APIRequest = {
        info,
        method: incoming.method,
        query: url.searchParams,
        headers: incoming.headers,
        body: incoming.body,
        signal: incoming.signal,
        user: resolved.user,
      };
      if (info.isResourceRequest) return await this.resource(req);
      const segments = splitPath(url.pathname);
      for (const [, handle] of this.nonResource) {
        const response = await handle(req, segments);
        if (!response) continue;
        if (incoming.method !== 'GET' && incoming.method !== 'HEAD') {
          return errorResponse(statusError('MethodNotAllowed', `the server does not allow this method on the requested resource`));
        }
        return response;
      }
      return notFoundResponse();
    } catch (err) {
      return errorResponse(err);
    }
  }

  private async resource(req: APIRequest): Promise<APIResponse> {
    const { apiGroup, apiVersion, resource } = req.info;
    const scope = this.parts.installer.lookup(apiGroup, apiVersion, resource);
    if (!scope) return notFoundResponse();
    return serveResource(scope, req);
  }

  private health(req: APIRequest, segments: string[]): Promise<APIResponse | undefined> | undefined {
    const endpoint = segments[0] as HealthEndpoint;
    if (!(HEALTH_ENDPOINTS as readonly string[]).includes(endpoint)) return undefined;
    return serveHealth(endpoint, this.parts.health[endpoint], segments.slice(1), req.query);
  }
}

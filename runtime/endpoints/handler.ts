/**
 * The shapes every endpoint handler shares, independent of the HTTP framework: the parsed
 * request (RequestInfo plus query, headers and raw body), the per-resource RequestScope (kube's
 * handlers.RequestScope) and the response the server writes.
 */
import type { SubresourceHandler } from '../api/subresources.js';
import type { IncomingHttpHeaders } from 'node:http';
import type { UserInfo, VersionConverter, VersionDefaulter } from '../api/auth.js';
import type { AuditLevel } from '../api/admission.js';
import type { UpgradeRequest } from '../api/request.js';
export type { UpgradeRequest } from '../api/request.js';
import type { ResourceAdmission } from '../admission/chain.js';
import type { KubeObject } from '../api/meta.js';
import type { ResourceDefinition } from '../api/resource.js';
import type { Store } from '../registry/store.js';
import type { SchemaValidator } from '../registry/strategy.js';
import type { FieldManager } from './fieldmanager/index.js';

/** What kube's RequestInfoResolver derives from a request (k8s.io/apiserver/pkg/endpoints/request). */
export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  /** get, list, watch, create, update, patch, delete, deletecollection; lower-case HTTP method otherwise. */
  verb: string;
  /** `api` or `apis` for resource requests. */
  apiPrefix: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  parts: string[];
}

export interface APIRequest {
  info: RequestInfo;
  method: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The raw request body; undefined when there was none. */
  body?: Buffer;
  /** Aborted when the client disconnects. */
  signal: AbortSignal;
  /**
   * Who is asking, as authentication (and impersonation) resolved it; admission and handlers
   * read it here. Undefined only when a handler is called outside the server's filter chain.
   */
  user?: UserInfo;
  /** An HTTP upgrade (WebSocket) request's connection, for CONNECT subresources. */
  upgrade?: UpgradeRequest;
  /**
   * The warnings recorded while serving (kube's warning.AddWarning), made on first use by
   * requestWarnings: sent with the response, an error's too (a webhook's warnings with its
   * denial, an unknown field's with a 422).
   */
  warnings?: string[];
  /**
   * The audit event's annotations (the chain's RequestContext.annotations), which admission adds
   * to, and the request's audit level; absent outside the chain or when nothing is audited.
   */
  auditAnnotations?: Record<string, string>;
  auditLevel?: AuditLevel;
}

/** The request's warning recorder (APIRequest.warnings). */
export function requestWarnings(req: APIRequest): string[] {
  return (req.warnings ??= []);
}


export type ResponseHeaders = Record<string, string | string[]>;

export interface ObjectResponse {
  kind: 'object';
  code: number;
  contentType: string;
  headers: ResponseHeaders;
  payload: string;
  /**
   * The bytes written: payload's UTF-8 bytes when the writer assembled them already (cached
   * encodings), or bytes that are not text (a proxied protobuf answer; payload is then their
   * UTF-8 reading, for logs only).
   */
  readonly body?: Buffer;
}

/**
 * A long-running response (watch): chunks are written and flushed as they come; a string is
 * written as UTF-8, a Buffer as it is (a proxied backend's bytes, which may not be text).
 */
export interface StreamResponse {
  kind: 'stream';
  code: number;
  contentType: string;
  headers: ResponseHeaders;
  chunks: AsyncIterable<string | Buffer>;
  /** Ends the stream early (client gone); safe to call more than once. */
  close(): void;
  /**
   * A proxied backend's answer that is not a watch (kube's UpgradeAwareHandler copies it as it
   * comes): its headers are written as they are (no Cache-Control or Transfer-Encoding added; a
   * Content-Length the backend sent is kept), it is not a long-running request (the request's
   * deadline still applies; shutdown waits for it rather than ending it), and when its chunks
   * fail (the backend broke off, the deadline passed) the connection is cut without the last
   * chunk, as Go's server does on ErrAbortHandler: the client sees a broken answer, never a
   * complete-looking short one, and no second status.
   */
  readonly passThrough?: boolean;
}

/**
 * Go's http.ErrAbortHandler: thrown by a stream's chunks to cut the client's connection instead
 * of ending its answer (no last chunk), so the client sees the answer break off (an unexpected
 * EOF) rather than a whole one. A pass-through stream is cut on any failure; a long-running one
 * (a watch) ends cleanly when its source ends or fails, unless its chunks throw this.
 */
export class AbortHandlerError extends Error {}

export type APIResponse = ObjectResponse | StreamResponse;

/** Everything a handler needs to serve one resource of one group/version. */
export interface RequestScope {
  definition: ResourceDefinition;
  /** `widgets.example.com/v1`, or `v1` for the core group. */
  apiVersion: string;
  store: Store;
  /** The store of `…/status`, present when the status subresource is enabled. */
  statusStore?: Store;
  validator: SchemaValidator;
  /** managedFields, server-side apply and strategic merge patch; absent means untyped structure. */
  fieldManager?: FieldManager;
  /** Admission of writes (plugins, typed hooks, webhooks); absent admits everything. */
  admission?: ResourceAdmission;
  /**
   * A virtual resource's REST implementation (kube's rest.Creater): computes the object a POST is
   * answered with; nothing is stored. Only for definitions marked `virtual`.
   */
  creater?: Creater;
  /**
   * Converts an object of another version of this kind to this version (kube's scheme, or the
   * CRD's converter): admission uses it for a webhook's patch that changes the apiVersion.
   */
  versionConverter?: VersionConverter;
  /** Defaults an object in its own version of this kind (kube's ObjectDefaulter); admission uses it for a webhook's patched object. */
  versionDefaulter?: VersionDefaulter;
  /** The Scale's status.selector when the kind computes it (its storage provider's scaleSelector). */
  scaleSelector?: (obj: KubeObject) => string | undefined;
  /** ServiceAccounts' TokenRequest subresource (`…/token`): signs a token for the named account. */
  tokenRequest?: Creater;
  /** The user's handler of a custom subresource (`kgen serve --handlers`), read per request. */
  subresourceHandler?: (name: string) => SubresourceHandler<unknown, unknown> | undefined;
}

export type Creater = (obj: KubeObject, req: APIRequest) => Promise<KubeObject>;

/** A verb's handler: the response itself when it can answer at once (see serveResource), else its promise. */
export type Handler = (scope: RequestScope, req: APIRequest) => APIResponse | Promise<APIResponse>;

/**
 * The server chain's contract (kube's genericapiserver.DelegationTarget, as used by
 * CreateServerChain): aggregator → compiled-APIs server → extensions server → not found.
 *
 * Every server in the chain answers the requests it owns and returns undefined for the rest, which
 * the chain passes to the next server; the last "not found" answer is kube's 404 Status. The
 * aggregator in front merges the discovery and OpenAPI of every server behind it (and of remote
 * APIServices), so each server only reports what it serves.
 */
import type { UserInfo } from '../api/auth.js';
import type { AuditLevel } from '../api/admission.js';
import type { IncomingAPIRequest } from '../api/request.js';
import type { APIResponse, RequestInfo } from '../endpoints/handler.js';
import type { RequestURL } from './filters/types.js';

/** What the filter chain resolved before the handler runs. */
export interface ResolvedRequest {
  /** The request URL as the chain parsed it (RequestContext.url); parsed again only when absent. */
  url?: RequestURL;
  info?: RequestInfo;
  user?: UserInfo;
  /** The audit event's annotations and the request's audit level (RequestContext's), for admission. */
  annotations?: Record<string, string>;
  auditLevel?: AuditLevel;
}

/** One group/version a server serves, as the aggregator needs it for discovery and OpenAPI. */
export interface ServedGroupVersion {
  /** '' for the legacy core group. */
  group: string;
  version: string;
  /**
   * kube's group and version priorities (APIService spec.groupPriorityMinimum / versionPriority):
   * higher first. Discovery lists groups by group priority and versions by version priority, the
   * preferred version first.
   */
  groupPriority: number;
  versionPriority: number;
  /** The legacy discovery document `/apis/<g>/<v>` (or `/api/v1`): a v1 APIResourceList. */
  resourceList(): unknown;
  /** This version's entry in aggregated discovery: an apidiscovery.k8s.io/v2 APIVersionDiscovery. */
  aggregated(): unknown;
  /** The OpenAPI v3 document `/openapi/v3/apis/<g>/<v>` (or `api/v1`). */
  openapiV3(): unknown;
  /**
   * Set when the document is its server's own, asked of that server live (a remote APIService:
   * kube-aggregator's specProxier keeps a backend's `/openapi/v3` index, not its documents): the
   * serverRelativeURL the backend's last index gave, undefined until an index listed it. The
   * front lists that URL and leaves `/openapi/v3/<key>` to the server's own serve();
   * openapiV3() is then only for `/openapi/v2`'s conversion.
   */
  openapiV3URL?(): string | undefined;
  /**
   * Every path of the server's last `/openapi/v3` index, key → serverRelativeURL (a remote
   * APIService's backend): kube's merged root lists them all, not only this group/version's, and
   * leaves `/openapi/v3/<key>` of those it lists to the server's own serve().
   */
  openapiV3Index?(): ReadonlyMap<string, string> | undefined;
  /**
   * This group/version's paths, definitions and shared parameters in `/openapi/v2`, when its
   * server prints them (CRDs: the printer compiled kinds use); otherwise the aggregator converts
   * the v3 document.
   */
  openapiV2?(): { paths: Record<string, unknown>; definitions: Record<string, unknown>; parameters?: Record<string, unknown> };
}

/** A server's answer (see DelegationTarget.serve): now, or its promise. */
export type DelegationResult = APIResponse | undefined | Promise<APIResponse | undefined>;

export interface DelegationTarget {
  /** For logs and errors: 'kgen-apiserver', 'apiextensions-apiserver', … */
  readonly name: string;
  /**
   * Answers a request this server owns; undefined passes it to the next server in the chain. A
   * server that can decide at once (not its request, or a response from the watch cache) answers
   * synchronously, so such a request awaits nothing (like the filters' ChainResult); only a server
   * that has to wait returns a promise.
   */
  serve(incoming: IncomingAPIRequest, resolved: ResolvedRequest): DelegationResult;
  /** The group/versions served now (a CRD can add or remove some at run time). */
  groupVersions(): readonly ServedGroupVersion[];
  /** Registers a listener called whenever groupVersions() changes; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
}

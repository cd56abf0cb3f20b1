/**
 * RequestInfoResolver, as k8s.io/apiserver/pkg/endpoints/request/requestinfo.go: derives verb,
 * group, version, namespace, resource, subresource and name from method, path and query. The
 * server routes with it instead of registering a route per resource.
 *
 *   /api/v1/namespaces/{ns}/{resource}/{name}/{subresource}
 *   /apis/{group}/{version}/namespaces/{ns}/{resource}/{name}/{subresource}
 *   /apis/{group}/{version}/{resource}/{name}/{subresource}            (cluster-scoped)
 *   /api/v1/watch/…                                                     (legacy watch prefix)
 *
 * As in kube, a list or watch pinned by `fieldSelector=metadata.name=<n>` gets name <n>, so
 * that RBAC rules with resourceNames authorize it (`kubectl get widget w -w`). The name then does
 * not mean a path segment: handlers that need the URL's own name read `parts[1]`.
 */
import type { RequestInfo } from '../endpoints/handler.js';
import { parseBool } from '../endpoints/queryparams.js';
import { parseFieldRequirements } from '../registry/fieldselector.js';
import { isValidPathSegmentName } from '../validation/names.js';

export type { RequestInfo };

const API_PREFIXES = new Set(['api', 'apis']);
const GROUPLESS_PREFIXES = new Set(['api']);
/** Subresources of a namespace itself: /api/v1/namespaces/{name}/status is not a resource in {name}. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

const METHOD_VERBS = new Map([
  ['POST', 'create'],
  ['GET', 'get'],
  ['HEAD', 'get'],
  ['PUT', 'update'],
  ['PATCH', 'patch'],
  ['DELETE', 'delete'],
]);

/** Splits a URL path into decoded segments, ignoring empty ones (`//`, trailing `/`). */
export function splitPath(path: string): string[] {
  // One pass, no intermediate array (this runs on every request).
  const segments: string[] = [];
  let start = 0;
  for (let i = 0; i < path.length; i++) {
    if (path.charCodeAt(i) !== 0x2f) continue;
    if (i > start) segments.push(path.slice(start, i));
    start = i + 1;
  }
  if (start < path.length) segments.push(path.slice(start));
  if (!path.includes('%')) return segments;
  return segments.map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
}

function nonResource(path: string, method: string): RequestInfo {
  return {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [],
  };
}

function isWatch(query: URLSearchParams): boolean {
  try {
    return parseBool(query, 'watch');
  } catch {
    return false;
  }
}

/**
 * The name a list's field selector pins (`metadata.name=<n>` or `==`; the first such term in
 * kube's sorted order), if it is a valid path segment; '' when there is none or the selector
 * does not parse (kube then records no name either).
 */
function selectedName(query: URLSearchParams): string {
  const selector = query.get('fieldSelector');
  if (!selector || !selector.includes('metadata.name')) return '';
  let name: string | undefined;
  try {
    name = parseFieldRequirements(selector).find((r) => r.field === 'metadata.name' && r.operator === '=')?.value;
  } catch {
    return '';
  }
  return name !== undefined && isValidPathSegmentName(name).length === 0 ? name : '';
}

/**
 * kube's RequestInfoFactory.NewRequestInfo. The path's segments are read in place (an index
 * moves over them, as kube reslices its parts), and the info object is made once, when its kind
 * is known: this runs on every request.
 */
export function resolveRequestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const segments = splitPath(path);
  const prefix = segments[0];
  if (prefix === undefined || !API_PREFIXES.has(prefix)) return nonResource(path, method);
  let at = 1;
  let apiGroup = '';
  if (!GROUPLESS_PREFIXES.has(prefix)) {
    // /apis/{group}/{version}/{resource}: fewer parts is discovery, not a resource request.
    if (segments.length - at < 3) return discovery(path, method, prefix);
    apiGroup = segments[at++]!;
  } else if (segments.length - at < 2) {
    return discovery(path, method, prefix);
  }
  const apiVersion = segments[at++]!;
  let verb = METHOD_VERBS.get(method) ?? METHOD_VERBS.get(method.toUpperCase()) ?? method.toLowerCase();
  if (segments[at] === 'watch') {
    verb = 'watch';
    at++;
  }
  let namespace = '';
  if (segments[at] === 'namespaces' && segments.length - at > 1) {
    namespace = segments[at + 1]!;
    if (segments.length - at > 2 && !NAMESPACE_SUBRESOURCES.has(segments[at + 2]!)) at += 2;
  }
  // The segments from `at` on are the parts: moved to the front of the array, which is then theirs.
  if (at > 0) {
    segments.copyWithin(0, at);
    segments.length -= at;
  }
  const parts = segments;
  const info: RequestInfo = {
    isResourceRequest: true,
    path,
    verb,
    apiPrefix: prefix,
    apiGroup,
    apiVersion,
    namespace,
    resource: parts.length >= 1 ? parts[0]! : '',
    subresource: parts.length >= 3 ? parts[2]! : '',
    name: parts.length >= 2 ? parts[1]! : '',
    parts,
  };
  if (info.name === '' && info.verb === 'get') {
    info.verb = isWatch(query) ? 'watch' : 'list';
    info.name = selectedName(query);
  }
  if (info.name === '' && info.verb === 'delete') info.verb = 'deletecollection';
  return info;
}

/** A path under /api or /apis short of a resource (discovery): not a resource request. */
function discovery(path: string, method: string, prefix: string): RequestInfo {
  const info = nonResource(path, method);
  info.apiPrefix = prefix;
  return info;
}

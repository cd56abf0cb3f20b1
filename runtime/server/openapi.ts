/**
 * OpenAPI serving (k8s.io/kube-openapi handler3 and handler): `/openapi/v3` lists one document per
 * group/version with a content hash in its serverRelativeURL; a document fetched with the
 * current hash is immutable, with an outdated hash it redirects to the current URL.
 * `/openapi/v2` is served as JSON only (406 when the client accepts only protobuf).
 *
 * The documents themselves come from every server of the chain, merged by
 * runtime/aggregator/openapi.ts; this module holds the HTTP side.
 */
import { createHash } from 'node:crypto';
import type { APIResponse, ObjectResponse, ResponseHeaders } from '../endpoints/handler.js';
import { parseMediaRanges } from '../endpoints/negotiation.js';
import { statusError } from '../api/status.js';
import { errorResponse } from '../endpoints/responsewriters.js';

/** A serialized document and its hash (kube-openapi's ETag and serverRelativeURL hash). */
export interface OpenAPIDocument {
  payload: string;
  hash: string;
}

export function openAPIDocument(payload: string): OpenAPIDocument {
  return { payload, hash: createHash('sha512').update(payload).digest('hex').toUpperCase() };
}

/** `apis/<g>/<v>`, or `api/v1` for the core group: the key under /openapi/v3. */
export function v3Key(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

export interface OpenAPIRequestHeaders {
  accept?: string;
  'if-none-match'?: string;
}

export function documentResponse(doc: OpenAPIDocument, headers: ResponseHeaders, ifNoneMatch: string | undefined): ObjectResponse {
  const etag = `"${doc.hash}"`;
  const all = { ETag: etag, ...headers };
  if (ifNoneMatch && ifNoneMatch.split(',').map((s) => s.trim()).includes(etag)) {
    return { kind: 'object', code: 304, contentType: 'application/json', headers: all, payload: '' };
  }
  return { kind: 'object', code: 200, contentType: 'application/json', headers: all, payload: doc.payload };
}

/** `/openapi/v3`: the index of every group/version document. */
export function v3IndexResponse(docs: ReadonlyMap<string, OpenAPIDocument>): APIResponse {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const [key, doc] of [...docs.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${doc.hash}` };
  }
  return { kind: 'object', code: 200, contentType: 'application/json', headers: { 'Cache-Control': 'no-cache, private' }, payload: JSON.stringify({ paths }) };
}

/** `/openapi/v3/<key>`: immutable with the current hash, redirected with an outdated one. */
export function v3DocumentResponse(key: string, doc: OpenAPIDocument, query: URLSearchParams, headers: OpenAPIRequestHeaders): APIResponse {
  const hash = query.get('hash');
  if (hash && hash !== doc.hash) {
    return { kind: 'object', code: 301, contentType: 'text/plain', headers: { Location: `/openapi/v3/${key}?hash=${doc.hash}` }, payload: '' };
  }
  const caching: ResponseHeaders = hash
    ? { 'Cache-Control': 'public, immutable', Expires: new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString() }
    : { 'Cache-Control': 'no-cache, private' };
  return documentResponse(doc, caching, headers['if-none-match']);
}

/** `/openapi/v2`, JSON only. */
export function v2Response(doc: OpenAPIDocument | undefined, headers: OpenAPIRequestHeaders): APIResponse {
  if (!doc) return errorResponse(statusError('NotFound', 'the server could not find the requested resource', {}));
  const ranges = parseMediaRanges(headers.accept);
  const json = ranges.length === 0 || ranges.some((r) => (r.type === 'application' && (r.subtype === 'json' || r.subtype === '*')) || (r.type === '*' && r.subtype === '*'));
  if (!json) {
    return errorResponse(statusError('NotAcceptable', 'only the following media types are accepted: application/json'));
  }
  return documentResponse(doc, { 'Cache-Control': 'no-cache, private' }, headers['if-none-match']);
}

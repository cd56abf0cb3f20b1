/**
 * OpenAPI serving (k8s.io/kube-openapi handler3 and handler): `/openapi/v3` lists one document per
 * group/version with a content hash in its serverRelativeURL; a document fetched with the
 * current hash is immutable, with an outdated hash it redirects to the current URL.
 * `/openapi/v2` is served as JSON, or as gnostic's protobuf Document when the client asks for
 * `application/com.github.proto-openapi.spec.v2@v1.0+protobuf` (kubectl 1.27 and 1.28 always do,
 * later versions for lists and kinds OpenAPI v3 does not know); each representation has its own
 * ETag (the hash of its bytes) and answers 304 to a matching If-None-Match, as kube-openapi does.
 *
 * The documents themselves come from every server of the chain, merged by
 * runtime/aggregator/openapi.ts; this module holds the HTTP side.
 */
import { createHash } from 'node:crypto';
import type { APIResponse, ObjectResponse, ResponseHeaders } from '../endpoints/handler.js';
import { parseMediaRanges } from '../endpoints/negotiation.js';
import { statusError } from '../api/status.js';
import { errorResponse } from '../endpoints/responsewriters.js';
import { OPENAPI_V2_PROTOBUF, OPENAPI_V2_PROTOBUF_RESPONSE, encodeOpenAPIV2 } from './openapi-v2-proto.js';

/** A serialized document and its hash (kube-openapi's ETag and serverRelativeURL hash). */
export interface OpenAPIDocument {
  payload: string;
  hash: string;
  /** The v2 document as gnostic protobuf and its hash, encoded when first asked for. */
  protobuf?: { body: Buffer; hash: string };
}

const sha512 = (data: string | Buffer) => createHash('sha512').update(data).digest('hex').toUpperCase();

export function openAPIDocument(payload: string): OpenAPIDocument {
  return { payload, hash: sha512(payload) };
}

/** The protobuf form of a v2 document, cached on it (documents are immutable once served). */
function v2Protobuf(doc: OpenAPIDocument): { body: Buffer; hash: string } {
  if (!doc.protobuf) {
    const body = Buffer.from(encodeOpenAPIV2(JSON.parse(doc.payload) as Record<string, unknown>));
    doc.protobuf = { body, hash: sha512(body) };
  }
  return doc.protobuf;
}

const matchesETag = (etag: string, ifNoneMatch: string | undefined) => !!ifNoneMatch && ifNoneMatch.split(',').some((s) => s.trim() === etag || s.trim() === '*');

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
  if (matchesETag(etag, ifNoneMatch)) {
    return { kind: 'object', code: 304, contentType: 'application/json', headers: all, payload: '' };
  }
  return { kind: 'object', code: 200, contentType: 'application/json', headers: all, payload: doc.payload };
}

/**
 * `/openapi/v3`: the index of every group/version document; `proxied` are documents other
 * servers serve, listed with the URL each gave (it wins over a document of the same key).
 */
export function v3IndexResponse(docs: ReadonlyMap<string, OpenAPIDocument>, proxied: ReadonlyMap<string, string> = new Map()): APIResponse {
  const urls = new Map<string, string>([...docs].map(([key, doc]) => [key, `/openapi/v3/${key}?hash=${doc.hash}`]));
  for (const [key, url] of proxied) urls.set(key, url);
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const [key, url] of [...urls.entries()].sort(([a], [b]) => a.localeCompare(b))) paths[key] = { serverRelativeURL: url };
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

/** The media types kube-openapi serves `/openapi/v2` in (the legacy `.v1.0+protobuf` spelling included). */
const V2_PROTOBUF_TYPES = new Set([OPENAPI_V2_PROTOBUF, OPENAPI_V2_PROTOBUF_RESPONSE]);

/**
 * `/openapi/v2`: the first acceptable of JSON and protobuf in the client's order (JSON when there
 * is no Accept), 406 when neither is.
 */
export function v2Response(doc: OpenAPIDocument | undefined, headers: OpenAPIRequestHeaders): APIResponse {
  if (!doc) return errorResponse(statusError('NotFound', 'the server could not find the requested resource', {}));
  const ranges = parseMediaRanges(headers.accept);
  const pick = ranges.length === 0 ? 'json' : ranges.map(v2Representation).find((r) => r !== undefined);
  if (pick === 'protobuf') {
    const pb = v2Protobuf(doc);
    const etag = `"${pb.hash}"`;
    const all = { ETag: etag, 'Cache-Control': 'no-cache, private', Vary: 'Accept' };
    if (matchesETag(etag, headers['if-none-match'])) return { kind: 'object', code: 304, contentType: OPENAPI_V2_PROTOBUF_RESPONSE, headers: all, payload: '' };
    return { kind: 'object', code: 200, contentType: OPENAPI_V2_PROTOBUF_RESPONSE, headers: all, payload: '', body: pb.body };
  }
  if (pick === 'json') return documentResponse(doc, { 'Cache-Control': 'no-cache, private', Vary: 'Accept' }, headers['if-none-match']);
  return errorResponse(
    statusError('NotAcceptable', `only the following media types are accepted: application/json, ${OPENAPI_V2_PROTOBUF}`),
  );
}

function v2Representation(r: { type: string; subtype: string }): 'json' | 'protobuf' | undefined {
  if ((r.type === 'application' && (r.subtype === 'json' || r.subtype === '*')) || (r.type === '*' && r.subtype === '*')) return 'json';
  if (V2_PROTOBUF_TYPES.has(`${r.type}/${r.subtype}`)) return 'protobuf';
  return undefined;
}

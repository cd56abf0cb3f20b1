/**
 * OpenAPI (k8s.io/kube-openapi handler3 and handler): `/openapi/v3` lists one document per
 * group/version with a content hash in its serverRelativeURL; a document fetched with the
 * current hash is immutable, with an outdated hash it redirects to the current URL.
 * `/openapi/v2` is served as JSON only (406 when the client accepts only protobuf).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GroupVersionDefinition } from '../api/resource.js';
import { statusError } from '../api/status.js';
import type { APIResponse, ObjectResponse, ResponseHeaders } from '../endpoints/handler.js';
import { parseMediaRanges } from '../endpoints/negotiation.js';
import { errorResponse } from '../endpoints/responsewriters.js';

interface OpenAPIDocument {
  payload: string;
  hash: string;
}

function loadDocument(path: string): OpenAPIDocument | undefined {
  let payload: string;
  try {
    payload = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  return { payload, hash: createHash('sha512').update(payload).digest('hex').toUpperCase() };
}

/** `openapi/v3/apis/widgets.example.com/v1.json` → `apis/widgets.example.com/v1`. */
function v3Key(openapiPath: string): string {
  return openapiPath.replace(/^\/?openapi\/v3\//, '').replace(/\.json$/, '');
}

function documentResponse(doc: OpenAPIDocument, headers: ResponseHeaders, ifNoneMatch: string | undefined): ObjectResponse {
  const etag = `"${doc.hash}"`;
  const all = { ETag: etag, ...headers };
  if (ifNoneMatch && ifNoneMatch.split(',').map((s) => s.trim()).includes(etag)) {
    return { kind: 'object', code: 304, contentType: 'application/json', headers: all, payload: '' };
  }
  return { kind: 'object', code: 200, contentType: 'application/json', headers: all, payload: doc.payload };
}

export class OpenAPIDocuments {
  private readonly v3 = new Map<string, OpenAPIDocument>();
  private readonly v2: OpenAPIDocument | undefined;

  constructor(generatedDir: string, groupVersions: readonly GroupVersionDefinition[]) {
    for (const gv of groupVersions) {
      const doc = loadDocument(join(generatedDir, gv.openapiPath));
      if (doc) this.v3.set(v3Key(gv.openapiPath), doc);
    }
    this.v2 = loadDocument(join(generatedDir, 'openapi/v2/swagger.json'));
  }

  /** The response for `/openapi/...` paths, or undefined for paths that are not documents. */
  serve(segments: string[], query: URLSearchParams, headers: { accept?: string; 'if-none-match'?: string }): APIResponse | undefined {
    if (segments[0] !== 'openapi') return undefined;
    if (segments[1] === 'v2' && segments.length === 2) return this.serveV2(headers);
    if (segments[1] !== 'v3') return undefined;
    if (segments.length === 2) return this.index();
    const doc = this.v3.get(segments.slice(2).join('/'));
    if (!doc) return undefined;
    const hash = query.get('hash');
    if (hash && hash !== doc.hash) {
      const location = `/openapi/v3/${segments.slice(2).join('/')}?hash=${doc.hash}`;
      return { kind: 'object', code: 301, contentType: 'text/plain', headers: { Location: location }, payload: '' };
    }
    const caching: ResponseHeaders = hash
      ? { 'Cache-Control': 'public, immutable', Expires: new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString() }
      : { 'Cache-Control': 'no-cache, private' };
    return documentResponse(doc, caching, headers['if-none-match']);
  }

  private index(): APIResponse {
    const paths: Record<string, { serverRelativeURL: string }> = {};
    for (const [key, doc] of [...this.v3.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${doc.hash}` };
    }
    return { kind: 'object', code: 200, contentType: 'application/json', headers: { 'Cache-Control': 'no-cache, private' }, payload: JSON.stringify({ paths }) };
  }

  private serveV2(headers: { accept?: string; 'if-none-match'?: string }): APIResponse {
    if (!this.v2) return errorResponse(statusError('NotFound', 'the server could not find the requested resource', {}));
    const ranges = parseMediaRanges(headers.accept);
    const json = ranges.length === 0 || ranges.some((r) => (r.type === 'application' && (r.subtype === 'json' || r.subtype === '*')) || (r.type === '*' && r.subtype === '*'));
    if (!json) {
      return errorResponse(statusError('NotAcceptable', 'only the following media types are accepted: application/json'));
    }
    return documentResponse(this.v2, { 'Cache-Control': 'no-cache, private' }, headers['if-none-match']);
  }
}

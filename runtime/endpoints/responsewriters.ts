/**
 * Writing responses (k8s.io/apiserver/pkg/endpoints/handlers/responsewriters): objects in the
 * negotiated format, and every error as a metav1.Status through errorResponse, the one place
 * an error becomes an HTTP response.
 */
import { yaml } from '../api/yaml.js';
import type { Status } from '../api/meta.js';
import { toStatus } from '../registry/errors.js';
import { encodedJSON } from './encoding.js';
import { encodeKubernetesProtobuf } from './protobuf-encode.js';
import type { ObjectResponse, ResponseHeaders } from './handler.js';
import { contentTypeOf, JSON_CONTENT_TYPE, type Format } from './negotiation.js';

export function serialize(body: unknown, format: Format): string {
  return format === 'yaml' ? yaml().stringify(body) : JSON.stringify(body);
}

/**
 * A response whose JSON bytes were assembled from the watch cache's encodings (see encoding.ts):
 * `body` is written as it is; `payload`, the same JSON as text, is decoded only if read (audit).
 */
class EncodedObjectResponse implements ObjectResponse {
  readonly kind = 'object';
  constructor(
    public code: number,
    public contentType: string,
    public headers: ResponseHeaders,
    readonly body: Buffer,
  ) {}

  get payload(): string {
    return this.body.toString('utf8');
  }
}

/** `Warning: 299 - "text"` headers, as kube's warning recorder writes them. */
export function warningHeaders(warnings: readonly string[]): ResponseHeaders {
  if (warnings.length === 0) return {};
  return { Warning: [...new Set(warnings)].map((w) => `299 - ${JSON.stringify(w)}`) };
}

export function objectResponse(code: number, body: unknown, format: Format = 'json', warnings: readonly string[] = []): ObjectResponse {
  if (format === 'protobuf') {
    const pb = encodeKubernetesProtobuf(body as Record<string, unknown>);
    if (pb) return new EncodedObjectResponse(code, contentTypeOf('protobuf'), warningHeaders(warnings), pb);
    format = 'json';
  }
  const encoded = format === 'json' ? encodedJSON(body) : undefined;
  if (encoded) return new EncodedObjectResponse(code, JSON_CONTENT_TYPE, warningHeaders(warnings), encoded);
  return { kind: 'object', code, contentType: contentTypeOf(format), headers: warningHeaders(warnings), payload: serialize(body, format) };
}

/** A JSON response from JSON text already written (exactly JSON.stringify of the object answered). */
export function jsonResponse(code: number, json: string, warnings: readonly string[] = []): ObjectResponse {
  return { kind: 'object', code, contentType: JSON_CONTENT_TYPE, headers: warningHeaders(warnings), payload: json };
}

/**
 * The metav1.Status for err, with a Retry-After header when the Status carries one, and the
 * request's warnings recorded before it failed.
 */
export function errorResponse(err: unknown, warnings: readonly string[] = []): ObjectResponse {
  const status: Status = toStatus(err);
  const headers: ResponseHeaders = warningHeaders(warnings);
  const retry = status.details?.retryAfterSeconds;
  if (retry !== undefined) headers['Retry-After'] = String(retry);
  return { kind: 'object', code: status.code, contentType: JSON_CONTENT_TYPE, headers, payload: JSON.stringify(status) };
}

/**
 * Decoding request bodies (kube's serializer negotiation for input): JSON (also with no
 * Content-Type), YAML and Kubernetes protobuf into a plain object, and checking the decoded
 * TypeMeta against the endpoint's kind. Malformed bodies are 400 BadRequest, unknown media
 * types 415; nothing here throws anything but a StatusError.
 */
import { parse as parseYAML, parseAllDocuments } from 'yaml';
import type { KubeObject } from '../api/meta.js';
import { newBadRequest, newUnsupportedMediaType, StatusError } from '../api/status.js';
import type { APIRequest } from './handler.js';
import { mediaTypeOf } from './negotiation.js';
import { decodeKubernetesProtobuf, PROTOBUF_CONTENT_TYPE } from './protobuf.js';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseJSONBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw newBadRequest(`couldn't get version/kind; json parse error: ${(err as Error).message}`);
  }
}

function parseYAMLBody(text: string): unknown {
  try {
    const docs = parseAllDocuments(text);
    const real = Array.isArray(docs) ? docs.filter((d) => d.contents !== null) : [];
    if (real.length > 1) throw new Error('expected a single YAML document');
    const first = real[0];
    if (first && first.errors.length > 0) throw first.errors[0]!;
    return first ? first.toJS() : parseYAML(text);
  } catch (err) {
    throw newBadRequest(`couldn't get version/kind; yaml parse error: ${(err as Error).message}`);
  }
}

/** The request body as a JSON value, by Content-Type; an empty body is 400. */
export function decodeBody(req: APIRequest): unknown {
  const body = req.body;
  if (!body || body.length === 0) throw newBadRequest('the body of the request was empty');
  const mediaType = mediaTypeOf(req.headers['content-type']);
  switch (mediaType) {
    case '':
    case 'application/json':
    case '*/*':
      return parseJSONBody(body.toString('utf8'));
    case 'application/yaml':
    case 'application/x-yaml':
    case 'text/yaml':
      return parseYAMLBody(body.toString('utf8'));
    case PROTOBUF_CONTENT_TYPE:
      return decodeProtobuf(body);
    default:
      throw newUnsupportedMediaType(mediaType);
  }
}

function decodeProtobuf(body: Buffer): unknown {
  try {
    return decodeKubernetesProtobuf(new Uint8Array(body.buffer, body.byteOffset, body.byteLength));
  } catch (err) {
    if (err instanceof StatusError) throw err;
    throw newBadRequest(`unable to decode protobuf body: ${(err as Error).message}`);
  }
}

export interface ExpectedKind {
  apiVersion: string;
  kind: string;
}

/**
 * A decoded object of the expected kind: missing apiVersion/kind are defaulted from the URL (as
 * kube decodes with the endpoint's GVK as default); a different one is 400.
 */
export function asObjectOfKind(value: unknown, expected: ExpectedKind): KubeObject {
  if (!isPlainObject(value)) throw newBadRequest(`the body of the request must be a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}`);
  const { apiVersion = '', kind = '', metadata, ...rest } = value;
  if (apiVersion !== '' && apiVersion !== expected.apiVersion) {
    throw newBadRequest(`the API version in the data (${String(apiVersion)}) does not match the expected API version (${expected.apiVersion})`);
  }
  if (kind !== '' && kind !== expected.kind) {
    throw newBadRequest(`the kind in the data (${String(kind)}) does not match the expected kind (${expected.kind})`);
  }
  if (metadata !== undefined && metadata !== null && !isPlainObject(metadata)) throw newBadRequest('metadata must be an object');
  // TypeMeta first, as kube serialises objects.
  return { apiVersion: expected.apiVersion, kind: expected.kind, metadata: (metadata ?? {}) as KubeObject['metadata'], ...rest };
}

/** Decodes the body as an object of the expected kind. */
export function decodeObject(req: APIRequest, expected: ExpectedKind): KubeObject {
  return asObjectOfKind(decodeBody(req), expected);
}

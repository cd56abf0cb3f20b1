/**
 * Decoding request bodies (kube's serializer negotiation for input): JSON (also with no
 * Content-Type), YAML and Kubernetes protobuf into a plain object, and checking the decoded
 * TypeMeta against the endpoint's kind. Malformed bodies are 400 BadRequest, unknown media
 * types 415; nothing here throws anything but a StatusError.
 */
import type { KubeObject } from '../api/meta.js';
import { newBadRequest, newInvalid, newUnsupportedMediaType, StatusError } from '../api/status.js';
import { findDuplicateJSONKeys, findDuplicateYAMLKeys, parseYAMLDocuments, type DuplicateField } from './duplicatefields.js';
import type { APIRequest } from './handler.js';
import { firstNonFiniteNumber, numberOutOfRangeError } from './json-numbers.js';
import { mediaTypeOf } from './negotiation.js';
import { nestingDepthError, valueExceedsNestingDepth } from '../api/nesting.js';
import { decodeKubernetesProtobuf, PROTOBUF_CONTENT_TYPE } from './protobuf.js';
import { inexactIntegerMessage, inexactIntegerOf } from '../api/json-integers.js';
import { inexactYAMLIntegerOf } from './yaml-integers.js';
import { goJSONSyntaxError } from '../api/json-syntax.js';

/** kube's YAML decoder refuses documents that expand more aliases than this (an alias bomb). */
export const MAX_YAML_ALIAS_COUNT = 100;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON number beyond float64 is kube's decode 400 (json-numbers.ts). */
function checkNumbersInRange(text: string, value: unknown): void {
  const message = numberOutOfRangeError(text, value);
  if (message !== undefined) throw newBadRequest(message);
}

export function parseJSONBody(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // Go's words, which never quote the body (Node's message quotes the text around the error).
    throw newBadRequest(`couldn't get version/kind; json parse error: ${goJSONSyntaxError(text) ?? (err as Error).message}`);
  }
  checkNumbersInRange(text, value);
  // An integer JSON.parse rounded (beyond 2^53) is refused, not stored as another number.
  const inexact = inexactIntegerOf(text);
  if (inexact !== undefined) throw newBadRequest(inexactIntegerMessage(inexact));
  return value;
}

/** A parsed body and, when asked for, the keys it repeats. */
export interface ParsedBody {
  value: unknown;
  duplicates: DuplicateField[];
  /** The text of a JSON body (a built-in kind's decode judges its number literals: go-decode.ts). */
  text?: string;
}

/** JSON text, with its repeated keys when `duplicates` (scanning costs one more pass). */
export function parseJSONText(text: string, duplicates = false): ParsedBody {
  const value = parseJSONBody(text);
  return { value, duplicates: duplicates ? findDuplicateJSONKeys(text) : [], text };
}

/**
 * One YAML document (JSON is YAML too), with its repeated keys when `duplicates`. More than one
 * document, a syntax error or more than MAX_YAML_ALIAS_COUNT alias expansions is 400.
 */
export function parseYAMLText(text: string, duplicates = false, what = "couldn't get version/kind; yaml parse error"): ParsedBody {
  try {
    const { docs, lines } = parseYAMLDocuments(text);
    const real = docs.filter((d) => d.contents !== null);
    if (real.length > 1) throw new Error('expected a single YAML document');
    const first = real[0];
    if (!first) return { value: null, duplicates: [] };
    if (first.errors.length > 0) throw first.errors[0]!;
    const value = first.toJS({ maxAliasCount: MAX_YAML_ALIAS_COUNT }) as unknown;
    // Block style nests by indentation, which the raw-body scan in the server does not see.
    if (valueExceedsNestingDepth(value)) throw nestingDepthError();
    // .inf, .nan and 1e400 have no JSON form (kube: sigs.k8s.io/yaml's JSON conversion fails).
    const bad = firstNonFiniteNumber(value);
    if (bad !== undefined) throw newBadRequest(`error converting YAML to JSON: json: unsupported value: ${Number.isNaN(bad) ? 'NaN' : bad > 0 ? '+Inf' : '-Inf'}`);
    const inexact = inexactYAMLIntegerOf(text, first);
    if (inexact !== undefined) throw newBadRequest(inexactIntegerMessage(inexact, 'yaml'));
    return { value, duplicates: duplicates ? findDuplicateYAMLKeys([first], lines) : [] };
  } catch (err) {
    if (err instanceof StatusError) throw err;
    throw newBadRequest(`${what}: ${withoutCodeFrame((err as Error).message)}`);
  }
}

/**
 * A YAML error's first line: the parser appends the offending line of the body and a caret,
 * which would echo a body's content (a Secret's value) into the answer and the audit log; Go's
 * YAML errors name the line number only.
 */
function withoutCodeFrame(message: string): string {
  const first = message.split('\n')[0]!;
  return first.endsWith(':') ? first.slice(0, -1) : first;
}

export type BodyFormat = 'json' | 'yaml' | 'protobuf';

export interface DecodedBody extends ParsedBody {
  format: BodyFormat;
}

/** The request body as a JSON value, by Content-Type; an empty body is 400. */
export function decodeRequestBody(req: APIRequest, duplicates = false): DecodedBody {
  const body = req.body;
  if (!body || body.length === 0) throw newBadRequest('the body of the request was empty');
  const mediaType = mediaTypeOf(req.headers['content-type']);
  switch (mediaType) {
    case '':
    case 'application/json':
    case '*/*':
      return { ...parseJSONText(body.toString('utf8'), duplicates), format: 'json' };
    case 'application/yaml':
    case 'application/x-yaml':
    case 'text/yaml':
      return { ...parseYAMLText(body.toString('utf8'), duplicates), format: 'yaml' };
    case PROTOBUF_CONTENT_TYPE:
      return { value: decodeProtobuf(body), duplicates: [], format: 'protobuf' };
    default:
      throw newUnsupportedMediaType(mediaType);
  }
}

/** The request body as a JSON value, by Content-Type; an empty body is 400. */
export function decodeBody(req: APIRequest): unknown {
  return decodeRequestBody(req).value;
}

function decodeProtobuf(body: Buffer): unknown {
  try {
    const value = decodeKubernetesProtobuf(new Uint8Array(body.buffer, body.byteOffset, body.byteLength));
    // Binary bodies are not scanned before decoding (their bytes are not JSON); check the result.
    if (valueExceedsNestingDepth(value)) throw nestingDepthError();
    return value;
  } catch (err) {
    if (err instanceof StatusError) throw err;
    throw newBadRequest(`unable to decode protobuf body: ${(err as Error).message}`);
  }
}

export interface ExpectedKind {
  apiVersion: string;
  kind: string;
  /** A runtime CRD's kind: a wrong kind is kube's 422 from the custom resource validator. */
  customResource?: boolean;
}

/** The Go type json.Unmarshal reports when the body is not an object (apimachinery's meta.Interpret). */
const FIND_KIND_TYPE = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** kube's summarizeData(body, 30): an object's first 30 bytes, anything else in hex. */
function summarizeData(data: string): string {
  if (data.length === 0) return '<empty>';
  const bytes = Buffer.from(data, 'utf8');
  const cut = bytes.length > 30;
  const head = bytes.subarray(0, 30);
  if (data.startsWith('{')) return cut ? `${head.toString('utf8')} ...` : data;
  return cut ? `${head.toString('hex')} ...` : head.toString('hex');
}

const goJSONType = (value: unknown) => (Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : value === null ? 'null' : typeof value);

/**
 * kube's transformDecodeError for a body whose kind cannot be found (not an object): BadRequest
 * `the object provided is unrecognized (must be of type Namespace): <decode error> (<summary>)`.
 */
function newUnrecognizedObject(value: unknown, expected: ExpectedKind): StatusError {
  const cause = `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJSONType(value)} into Go value of type ${FIND_KIND_TYPE}`;
  return newBadRequest(`the object provided is unrecognized (must be of type ${expected.kind}): ${cause} (${summarizeData(JSON.stringify(value) ?? '')})`);
}

/**
 * A body of another kind in the same group/version. Compiled kinds (typed in kube): kube's
 * transformDecodeError, `Service in version "v1" cannot be handled as a Namespace: …`. CRDs:
 * the custom resource validator's 422 `Foo.example.com "w1" is invalid: kind: Invalid value: "Foo": must be Widget`.
 */
function newWrongKind(obj: Record<string, unknown>, kind: string, expected: ExpectedKind): StatusError {
  const slash = expected.apiVersion.indexOf('/');
  const group = slash < 0 ? '' : expected.apiVersion.slice(0, slash);
  if (expected.customResource) {
    const name = typeof (obj.metadata as { name?: unknown } | undefined)?.name === 'string' ? ((obj.metadata as { name: string }).name) : '';
    // rest.BeforeCreate/BeforeUpdate name the kind the typer reads from the object: the body's.
    return newInvalid({ group, kind }, name, [{ reason: 'FieldValueInvalid', field: 'kind', message: `Invalid value: ${JSON.stringify(kind)}: must be ${expected.kind}` }]);
  }
  const version = expected.apiVersion.slice(slash + 1);
  return newBadRequest(
    `${kind} in version ${JSON.stringify(version)} cannot be handled as a ${expected.kind}: no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(expected.apiVersion)} in scheme "pkg/api/legacyscheme/scheme.go:30"`,
  );
}

/**
 * A decoded object of the expected kind: missing apiVersion/kind are defaulted from the URL (as
 * kube decodes with the endpoint's GVK as default); a different one is 400.
 */
export function asObjectOfKind(value: unknown, expected: ExpectedKind): KubeObject {
  if (!isPlainObject(value)) throw newUnrecognizedObject(value, expected);
  const { apiVersion = '', kind = '', metadata, ...rest } = value;
  if (apiVersion !== '' && apiVersion !== expected.apiVersion) {
    throw newBadRequest(`the API version in the data (${String(apiVersion)}) does not match the expected API version (${expected.apiVersion})`);
  }
  if (kind !== '' && kind !== expected.kind) throw newWrongKind(value, String(kind), expected);
  if (metadata !== undefined && metadata !== null && !isPlainObject(metadata)) throw newBadRequest('metadata must be an object');
  // TypeMeta first, as kube serialises objects.
  return normalizeObjectMeta({ apiVersion: expected.apiVersion, kind: expected.kind, metadata: (metadata ?? {}) as KubeObject['metadata'], ...rest });
}

/** ObjectMeta's `omitempty` maps and lists: null or empty ones are absent after kube decodes them. */
const OMIT_EMPTY = ['labels', 'annotations', 'finalizers', 'ownerReferences', 'managedFields'] as const;

/**
 * obj with the null or empty ObjectMeta maps and lists dropped (mutated in place), as kube's
 * ObjectMeta round trip leaves them (a built-in kind's decode; a custom resource's
 * objectmeta.Coerce, GetObjectMeta then SetObjectMeta): `labels: null` decodes to a nil map,
 * which `omitempty` leaves out, so it is neither stored nor owned in managedFields; removing
 * the last label leaves no `labels: {}` behind.
 */
export function normalizeObjectMeta<T extends KubeObject>(obj: T): T {
  const meta = obj.metadata as Record<string, unknown> | undefined;
  if (!isPlainObject(meta)) return obj;
  for (const field of OMIT_EMPTY) {
    const value = meta[field];
    if (value === null || (Array.isArray(value) && value.length === 0) || (isPlainObject(value) && Object.keys(value).length === 0)) delete meta[field];
  }
  return obj;
}

/** Decodes the body as an object of the expected kind. */
export function decodeObject(req: APIRequest, expected: ExpectedKind): KubeObject {
  return asObjectOfKind(decodeBody(req), expected);
}

/**
 * The AdmissionReview v1 wire format (k8s.io/api/admission/v1 and the apiserver's
 * webhook/request package): the request kgen sends and the checks on the answer
 * (VerifyAdmissionResponse).
 */
import { randomUUID } from 'node:crypto';
import type { AdmissionAttributes } from '../../api/auth.js';
import { tooDeepOffset } from '../../api/nesting.js';
import { inexactIntegerMessage, inexactIntegerOf } from '../../api/json-integers.js';
import type { WebhookResultStatus } from '../errors.js';

export const ADMISSION_API_VERSION = 'admission.k8s.io/v1';

export interface AdmissionRequest {
  uid: string;
  kind: { group: string; version: string; kind: string };
  resource: { group: string; version: string; resource: string };
  subResource?: string;
  requestKind: { group: string; version: string; kind: string };
  requestResource: { group: string; version: string; resource: string };
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: string;
  userInfo: { username: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  object: unknown;
  oldObject: unknown;
  dryRun: boolean;
  options: unknown;
}

export interface AdmissionReview {
  apiVersion: typeof ADMISSION_API_VERSION;
  kind: 'AdmissionReview';
  request: AdmissionRequest;
}

/** What a webhook's answer says, verified. */
export interface AdmissionResult {
  allowed: boolean;
  result?: WebhookResultStatus;
  /** Decoded JSON patch operations, when patchType is JSONPatch. */
  patch?: unknown[];
  warnings: string[];
  auditAnnotations: Record<string, string>;
}

/** CreateV1AdmissionReview. Objects are sent as they are (kgen serves one version per resource). */
export function newAdmissionReview(attrs: AdmissionAttributes): AdmissionReview {
  const { user } = attrs;
  const userInfo: AdmissionRequest['userInfo'] = { username: user.username };
  if (user.uid) userInfo.uid = user.uid;
  if (user.groups.length > 0) userInfo.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length > 0) userInfo.extra = user.extra;
  const request: AdmissionRequest = {
    uid: randomUUID(),
    kind: attrs.kind,
    resource: attrs.resource,
    requestKind: attrs.kind,
    requestResource: attrs.resource,
    operation: attrs.operation,
    userInfo,
    object: attrs.object ?? null,
    oldObject: attrs.oldObject ?? null,
    dryRun: attrs.dryRun,
    options: attrs.options ?? null,
  };
  if (attrs.subresource) {
    request.subResource = attrs.subresource;
    request.requestSubResource = attrs.subresource;
  }
  if (attrs.name) request.name = attrs.name;
  if (attrs.namespace) request.namespace = attrs.namespace;
  return { apiVersion: ADMISSION_API_VERSION, kind: 'AdmissionReview', request };
}

/** VerifyAdmissionResponse: throws an Error (wrapped as ErrCallingWebhook by the caller) on nonsense. */
export function verifyAdmissionResponse(uid: string, mutating: boolean, body: unknown): AdmissionResult {
  const review = body as { apiVersion?: unknown; kind?: unknown; response?: Record<string, unknown> } | null;
  if (typeof review !== 'object' || review === null || review.apiVersion !== ADMISSION_API_VERSION || review.kind !== 'AdmissionReview') {
    const got = review && typeof review === 'object' ? `${String(review.apiVersion ?? '')}, Kind=${String(review.kind ?? '')}` : typeof review;
    throw new Error(`expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${got}`);
  }
  const response = review.response;
  if (typeof response !== 'object' || response === null) throw new Error('webhook response was absent');
  if (response.uid !== uid) throw new Error(`expected response.uid="${uid}", got "${String(response.uid ?? '')}"`);
  const result: AdmissionResult = {
    allowed: response.allowed === true,
    warnings: stringArray(response.warnings),
    auditAnnotations: stringMap(response.auditAnnotations),
  };
  if (typeof response.status === 'object' && response.status !== null) result.result = response.status as WebhookResultStatus;
  const patchType = response.patchType;
  const patch = response.patch;
  if (patch !== undefined && patch !== null && patch !== '') {
    if (!mutating) throw new Error('validating webhook may not return response.patch');
    if (patchType === undefined || patchType === null || patchType === '') throw new Error('webhook returned response.patch but not response.patchType');
    if (patchType !== 'JSONPatch') throw new Error(`webhook returned invalid response.patchType of "${String(patchType)}"`);
    result.patch = decodePatch(patch);
  } else if (patchType !== undefined && patchType !== null && patchType !== '') {
    if (!mutating) throw new Error('validating webhook may not return response.patchType');
    if (patchType !== 'JSONPatch') throw new Error(`webhook returned invalid response.patchType of "${String(patchType)}"`);
  }
  return result;
}

/**
 * A patch that does not decode: kube's dispatcher reports it as `received undecodable patch in
 * webhook response: …` (after VerifyAdmissionResponse, so not as an invalid response).
 */
export class UndecodablePatchError extends Error {
  constructor(why: string) {
    super(`received undecodable patch in webhook response: ${why}`);
    this.name = 'UndecodablePatchError';
  }
}

const goJSONType = (value: unknown) => (Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value);

/**
 * response.patch is base64 of a JSON array of RFC 6902 operations (jsonpatch.DecodePatch, a
 * json.Unmarshal into jsonpatch.Patch: `null` is no operations).
 */
function decodePatch(patch: unknown): unknown[] {
  if (typeof patch !== 'string') throw new UndecodablePatchError('patch is not a base64 string');
  const bytes = Buffer.from(patch, 'base64');
  // Go's decoder stops at its depth limit; kgen's is api/nesting.ts's (deeper patches would
  // overflow the recursive patching and the audit annotation's encoding).
  const tooDeep = tooDeepOffset(bytes);
  if (tooDeep >= 0) throw new UndecodablePatchError(`invalid character '${String.fromCharCode(bytes[tooDeep]!)}' exceeded max depth`);
  let ops: unknown;
  try {
    const text = bytes.toString('utf8');
    ops = JSON.parse(text);
    const inexact = inexactIntegerOf(text);
    if (inexact !== undefined) throw new Error(inexactIntegerMessage(inexact));
  } catch (err) {
    throw new UndecodablePatchError((err as Error).message);
  }
  if (ops === null) return [];
  if (!Array.isArray(ops)) throw new UndecodablePatchError(`json: cannot unmarshal ${goJSONType(ops)} into Go value of type jsonpatch.Patch`);
  return ops;
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function stringMap(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

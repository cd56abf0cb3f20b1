/**
 * The ConversionReview wire format and the checks on a conversion webhook's answer, as kube's
 * apiextensions-apiserver (pkg/apiserver/conversion/webhook_converter.go, the 1.32 shape):
 * createConversionReviewObjects, getConvertedObjectsFromResponse, and the per-object checks of
 * Convert (apiVersion, kind, validateConvertedObject, restoreObjectMeta). Pure functions: errors
 * are plain Errors carrying kube's messages; the caller (webhook-converter.ts) makes the Status.
 */
import type { KubeObject } from '../api/meta.js';
import { validateAnnotations, validateLabels } from '../validation/objectmeta.js';
import type { FieldError } from '../validation/types.js';

export const CONVERSION_GROUP = 'apiextensions.k8s.io';
/** The ConversionReview versions kgen speaks (kube's webhookConverterFactory: v1 and v1beta1). */
export const SUPPORTED_REVIEW_VERSIONS = ['v1', 'v1beta1'] as const;
export type ReviewVersion = (typeof SUPPORTED_REVIEW_VERSIONS)[number];

export interface ConversionReview {
  apiVersion: string;
  kind: 'ConversionReview';
  request: { uid: string; desiredAPIVersion: string; objects: KubeObject[] };
}

/** The first version of the webhook's list kgen supports, as kube picks it; an Error when none. */
export function reviewVersionFor(conversionReviewVersions: readonly string[] | undefined): ReviewVersion {
  for (const v of conversionReviewVersions ?? []) {
    if ((SUPPORTED_REVIEW_VERSIONS as readonly string[]).includes(v)) return v as ReviewVersion;
  }
  throw new Error('no supported conversion review versions');
}

export function newConversionReview(version: ReviewVersion, uid: string, desiredAPIVersion: string, objects: KubeObject[]): ConversionReview {
  return { apiVersion: `${CONVERSION_GROUP}/${version}`, kind: 'ConversionReview', request: { uid, desiredAPIVersion, objects } };
}

/** Go's GroupVersionKind.String() for an object's apiVersion and kind: `example.com/v1, Kind=Widget`. */
export function gvkString(apiVersion: string | undefined, kind: string | undefined): string {
  const av = apiVersion ?? '';
  return `${av.includes('/') ? av : `/${av}`}, Kind=${kind ?? ''}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * getConvertedObjectsFromResponse: the response's convertedObjects, or an Error (v1: the GVK and
 * uid are checked; v1beta1 skips both, as kube does for compatibility).
 */
export function convertedObjectsFromResponse(version: ReviewVersion, uid: string, body: unknown): unknown[] {
  const review = isObject(body) ? body : {};
  if (version === 'v1') {
    const expected = `${CONVERSION_GROUP}/v1`;
    if (review.apiVersion !== expected || review.kind !== 'ConversionReview') {
      throw new Error(`expected webhook response of ${gvkString(expected, 'ConversionReview')}, got ${gvkString(String(review.apiVersion ?? ''), String(review.kind ?? ''))}`);
    }
  }
  const response = review.response;
  if (!isObject(response)) throw new Error('no response provided');
  if (version === 'v1' && response.uid !== uid) throw new Error(`expected response.uid="${uid}", got "${String(response.uid ?? '')}"`);
  const result = isObject(response.result) ? response.result : {};
  if (result.status !== 'Success') {
    if (typeof result.message === 'string' && result.message.length > 0) throw new Error(result.message);
    throw new Error(`response.result.status was '${String(result.status ?? '')}', not 'Success'`);
  }
  return Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
}

/** validateConvertedObject: the object's identity may not change. */
function validateConvertedObject(original: KubeObject, converted: KubeObject): void {
  const checks: [string, unknown, unknown][] = [
    ['kind', original.kind, converted.kind],
    ['name', original.metadata?.name, converted.metadata?.name],
    ['namespace', original.metadata?.namespace, converted.metadata?.namespace],
    ['UID', original.metadata?.uid, converted.metadata?.uid],
  ];
  for (const [what, e, a] of checks) {
    if ((e ?? '') !== (a ?? '')) throw new Error(`must have the same ${what}: ${String(e ?? '')} != ${String(a ?? '')}`);
  }
}

/** field.ErrorList.ToAggregate().Error(). */
function aggregate(errs: FieldError[]): string {
  const msgs = errs.map((e) => `${e.field}: ${e.message}`);
  return msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]`;
}

/**
 * restoreObjectMeta: the converted object's metadata becomes a copy of the original's, keeping
 * only the webhook's labels and annotations (validated when they changed). Mutates `converted`.
 */
export function restoreObjectMeta(original: KubeObject, converted: Record<string, unknown>): void {
  const responseMeta = converted.metadata;
  if (responseMeta === undefined) throw new Error('missing metadata in converted object');
  if (!isObject(responseMeta)) throw new Error(`invalid metadata of type ${goType(responseMeta)} in converted object`);
  const meta: Record<string, unknown> = original.metadata ? structuredClone(original.metadata as Record<string, unknown>) : {};
  for (const fld of ['labels', 'annotations'] as const) {
    const value = responseMeta[fld];
    if (value === undefined || value === null) {
      delete meta[fld];
      continue;
    }
    if (!isObject(value)) throw new Error(`invalid metadata.${fld} of type ${goType(value)} in converted object`);
    const before = isObject(meta[fld]) ? (meta[fld] as Record<string, unknown>) : {};
    let changed = Object.keys(before).length !== Object.keys(value).length;
    for (const [k, v] of Object.entries(value)) {
      if (typeof v !== 'string') throw new Error(`metadata.${fld}[${k}] must be a string, but is ${goType(v)} in converted object`);
      if (before[k] !== v) changed = true;
    }
    if (changed) {
      const errs = fld === 'labels' ? validateLabels(value, 'metadata.labels') : validateAnnotations(value, 'metadata.annotation');
      if (errs.length > 0) throw new Error(aggregate(errs));
    }
    meta[fld] = value;
  }
  converted.metadata = meta;
}

/** The Go type name kube's messages print for a decoded JSON value. */
function goType(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/**
 * The checks of Convert on what the webhook returned for `sent` (the objects not yet in
 * `desiredAPIVersion`, in order): count, apiVersion, kind, identity, metadata. `inGVK` names the
 * input in messages; `list` selects kube's list wording ("at index"). Returns the converted
 * objects, their metadata restored.
 */
export function checkConvertedObjects(sent: KubeObject[], returned: unknown[], desiredAPIVersion: string, inGVK: string, list: boolean): KubeObject[] {
  if (returned.length !== sent.length) {
    throw new Error(`conversion webhook for ${inGVK} returned ${returned.length} objects, expected ${sent.length}`);
  }
  return sent.map((original, i) => {
    const raw = returned[i];
    // kube's index in these messages is the one after the object (convertedIndex++ comes first).
    const where = list ? `invalid converted object at index ${i + 1}` : 'invalid object at index 0';
    if (!isObject(raw)) throw new Error(`conversion webhook for ${inGVK} returned ${where}: Object 'Kind' is missing in '${JSON.stringify(raw)}'`);
    const converted = raw as Record<string, unknown> & KubeObject;
    if (converted.apiVersion !== desiredAPIVersion) {
      throw new Error(`conversion webhook for ${inGVK} returned ${where}: invalid groupVersion (expected ${desiredAPIVersion}, received ${String(converted.apiVersion ?? '')})`);
    }
    if (converted.kind !== original.kind) {
      throw new Error(`conversion webhook for ${inGVK} returned ${where}: invalid kind (expected ${original.kind}, received ${String(converted.kind ?? '')})`);
    }
    try {
      validateConvertedObject(original, converted);
    } catch (err) {
      throw new Error(`conversion webhook for ${inGVK} returned ${list ? where : 'invalid object'}: ${(err as Error).message}`);
    }
    try {
      restoreObjectMeta(original, converted);
    } catch (err) {
      throw new Error(`conversion webhook for ${inGVK} returned invalid metadata${list ? ` in object at index ${i + 1}` : ''}: ${(err as Error).message}`);
    }
    return converted;
  });
}

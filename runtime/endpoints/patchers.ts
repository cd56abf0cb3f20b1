/**
 * Applying patches to JSON documents (kube's handlers/patch.go appliers): JSON merge patch
 * (RFC 7396), JSON patch (RFC 6902, via fast-json-patch) and strategic merge patch (every
 * compiled kind; not runtime CRDs). Server-side apply is the field manager's (fieldmanager/). A malformed patch is
 * 400; a patch that does not apply (failed test, missing path) is 422, as kube answers.
 */
import { ownValue, setOwnValue } from '../api/ownkeys.js';
import { newBadRequest, newUnsupportedMediaType, statusError } from '../api/status.js';
import { strategicMergePatch } from './fieldmanager/strategicmerge.js';
import { UNTYPED, type TypeNode } from './fieldmanager/typeschema.js';
import { applyJSONPatch } from '../registry/jsonpatch.js';
import { isPlainObject, parseJSONBody } from './serializer.js';
import { MAX_NESTING_DEPTH, valueExceedsNestingDepth } from '../api/nesting.js';

export { applyJSONPatch } from '../registry/jsonpatch.js';

export const MERGE_PATCH = 'application/merge-patch+json';
export const JSON_PATCH = 'application/json-patch+json';
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';
export const APPLY_PATCH = 'application/apply-patch+yaml';

/** The patch types applied to a document here; apply goes through the field manager. */
export type DocumentPatchType = typeof MERGE_PATCH | typeof JSON_PATCH | typeof STRATEGIC_MERGE_PATCH;
export type PatchType = DocumentPatchType | typeof APPLY_PATCH;

/**
 * kube's 415 for a patch type the endpoint does not take, listing the ones it does, in kube's
 * order. Strategic merge patch is for compiled kinds and autoscaling/v1 Scale, never for runtime
 * CRDs; apply only where `applyAllowed`.
 */
export function resolvePatchType(mediaType: string, strategicAllowed: boolean, applyAllowed = true): PatchType {
  const accepted: PatchType[] = [JSON_PATCH, MERGE_PATCH];
  if (strategicAllowed) accepted.push(STRATEGIC_MERGE_PATCH);
  if (applyAllowed) accepted.push(APPLY_PATCH);
  if ((accepted as string[]).includes(mediaType)) return mediaType as PatchType;
  if (mediaType === '' || !mediaType.includes('/')) throw newUnsupportedMediaType(mediaType);
  throw statusError(
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}

/**
 * RFC 7396: null deletes, objects merge recursively, anything else replaces. Keys are data
 * (api/ownkeys.ts): a patch may set "__proto__" or "toString" in a ConfigMap's data as kube does.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const result: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else setOwnValue(result, key, mergePatch(ownValue(result, key), value));
  }
  return result;
}

/**
 * The patched document for an already-parsed patch. `structure` gives strategic merge patch
 * its list merge keys (untyped: every list is replaced). `doc` is not mutated.
 */
export function applyPatchValue(doc: unknown, patchType: DocumentPatchType, patch: unknown, structure: TypeNode = UNTYPED): unknown {
  switch (patchType) {
    case JSON_PATCH: {
      if (Array.isArray(patch) && patch.length > MAX_JSON_PATCH_OPERATIONS) throw tooManyOperations(patch.length);
      // The only patch whose result can nest deeper than both the object and the body (an `add`
      // or `copy` at a deep path): bounded as a body is (api/nesting.ts), else an object too deep for
      // the recursive layers would be stored, and every later update of it would be a 500.
      const result = applyJSONPatch(doc, patch);
      if (valueExceedsNestingDepth(result)) throw patchedTooDeep();
      return result;
    }
    case MERGE_PATCH:
      if (!isPlainObject(patch)) throw newBadRequest('a merge patch must be a JSON object');
      return mergePatch(doc, patch);
    case STRATEGIC_MERGE_PATCH:
      if (!isPlainObject(patch)) throw newBadRequest('a strategic merge patch must be a JSON object');
      return strategicMergePatch(doc, patch, structure);
    default: {
      const never: never = patchType;
      throw newBadRequest(`unsupported patch type ${String(never)}`);
    }
  }
}

/** kube's maxJSONPatchOperations (patch.go): a longer JSON patch is 413 before it is applied. */
export const MAX_JSON_PATCH_OPERATIONS = 10_000;

function tooManyOperations(count: number) {
  return statusError(
    'RequestEntityTooLarge',
    `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${count}`,
  );
}

/**
 * A patch result nested deeper than MAX_NESTING_DEPTH: kube's patcher answers a patched object
 * that does not decode with 422 Invalid on the field `patch` (its decoder stops at 10,000 levels;
 * kgen's bound is api/nesting.ts's).
 */
function patchedTooDeep() {
  const message = `Invalid value: "": the patched object is nested deeper than the maximum depth of ${MAX_NESTING_DEPTH}`;
  return statusError('Invalid', ` "" is invalid: patch: ${message}`, { causes: [{ reason: 'FieldValueInvalid', message, field: 'patch' }] });
}

/** The patched document; `patchBody` is the raw request body. `doc` is not mutated. */
export function applyPatch(doc: unknown, patchType: PatchType, patchBody: Buffer | undefined, structure: TypeNode = UNTYPED): unknown {
  if (!patchBody || patchBody.length === 0) throw newBadRequest('the body of the request was empty');
  if (patchType === APPLY_PATCH) throw newBadRequest('server-side apply is not supported on this endpoint');
  return applyPatchValue(doc, patchType, parseJSONBody(patchBody.toString('utf8')), structure);
}

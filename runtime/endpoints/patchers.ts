/**
 * Applying patches to JSON documents (kube's handlers/patch.go appliers): JSON merge patch
 * (RFC 7396), JSON patch (RFC 6902, via fast-json-patch) and strategic merge patch, which kgen
 * treats as a merge patch where it is accepted. A malformed patch is 400; a patch that does not
 * apply (failed test, missing path) is 422, as kube answers.
 */
import jsonpatch from 'fast-json-patch';
import { newUnsupportedMediaType, statusError, StatusError } from '../api/status.js';
import { isPlainObject, parseJSONBody } from './serializer.js';
import { newBadRequest } from '../api/status.js';

export const MERGE_PATCH = 'application/merge-patch+json';
export const JSON_PATCH = 'application/json-patch+json';
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';
export const APPLY_PATCH = 'application/apply-patch+yaml';

export type PatchType = typeof MERGE_PATCH | typeof JSON_PATCH | typeof STRATEGIC_MERGE_PATCH;

/**
 * kube's 415 for a patch type the endpoint does not take, listing the ones it does. Strategic
 * merge patch is only for built-in types (the core group and autoscaling/v1 Scale).
 */
export function resolvePatchType(mediaType: string, strategicAllowed: boolean): PatchType {
  const accepted: PatchType[] = [JSON_PATCH, MERGE_PATCH];
  if (strategicAllowed) accepted.push(STRATEGIC_MERGE_PATCH);
  if ((accepted as string[]).includes(mediaType)) return mediaType as PatchType;
  if (mediaType === '' || !mediaType.includes('/')) throw newUnsupportedMediaType(mediaType);
  throw statusError(
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}

/** RFC 7396: null deletes, objects merge recursively, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const result: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

/** Drops strategic-merge directives (`$patch`, `$retainKeys`, `$setElementOrder/…`) kgen does not interpret. */
function stripDirectives(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripDirectives);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (!key.startsWith('$')) out[key] = stripDirectives(v);
  return out;
}

const APPLY_FAILED = 'the server rejected our request due to an error in our request';

function applyJSONPatch(doc: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops) || ops.some((op) => !isPlainObject(op))) {
    throw newBadRequest('json: cannot unmarshal the patch: a JSON patch must be an array of operation objects');
  }
  try {
    return jsonpatch.applyPatch(structuredClone(doc), structuredClone(ops) as jsonpatch.Operation[], true, true).newDocument;
  } catch (err) {
    if (err instanceof StatusError) throw err;
    const message = (err as Error).message.split('\n')[0] ?? String(err);
    throw statusError('Invalid', APPLY_FAILED, { causes: [{ reason: 'UnexpectedServerResponse', message }] });
  }
}

/** The patched document; `patchBody` is the raw request body. `doc` is not mutated. */
export function applyPatch(doc: unknown, patchType: PatchType, patchBody: Buffer | undefined): unknown {
  if (!patchBody || patchBody.length === 0) throw newBadRequest('the body of the request was empty');
  const patch = parseJSONBody(patchBody.toString('utf8'));
  switch (patchType) {
    case JSON_PATCH:
      return applyJSONPatch(doc, patch);
    case MERGE_PATCH:
    case STRATEGIC_MERGE_PATCH:
      if (!isPlainObject(patch)) throw newBadRequest('a merge patch must be a JSON object');
      return mergePatch(doc, patchType === STRATEGIC_MERGE_PATCH ? stripDirectives(patch) : patch);
    default: {
      const never: never = patchType;
      throw newBadRequest(`unsupported patch type ${String(never)}`);
    }
  }
}

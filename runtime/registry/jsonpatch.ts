/**
 * JSON patch (RFC 6902) on a copy of a document, via fast-json-patch with the checks RFC 6902
 * requires and fast-json-patch omits. Used by PATCH (endpoints/patchers.ts) and by mutating
 * admission webhooks' JSONPatch responses; below both, so neither imports the other. A malformed
 * patch is 400; a patch that does not apply (failed test, missing path) is 422, as kube answers.
 */
import jsonpatch from 'fast-json-patch';
import { newBadRequest, statusError, StatusError } from '../api/status.js';

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const APPLY_FAILED = 'the server rejected our request due to an error in our request';

/**
 * What `copy` operations may add to a document, in bytes of JSON: kube-apiserver sets json-patch's
 * AccumulatedCopySizeLimit to JSONPatchMaxCopyBytes (3 MiB, its request body limit) for PATCH
 * bodies and webhooks' patches alike. Without it a patch of a few hundred bytes doubles a subtree
 * a dozen times.
 */
export const JSON_PATCH_MAX_COPY_BYTES = 3 * 1024 * 1024;

/**
 * The value pointer (RFC 6901) names in doc, walking own properties only: a member named
 * "toString" or "constructor" that the object does not hold is absent, as in kube's json-patch,
 * not Object.prototype's function. undefined: absent (JSON has no undefined).
 */
function valueAt(doc: unknown, pointer: string): unknown {
  if (pointer === '') return doc;
  if (!pointer.startsWith('/')) return undefined;
  let at: unknown = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(at)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= at.length) return undefined;
      at = at[Number(token)];
    } else if (isPlainObject(at) && Object.hasOwn(at, token)) {
      at = at[token];
    } else {
      return undefined;
    }
  }
  return at;
}

/** Whether pointer names a value in doc. */
function exists(doc: unknown, pointer: string): boolean {
  return valueAt(doc, pointer) !== undefined;
}

/**
 * What RFC 6902 forbids and fast-json-patch lets through, checked against the document the
 * operation applies to: removing the whole document, targets that do not exist, adding into
 * something that is not a container, moving a value into its own child ("from" a proper prefix
 * of "path"), and moving or copying from a location that does not exist.
 */
function checkOperation(doc: unknown, op: { op?: unknown; path?: unknown; from?: unknown }): void {
  if (op.op === 'remove' && op.path === '') throw new Error('cannot remove the whole document');
  if ((op.op === 'remove' || op.op === 'replace' || op.op === 'test') && typeof op.path === 'string' && !exists(doc, op.path)) {
    throw new Error(`path ${JSON.stringify(op.path)} does not exist`);
  }
  if ((op.op === 'add' || op.op === 'move' || op.op === 'copy') && typeof op.path === 'string' && op.path !== '') {
    const parent = op.path.slice(0, op.path.lastIndexOf('/'));
    const container = valueAt(doc, parent);
    if (typeof container !== 'object' || container === null) throw new Error(`the parent of ${JSON.stringify(op.path)} is not an object or a list`);
  }
  if ((op.op === 'move' || op.op === 'copy') && typeof op.from === 'string') {
    if (!exists(doc, op.from)) throw new Error(`"from" location ${JSON.stringify(op.from)} does not exist`);
    if (op.op === 'move' && typeof op.path === 'string' && op.path !== op.from && (op.from === '' || op.path.startsWith(`${op.from}/`))) {
      throw new Error(`cannot move ${JSON.stringify(op.from)} into its own child ${JSON.stringify(op.path)}`);
    }
  }
}

/**
 * json-patch's accounting: each copy adds the JSON size of the value it copies, counted before
 * the copy is made; past the limit the patch fails with its words.
 */
function countCopy(doc: unknown, op: { op?: unknown; from?: unknown }, accumulated: number): number {
  if (op.op !== 'copy' || typeof op.from !== 'string') return accumulated;
  const total = accumulated + Buffer.byteLength(JSON.stringify(valueAt(doc, op.from)) ?? '');
  if (total > JSON_PATCH_MAX_COPY_BYTES) {
    throw new Error(`Unable to complete the copy, the accumulated size increase of copy is ${total}, exceeding the limit ${JSON_PATCH_MAX_COPY_BYTES}`);
  }
  return total;
}

/** RFC 6902 on a copy of doc; a patch that is not a list of operation objects is 400. */
export function applyJSONPatch(doc: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops) || ops.some((op) => !isPlainObject(op))) {
    throw newBadRequest('json: cannot unmarshal the patch: a JSON patch must be an array of operation objects');
  }
  try {
    let out = structuredClone(doc);
    let copied = 0;
    for (const op of structuredClone(ops) as jsonpatch.Operation[]) {
      checkOperation(out, op);
      copied = countCopy(out, op, copied);
      out = jsonpatch.applyOperation(out, op, true, true).newDocument;
    }
    return out;
  } catch (err) {
    if (err instanceof StatusError) throw err;
    const message = (err as Error).message.split('\n')[0] ?? String(err);
    throw statusError('Invalid', APPLY_FAILED, { causes: [{ reason: 'UnexpectedServerResponse', message }] });
  }
}

/**
 * The nesting-depth limit of request bodies. kube's decoders refuse JSON nested deeper than
 * 10,000 levels; kgen's recursive processing (validation, pruning, patching, managedFields)
 * would exhaust the stack well before that, so its bound is MAX_NESTING_DEPTH: far above any
 * real object, far below the stack. Two checks:
 *   - exceedsNestingDepth scans raw bytes for `[`/`{` outside JSON strings, before any parsing,
 *     for every body (JSON, YAML flow style, protobuf's embedded JSON);
 *   - valueExceedsNestingDepth walks a decoded value without recursion, for YAML whose block
 *     style nests by indentation.
 * Either is a 400 BadRequest.
 */
import { newBadRequest, type StatusError } from '../api/status.js';

export const MAX_NESTING_DEPTH = 500;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/** True when `[`/`{` outside double-quoted strings nest deeper than limit. */
export function exceedsNestingDepth(body: Uint8Array, limit = MAX_NESTING_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === BACKSLASH) escaped = true;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (OPENERS.has(c)) {
      if (++depth > limit) return true;
    } else if (CLOSERS.has(c) && depth > 0) {
      depth--;
    }
  }
  return false;
}

/**
 * True when arrays and objects in value nest deeper than limit. Recursive, but it stops as soon
 * as it is `limit` levels down, so it never uses more than `limit` stack frames however deep the
 * value is; allocates nothing (it runs on every JSON patch's result).
 */
export function valueExceedsNestingDepth(value: unknown, limit = MAX_NESTING_DEPTH): boolean {
  return typeof value === 'object' && value !== null && (limit <= 0 || containerExceeds(value, limit - 1));
}

/** Whether the container `v` holds containers more than `below` levels deep. */
function containerExceeds(v: object, below: number): boolean {
  if (Array.isArray(v)) {
    for (const child of v) {
      if (typeof child === 'object' && child !== null && (below === 0 || containerExceeds(child, below - 1))) return true;
    }
    return false;
  }
  const o = v as Record<string, unknown>;
  for (const key in o) {
    if (!Object.hasOwn(o, key)) continue;
    const child = o[key];
    if (typeof child === 'object' && child !== null && (below === 0 || containerExceeds(child, below - 1))) return true;
  }
  return false;
}

export function nestingDepthError(limit = MAX_NESTING_DEPTH): StatusError {
  return newBadRequest(`the request body is nested deeper than the maximum depth of ${limit}`);
}

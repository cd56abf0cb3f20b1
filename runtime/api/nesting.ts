/**
 * The nesting-depth limit of request bodies. kube's decoders refuse JSON nested deeper than
 * 10,000 levels; kgen's recursive processing (validation, pruning, patching, managedFields)
 * would exhaust the stack well before that, so its bound is MAX_NESTING_DEPTH: far above any
 * real object, far below the stack. Two checks:
 *   - exceedsNestingDepth scans raw bytes for `[`/`{` outside JSON strings, before any parsing,
 *     for every body (JSON, YAML flow style, protobuf's embedded JSON);
 *   - valueExceedsNestingDepth walks a decoded value (recursion bounded by the limit), for YAML whose block
 *     style nests by indentation, and for values no body bounded: a JSON patch's result (the
 *     client's: endpoints/patchers.ts; a mutating webhook's: admission/webhook/mutating.ts).
 * Bodies beyond it are a 400 BadRequest. It lives in api/ so that every layer that builds an
 * object from outside input (server, endpoints, admission) checks the one bound.
 */
import { newBadRequest, type StatusError } from './status.js';

export const MAX_NESTING_DEPTH = 500;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/** True when `[`/`{` outside double-quoted strings nest deeper than limit. */
export function exceedsNestingDepth(body: Uint8Array, limit = MAX_NESTING_DEPTH): boolean {
  return tooDeepOffset(body, limit) >= 0;
}

/** The offset of the first `[`/`{` more than limit levels deep in body, or -1 when none is. */
export function tooDeepOffset(body: Uint8Array, limit = MAX_NESTING_DEPTH): number {
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
      if (++depth > limit) return i;
    } else if (CLOSERS.has(c) && depth > 0) {
      depth--;
    }
  }
  return -1;
}

/**
 * True when arrays and objects in value nest deeper than limit. Recursive, but it stops as soon
 * as it is `limit` levels down, so it never uses more than `limit` stack frames however deep the
 * value is; allocates nothing (it runs on every JSON patch's result).
 */
export function valueExceedsNestingDepth(value: unknown, limit = MAX_NESTING_DEPTH): boolean {
  return tooDeepContainer(value, limit) !== undefined;
}

/**
 * The first container (in document order) that lies more than limit levels deep in value, or
 * undefined when none does: valueExceedsNestingDepth's walk, for callers that name what was too
 * deep as Go's decoder does (`invalid character '{' exceeded max depth`).
 */
export function tooDeepContainer(value: unknown, limit = MAX_NESTING_DEPTH): object | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  return limit <= 0 ? value : containerExceeds(value, limit - 1);
}

/** The first container held by `v` more than `below` levels down. */
function containerExceeds(v: object, below: number): object | undefined {
  if (Array.isArray(v)) {
    for (const child of v) {
      if (typeof child !== 'object' || child === null) continue;
      const deep = below === 0 ? child : containerExceeds(child, below - 1);
      if (deep !== undefined) return deep;
    }
    return undefined;
  }
  const o = v as Record<string, unknown>;
  for (const key in o) {
    if (!Object.hasOwn(o, key)) continue;
    const child = o[key];
    if (typeof child !== 'object' || child === null) continue;
    const deep = below === 0 ? child : containerExceeds(child, below - 1);
    if (deep !== undefined) return deep;
  }
  return undefined;
}

export function nestingDepthError(limit = MAX_NESTING_DEPTH): StatusError {
  return newBadRequest(`the request body is nested deeper than the maximum depth of ${limit}`);
}

/**
 * Where a JSON patch's number literals end up in its result. kube's JSON patch keeps each
 * operation value's raw text in the patched JSON, so `{"op": "replace", "path": "/spec/replicas",
 * "value": 2.0}` reaches Go's decoder as `2.0` and is refused for an int32; kgen's patch works on
 * JSON.parse's values, where 2.0 is 2 (json-literals.ts holds the literals JSON.parse does not keep).
 *
 * Operations move, copy and shift values (an `add` into a list moves later elements), so the
 * places are found by applying the patch once more to the same document, each such literal in an
 * `add` or `replace` value standing in as a marker object, and reading where the markers are in
 * the result. `test` operations are left out: they change nothing, and they passed (this runs
 * only after the real patch applied). A marker is an object where the real value is a number,
 * which no operation of a patch that applied can tell apart (going into a number fails in both).
 * This costs a second application, only for a patch whose text holds such a literal.
 */
import { randomUUID } from 'node:crypto';
import { applyJSONPatch } from '../registry/jsonpatch.js';
import { numberLiteralsOf, type NumberLiterals } from '../validation/json-literals.js';

/** The markers' key: this prefix and a nonce made for each patch, so a patch cannot forge one. */
const MARK = '\u0000kgen:number-literal:';

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The markers of one patch: their key, and the literal each one stands for. */
interface Markers {
  key: string;
  literals: string[];
}

/** v with each number that has a literal in `at` replaced by a marker. */
function mark(v: unknown, at: NumberLiterals, m: Markers): unknown {
  if (typeof v === 'number') {
    if (at.literal === undefined) return v;
    m.literals.push(at.literal);
    return { [m.key]: m.literals.length - 1 };
  }
  const below = at.children;
  if (below === undefined) return v;
  if (Array.isArray(v)) return v.map((x, i) => (below.has(i) ? mark(x, below.get(i)!, m) : x));
  if (!isPlainObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(v)) {
    const child = below.get(key);
    Object.defineProperty(out, key, { value: child === undefined ? v[key] : mark(v[key], child, m), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The literal a marker stands for, when v is one. */
function markedLiteral(v: Record<string, unknown>, m: Markers): string | undefined {
  if (!Object.hasOwn(v, m.key)) return undefined;
  const i = v[m.key];
  return typeof i === 'number' ? m.literals[i] : undefined;
}

/** The tree of the markers' places in v; undefined where there is none. */
function collect(v: unknown, m: Markers): NumberLiterals | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  if (!Array.isArray(v)) {
    const literal = markedLiteral(v as Record<string, unknown>, m);
    if (literal !== undefined) return { literal };
  }
  let children: Map<string | number, NumberLiterals> | undefined;
  const visit = (place: string | number, x: unknown) => {
    const child = collect(x, m);
    if (child !== undefined) (children ??= new Map()).set(place, child);
  };
  if (Array.isArray(v)) v.forEach((x, i) => visit(i, x));
  else for (const key of Object.keys(v)) visit(key, (v as Record<string, unknown>)[key]);
  return children === undefined ? undefined : { children };
}

/**
 * The number literals of a JSON patch (`ops`, parsed from `patchText`) at their places in the
 * result of applying it to `doc` (which it applied to), or undefined when it has none that
 * matters. `doc` is not mutated.
 */
export function jsonPatchResultLiterals(doc: unknown, ops: unknown, patchText: string): NumberLiterals | undefined {
  const inPatch = numberLiteralsOf(patchText)?.children;
  if (inPatch === undefined || !Array.isArray(ops)) return undefined;
  const m: Markers = { key: MARK + randomUUID(), literals: [] };
  const marked: unknown[] = [];
  ops.forEach((op, i) => {
    if (!isPlainObject(op) || op.op === 'test') return;
    const value = inPatch.get(i)?.children?.get('value');
    if (value === undefined || (op.op !== 'add' && op.op !== 'replace')) return void marked.push(op);
    marked.push({ ...op, value: mark(op.value, value, m) });
  });
  if (m.literals.length === 0) return undefined;
  let result: unknown;
  try {
    result = applyJSONPatch(doc, marked);
  } catch {
    // It applied without markers; should it not with them, the literals are not followed.
    return undefined;
  }
  return collect(result, m);
}

/**
 * ObjectMeta in a built-in kind's body as kube's decoder reads it, with what objectmeta-decode.ts
 * knows of its fields: a metav1.Time's error ends decoding, an int64 is judged on its literal
 * (`generation: 1.0` is refused), and metadata that repeats a key is decoded occurrence by
 * occurrence (json-occurrences.ts).
 */
import { objectMetaDecode, objectMetaFieldType } from '../api/objectmeta-decode.js';
import { goTimeParseError } from '../api/time.js';
import { Fatal, isObject, jsonKind, typeErrorMessage, type Saved } from './go-decode-errors.js';
import { integerLiteralError, type NumberLiterals } from './json-literals.js';
import { RepeatedKeys } from './json-occurrences.js';


/** The first metav1.Time of ObjectMeta that does not decode: not a string, or text time.Parse(RFC3339) refuses. */
function objectMetaTimeError(meta: unknown): string | undefined {
  if (!isObject(meta)) return undefined;
  for (const key of Object.keys(meta)) {
    const v = meta[key];
    if (v === null || objectMetaFieldType(key) !== 'time') continue;
    if (typeof v !== 'string') return typeErrorMessage(jsonKind(v), 'ObjectMeta', `metadata.${key}`, 'string');
    const err = goTimeParseError(v, false);
    if (err !== undefined) return err;
  }
  return undefined;
}

/**
 * ObjectMeta's int64 fields (generation, deletionGracePeriodSeconds) judged on their literal text
 * (`generation: 1.0` is refused), where objectmeta-decode.ts, which sees values only, took them.
 */
function objectMetaLiteralError(meta: unknown, at: NumberLiterals | undefined): string | undefined {
  const below = at?.children;
  if (below === undefined || !isObject(meta)) return undefined;
  for (const key of Object.keys(meta)) {
    const literal = below.get(key)?.literal;
    if (literal === undefined || typeof meta[key] !== 'number' || objectMetaFieldType(key) !== 'int64') continue;
    const err = integerLiteralError(literal, 'int64');
    if (err !== undefined && err !== 'exact') return `json: cannot unmarshal ${err} into Go struct field ObjectMeta.metadata.${key} of type int64`;
  }
  return undefined;
}

/**
 * ObjectMeta decoded as objectmeta-decode.ts knows it: a metav1.Time's error ends decoding
 * (whichever comes first in metadata), another error is remembered when it is the first.
 */
export function decodeMetadata(meta: unknown, at: NumberLiterals | undefined, saved: Saved): void {
  const timeError = objectMetaTimeError(meta);
  if (timeError !== undefined) throw new Fatal(timeError);
  const error = objectMetaDecode(meta, 'metadata.')?.error ?? objectMetaLiteralError(meta, at);
  if (error !== undefined && saved.first === undefined) saved.first = error;
}

/**
 * A value of json-occurrences.ts as JSON.parse makes it (a repeated key's last value wins), for
 * objectmeta-decode.ts, which knows plain objects only.
 */
function lastWins(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(lastWins);
  if (!isObject(v)) return v;
  const out: Record<string, unknown> = {};
  const pairs = v instanceof RepeatedKeys ? v.pairs : Object.entries(v);
  for (const [key, x] of pairs) Object.defineProperty(out, key, { value: lastWins(x), enumerable: true, writable: true, configurable: true });
  return out;
}

/**
 * Metadata read with every occurrence of its repeated keys: field by field in the text's order,
 * each as a one-field ObjectMeta, and a labels or annotations map that repeats a key entry by
 * entry. Keys repeated deeper (in ownerReferences, managedFields) count once, with their last
 * value (what JSON.parse keeps): objectmeta-decode.ts sees plain values.
 */
export function decodeRepeatedMetadata(meta: unknown, at: NumberLiterals | undefined, saved: Saved): void {
  if (!isObject(meta)) return decodeMetadata(meta, at, saved);
  const repeated = meta instanceof RepeatedKeys;
  const fields = repeated ? meta.pairs : Object.entries(meta);
  fields.forEach(([key, x], i) => {
    const literal = at?.children?.get(repeated ? i : key);
    const literals = literal && { children: new Map([[key, literal]]) };
    if (x instanceof RepeatedKeys && objectMetaFieldType(key) === 'map[string]string') {
      for (const [k, v] of x.pairs) decodeMetadata({ [key]: lastWins(new RepeatedKeys([[k, v]])) }, undefined, saved);
    } else {
      decodeMetadata(lastWins(new RepeatedKeys([[key, x]])), literals, saved);
    }
  });
}

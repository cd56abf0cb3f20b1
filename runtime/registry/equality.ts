/** Semantic deep equality of JSON values (apiequality.Semantic.DeepEqual for plain JSON). */
import { isDeepStrictEqual } from 'node:util';

export function jsonEqual(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a, b);
}

/** A deep copy of a JSON value; objects handed across layers are never shared. */
export function deepCopy<T>(value: T): T {
  return structuredClone(value);
}

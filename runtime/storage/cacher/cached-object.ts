/**
 * Objects held by the watch cache (kube's cachingObject): deep-frozen, shared by every reader
 * (GET, LIST, every watcher) without copies, each with its JSON encoding computed once.
 *
 * Contracts:
 * - adoptObject() freezes an object the cache now owns; nothing may mutate it afterwards
 *   (strict-mode code that tries throws a TypeError). Callers that need to change an object read
 *   from the cache copy it first (registry deepCopy / structuredClone give unfrozen copies).
 * - encodedObject(obj) is the UTF-8 JSON of obj (exactly JSON.stringify(obj)) when obj IS an
 *   adopted object, computed at the first call and kept while obj lives; undefined for any other
 *   object, including copies and objects derived from a cached one (a spread copy is a new
 *   object, so stale bytes can never be written for a modified object).
 */
import type { KubeObject } from '../../api/meta.js';

/** Adopted objects → their encoding (null until first asked for). */
const encodings = new WeakMap<object, Buffer | null>();

/** Freezes value and everything reachable from it (already frozen subtrees are skipped). */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (const item of value) deepFreeze(item);
  } else {
    for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** Makes obj a cache object: deep-frozen, with a lazily computed encoding. Returns obj. */
export function adoptObject<T extends KubeObject>(obj: T): T {
  if (encodings.has(obj)) return obj;
  deepFreeze(obj);
  encodings.set(obj, null);
  return obj;
}

/** Whether obj is an object the watch cache holds (frozen, shared). */
export function isCachedObject(obj: unknown): boolean {
  return typeof obj === 'object' && obj !== null && encodings.has(obj);
}

/** The JSON encoding of a cache object, computed once; undefined when obj is not one. */
export function encodedObject(obj: unknown): Buffer | undefined {
  if (typeof obj !== 'object' || obj === null) return undefined;
  const known = encodings.get(obj);
  if (known !== null) return known;
  const bytes = Buffer.from(JSON.stringify(obj), 'utf8');
  encodings.set(obj, bytes);
  return bytes;
}

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
import { isAscii as isAsciiBuffer } from 'node:buffer';
import type { KubeObject } from '../../api/meta.js';
import { withResourceVersionJSON } from '../stored-json.js';

/**
 * Adopted objects → their encoding: null until first asked for; a latin1 string of the UTF-8
 * bytes when the object was decoded from a cache entry (made a Buffer when first written).
 */
const encodings = new WeakMap<object, Buffer | string | null>();

/**
 * Objects just decoded from a stored value this process wrote → that value and the revision
 * decoded into it (see ../stored-json.ts): when such an object is adopted, its encoding is
 * derived from the value instead of stringified. Set only on a fresh object nobody else holds.
 */
const storedValues = new WeakMap<object, { value: string; metadataEnd: number; revision: number }>();

/**
 * Records that obj is exactly decodeObject(value, revision) for a value encodeStored wrote, whose
 * metadata closes at metadataEnd: until obj is adopted, nobody may modify it.
 */
export function noteStoredValue(obj: KubeObject, value: string, metadataEnd: number, revision: number): void {
  storedValues.set(obj, { value, metadataEnd, revision });
}

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

/** adoptObject for an object decoded from `encoded` (UTF-8 JSON bytes as a latin1 string). */
export function adoptEncoded<T extends KubeObject>(obj: T, encoded: string): T {
  deepFreeze(obj);
  encodings.set(obj, encoded);
  return obj;
}

/**
 * The encoding of an adopted object as a latin1 string of its UTF-8 JSON bytes (what cache
 * entries keep), from what is known or stringified now; `ascii` tells whether that string is
 * the JSON text itself (every byte < 0x80). Remembered for an adopted obj.
 */
export function encodedLatin1(obj: KubeObject): { encoded: string; ascii: boolean } {
  const known = encodings.get(obj);
  if (typeof known === 'string') return { encoded: known, ascii: isAscii(known) };
  if (known) return { encoded: known.toString('latin1'), ascii: isAsciiBuffer(known) };
  // Through bytes, also when ASCII: JSON.stringify returns a tree of concatenated parts (about
  // 300 bytes more per KB kept), and the round trip gives one flat string.
  const stored = known === null ? storedValues.get(obj) : undefined;
  if (stored) storedValues.delete(obj);
  const json = stored ? withResourceVersionJSON(stored.value, stored.metadataEnd, stored.revision) : JSON.stringify(obj);
  const result = latin1OfUtf8(json);
  // An adopted object keeps the string (the one its cache entry keeps: no extra bytes), so later
  // readers of its encoding (an etcd update's private copy, watchers) need not stringify again.
  if (known === null) encodings.set(obj, result.encoded);
  return result;
}

/** A reused buffer: a Buffer per object would churn malloc (pool slabs freed only by GC). */
let scratch = Buffer.allocUnsafeSlow(64 * 1024);

/** s as a flat latin1 string of its UTF-8 bytes, and whether s is ASCII (then both are equal). */
export function latin1OfUtf8(s: string): { encoded: string; ascii: boolean } {
  if (s.length * 3 > scratch.length) {
    if (s.length * 3 > 1024 * 1024) {
      const bytes = Buffer.from(s, 'utf8');
      return { encoded: bytes.toString('latin1'), ascii: bytes.length === s.length };
    }
    scratch = Buffer.allocUnsafeSlow(s.length * 3);
  }
  const n = scratch.write(s, 0, 'utf8');
  return { encoded: scratch.toString('latin1', 0, n), ascii: n === s.length };
}

/**
 * Whether every char of s is below 0x80: then, and only then, its UTF-8 takes one byte a char
 * (any other char takes two or more). V8 counts that in C++ at ~0.1 µs per KB; the regular
 * expression /[^\x00-\x7f]/ this replaced took 1.3-3 µs per KB, paid at every etcd update
 * (cachedState reads its cached object's encoding).
 */
function isAscii(s: string): boolean {
  return Buffer.byteLength(s, 'utf8') === s.length;
}

/** Whether obj is an object the watch cache holds (frozen, shared). */
export function isCachedObject(obj: unknown): boolean {
  return typeof obj === 'object' && obj !== null && encodings.has(obj);
}

/** The JSON encoding of a cache object, computed once; undefined when obj is not one. */
export function encodedObject(obj: unknown): Buffer | undefined {
  if (typeof obj !== 'object' || obj === null) return undefined;
  const known = encodings.get(obj);
  if (known === undefined || (typeof known === 'object' && known !== null)) return known;
  const bytes = typeof known === 'string' ? Buffer.from(known, 'latin1') : Buffer.from(JSON.stringify(obj), 'utf8');
  encodings.set(obj, bytes);
  return bytes;
}

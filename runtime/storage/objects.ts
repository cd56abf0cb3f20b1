/**
 * How objects become stored values and back, shared by every backend. As in the etcd3 store, the
 * stored JSON never holds metadata.resourceVersion: it is derived from the revision on read.
 */
import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from '../api/meta.js';
import { StorageError, type Preconditions } from './interface.js';

/** Serialises obj for storage without metadata.resourceVersion. Non-objects are InvalidObject. */
export function encodeObject(key: string, obj: KubeObject): string {
  const rest = metadataWithoutResourceVersion(key, obj);
  try {
    return JSON.stringify({ ...obj, metadata: rest });
  } catch (err) {
    throw notJSON(key, err);
  }
}

/** obj's metadata without resourceVersion (a copy); InvalidObject when obj or its metadata is not an object. */
function metadataWithoutResourceVersion(key: string, obj: KubeObject): Record<string, unknown> {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
    throw new StorageError('InvalidObject', key, `object to store under ${key} is not a JSON object`);
  }
  const metadata = obj.metadata;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw new StorageError('InvalidObject', key, `object to store under ${key} has no metadata`);
  }
  const { resourceVersion: _dropped, ...rest } = metadata;
  return rest;
}

function notJSON(key: string, err: unknown): StorageError {
  return new StorageError('InvalidObject', key, `object to store under ${key} is not JSON: ${(err as Error).message}`);
}

/** A stored value, and the index of its metadata's closing brace (-1 when not known). */
export interface StoredValue {
  value: string;
  metadataEnd: number;
}

/**
 * etcd's default --max-request-bytes (1.5 MiB): the largest write etcd takes, and so the largest
 * object kube-apiserver can store. Memory and SQLite keep the same limit, so an object cannot grow
 * on them (by repeated patches of up to 3 MiB each) past what etcd would refuse.
 */
export const MAX_STORED_REQUEST_BYTES = 1.5 * 1024 * 1024;

/** etcd's words for a write over its limit (rpctypes.ErrRequestTooLarge). */
export const REQUEST_TOO_LARGE = 'etcdserver: request is too large';

/** Throws RequestTooLarge when key and value together exceed MAX_STORED_REQUEST_BYTES. */
export function checkStoredSize(key: string, value: string): void {
  // A UTF-16 unit is at most 3 bytes of UTF-8: most values need no count.
  if ((key.length + value.length) * 3 <= MAX_STORED_REQUEST_BYTES) return;
  if (Buffer.byteLength(key) + Buffer.byteLength(value) > MAX_STORED_REQUEST_BYTES) {
    throw new StorageError('RequestTooLarge', key, REQUEST_TOO_LARGE);
  }
}

/**
 * encodeObject's value (JSON.stringify of obj with metadata lacking resourceVersion), and where
 * metadata closes in it (stored-json.ts derives the decoded object's JSON from both). ~0.6 µs
 * dearer than encodeObject per KB: only the log storage, whose watch events use the end, calls
 * it. Written as JSON.stringify writes the whole: each own enumerable top-level property in
 * Object.keys order, properties whose value stringifies to nothing left out. A value with a toJSON method
 * (which would be called with its property name) or a metadata that is not an own enumerable
 * property takes JSON.stringify of the whole, as before.
 */
export function encodeStored(key: string, obj: KubeObject): StoredValue {
  const rest = metadataWithoutResourceVersion(key, obj);
  try {
    if (!hasToJSON(obj) && !hasToJSON(rest)) {
      const record = obj as unknown as Record<string, unknown>;
      let out = '{';
      let metadataEnd = -1;
      let plain = true;
      for (const k of Object.keys(record)) {
        const isMetadata = k === 'metadata';
        const v = isMetadata ? rest : record[k];
        if (hasToJSON(v)) {
          plain = false;
          break;
        }
        const json = JSON.stringify(v);
        if (json === undefined) continue;
        out += out.length === 1 ? `${JSON.stringify(k)}:` : `,${JSON.stringify(k)}:`;
        if (isMetadata) metadataEnd = out.length + json.length - 1;
        out += json;
      }
      if (plain && metadataEnd >= 0) return { value: `${out}}`, metadataEnd };
    }
    return { value: JSON.stringify({ ...obj, metadata: rest }), metadataEnd: -1 };
  } catch (err) {
    throw notJSON(key, err);
  }
}

function hasToJSON(v: unknown): boolean {
  return typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function';
}

/** A fresh object from a stored value, with metadata.resourceVersion set to revision. */
export function decodeObject(value: string, revision: number): KubeObject {
  const obj = JSON.parse(value) as KubeObject;
  // Set in place (the parsed object is ours): a spread copy of metadata costs V8 about 450 more
  // bytes per object, which the watch cache would hold for every object it keeps.
  if (typeof obj.metadata === 'object' && obj.metadata !== null && !Array.isArray(obj.metadata)) obj.metadata.resourceVersion = String(revision);
  else obj.metadata = { resourceVersion: String(revision) };
  return obj;
}

/**
 * True when `next` would store the same value as `current` holds (key order and undefined fields
 * do not matter), so guaranteedUpdate skips the write as kube does for no-op updates.
 */
export function sameStoredValue(currentValue: string, nextValue: string): boolean {
  if (currentValue === nextValue) return true;
  // Equal content can differ only in key order: then both hold the same characters. Most real
  // changes fail this cheap test and skip the two parses (a differently escaped but equal value
  // fails it too, and is merely written again).
  if (currentValue.length !== nextValue.length || charSum(currentValue) !== charSum(nextValue)) return false;
  return isDeepStrictEqual(JSON.parse(currentValue), JSON.parse(nextValue));
}

function charSum(s: string): number {
  let sum = 0;
  for (let i = 0; i < s.length; i++) sum = (sum + s.charCodeAt(i)) | 0;
  return sum;
}

/** kube's Preconditions.Check: a set uid or resourceVersion must equal the object's. */
export function checkPreconditions(key: string, pre: Preconditions | undefined, obj: KubeObject | undefined): void {
  if (!pre) return;
  const meta = obj?.metadata ?? {};
  if (pre.uid !== undefined && pre.uid !== (meta.uid ?? '')) {
    throw new StorageError(
      'ResourceVersionConflicts',
      key,
      `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${meta.uid ?? ''}`,
    );
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== (meta.resourceVersion ?? '')) {
    throw new StorageError(
      'ResourceVersionConflicts',
      key,
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`,
    );
  }
}

/**
 * Parses a resourceVersion: undefined for '' (and for '0' when zeroMeansUnset), else a revision.
 * Anything but a decimal integer is InvalidObject.
 */
export function parseResourceVersion(key: string, rv: string | undefined, zeroMeansUnset: boolean): number | undefined {
  if (rv === undefined || rv === '') return undefined;
  if (!/^\d{1,15}$/.test(rv)) {
    throw new StorageError('InvalidObject', key, `invalid resource version: ${JSON.stringify(rv)}`);
  }
  const revision = Number(rv);
  return revision === 0 && zeroMeansUnset ? undefined : revision;
}

/**
 * Continue tokens, encoded as k8s.io/apiserver/pkg/storage EncodeContinue / DecodeContinue do:
 * unpadded base64url of `{"v":"meta.k8s.io/v1","rv":<revision>,"start":"<next key minus prefix>"}`.
 * The list continues at revision `rv` from key `prefix + start` (inclusive).
 */
import { StorageError } from './interface.js';

const TOKEN_VERSION = 'meta.k8s.io/v1';

export interface ContinuePosition {
  /** The full key the next page starts at (inclusive). */
  startKey: string;
  /** The revision every page of the list is served at. */
  revision: number;
}

/** Encodes the position `startKey` (which must lie under `keyPrefix`) at `revision`. */
export function encodeContinue(startKey: string, keyPrefix: string, revision: number): string {
  if (!startKey.startsWith(keyPrefix) || startKey === keyPrefix) {
    throw new Error(`continue key ${JSON.stringify(startKey)} does not lie under prefix ${JSON.stringify(keyPrefix)}`);
  }
  const token = { v: TOKEN_VERSION, rv: revision, start: startKey.slice(keyPrefix.length) };
  return Buffer.from(JSON.stringify(token), 'utf8').toString('base64url');
}

/**
 * Decodes a token for a list under `keyPrefix`. Anything malformed, including a start key that
 * would escape the prefix (`../`), is StorageError('InvalidObject'); the caller maps it to 400.
 */
export function decodeContinue(token: string, keyPrefix: string): ContinuePosition {
  const fail = (why: string): never => {
    throw new StorageError('InvalidObject', keyPrefix, `invalid continue token: ${why}`);
  };
  if (!/^[A-Za-z0-9_-]+$/.test(token)) fail('not base64url encoded');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    return fail('not a JSON object');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return fail('not a JSON object');
  const { v, rv, start } = parsed as Record<string, unknown>;
  if (v !== TOKEN_VERSION) fail(`unrecognized encoded version ${JSON.stringify(v)}`);
  if (typeof rv !== 'number' || !Number.isSafeInteger(rv) || rv <= 0) fail('incorrect encoded start resourceVersion');
  if (typeof start !== 'string' || start === '') return fail('encoded start key empty');
  return { startKey: keyPrefix + cleanStart(start, fail), revision: rv as number };
}

/**
 * Mirrors DecodeContinue's path.Clean check: `/` + start must already be a clean absolute path, so
 * the start key can never range over anything outside the prefix. Returns start without a leading `/`.
 */
function cleanStart(start: string, fail: (why: string) => never): string {
  const key = start.startsWith('/') ? start : `/${start}`;
  const clean = key === '/' || key.slice(1).split('/').every((s) => s !== '' && s !== '.' && s !== '..');
  if (!clean) fail(`invalid start key ${JSON.stringify(start)}`);
  return key.slice(1);
}

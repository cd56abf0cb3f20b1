/**
 * Continue tokens, encoded as k8s.io/apiserver/pkg/storage EncodeContinue / DecodeContinue do:
 * unpadded base64url of `{"v":"meta.k8s.io/v1","rv":<revision>,"start":"<next key minus prefix>"}`.
 * The list continues at revision `rv` from key `prefix + start` (inclusive); a negative `rv` (the
 * -1 of kube's "inconsistent continue", handed out with a compacted token's 410) continues at the
 * latest revision.
 */
import { StorageError } from './interface.js';

const TOKEN_VERSION = 'meta.k8s.io/v1';

export interface ContinuePosition {
  /** The full key the next page starts at (inclusive). */
  startKey: string;
  /** The revision every page of the list is served at; undefined: the latest (a token with rv < 0). */
  revision?: number;
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
  if (typeof rv !== 'number' || !Number.isSafeInteger(rv) || rv === 0) fail('incorrect encoded start resourceVersion');
  if (typeof start !== 'string' || start === '') return fail('encoded start key empty');
  const startKey = keyPrefix + cleanStart(start, fail);
  return (rv as number) > 0 ? { startKey, revision: rv as number } : { startKey };
}

const INCONSISTENT_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. ' +
  'You can start a new list without the continue parameter, or use the continue token in this ' +
  'response to retrieve the remainder of the results. Continuing with the provided token results ' +
  'in an inconsistent list - objects that were created, modified, or deleted between the time ' +
  'the first chunk was returned and now may show up in the list.';

/**
 * The Expired for a continue token whose revision is compacted, as the etcd3 store's
 * handleCompactedErrorForPaging: it carries a token for the same start key at rv -1, so a client
 * may carry on with an inconsistent list (the registry puts it in the Status's metadata.continue).
 */
export function continueExpired(keyPrefix: string, startKey: string): StorageError {
  return new StorageError('Expired', keyPrefix, INCONSISTENT_CONTINUE, encodeContinue(startKey, keyPrefix, -1));
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

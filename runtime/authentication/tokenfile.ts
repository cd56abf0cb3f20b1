/**
 * Static bearer tokens (k8s.io/apiserver/plugin/pkg/authenticator/token/tokenfile) and the
 * bearer-token request authenticator (authentication/request/bearertoken).
 *
 * `--token-auth-file` is CSV: `token,user,uid[,"group1,group2"]`; at least three columns, empty
 * tokens are skipped, a repeated token keeps the last record. A request's
 * `Authorization: Bearer <token>` is looked up; an unknown or empty token is a 401, and a
 * recognised one is removed from the request so no later layer (audit, handlers) sees it.
 */
import { readFileSync } from 'node:fs';
import type { UserInfo } from '../api/auth.js';
import type { IncomingAPIRequest } from '../api/request.js';
import type { RequestAuthenticator } from './authenticator.js';
import { CSVError, parseCSV } from './csv.js';

export type TokenTable = ReadonlyMap<string, UserInfo>;

/** Parses the token file's text; `path` only names it in errors. Warnings go to `warn`. */
export function parseTokenFile(text: string, path: string, warn: (line: string) => void = () => undefined): TokenTable {
  let records: string[][];
  try {
    records = parseCSV(text);
  } catch (err) {
    if (err instanceof CSVError) throw new Error(`token file '${path}': ${err.message}`);
    throw err;
  }
  const tokens = new Map<string, UserInfo>();
  records.forEach((record, index) => {
    const recordNum = index + 1;
    if (record.length < 3) throw new Error(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`);
    const [token, username, uid, groups] = record as [string, string, string, string | undefined];
    if (token === '') {
      warn(`empty token has been found in token file '${path}', record number '${recordNum}'`);
      return;
    }
    if (tokens.has(token)) warn(`duplicate token has been found in token file '${path}', record number '${recordNum}'`);
    const user: UserInfo = { username, uid, groups: groups !== undefined ? groups.split(',') : [] };
    tokens.set(token, user);
  });
  return tokens;
}

export function loadTokenFile(path: string, warn?: (line: string) => void): TokenTable {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read token file '${path}': ${(err as Error).message}`);
  }
  return parseTokenFile(text, path, warn);
}

function headerValue(request: IncomingAPIRequest, name: string): string {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** The bearer token of `Authorization`, '' when the header carries an empty one, undefined when none. */
export function bearerToken(request: IncomingAPIRequest): string | undefined {
  const auth = headerValue(request, 'authorization').trim();
  if (auth === '') return undefined;
  const parts = auth.split(' ');
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return undefined;
  return parts[1]!;
}

export function tokenFileAuthenticator(tokens: TokenTable): RequestAuthenticator {
  return {
    authenticate(request: IncomingAPIRequest) {
      const token = bearerToken(request);
      if (token === undefined) return undefined;
      const user = token === '' ? undefined : tokens.get(token);
      if (!user) return { error: 'invalid bearer token' };
      delete request.headers.authorization;
      return { user: { ...user, groups: [...user.groups] } };
    },
    knownCredentials: () => [...tokens.keys()],
  };
}

/**
 * The request-header authenticator (k8s.io/apiserver/pkg/authentication/request/headerrequest,
 * behind x509request.NewDynamicCAVerifier): an authenticating proxy — kube's aggregator — names
 * the user in headers (X-Remote-User, X-Remote-Group, X-Remote-Extra-<key>), and those headers
 * are believed only from a client certificate signed by the request-header CA
 * (--requestheader-client-ca-file) whose CommonName is allowed (--requestheader-allowed-names;
 * empty allows any). The headers are removed from the request once read.
 */
import type { UserInfo } from '../api/auth.js';
import { ownValue, setOwnValue } from '../api/ownkeys.js';
import type { IncomingAPIRequest } from '../api/request.js';
import type { AuthenticationHeaders, RequestAuthenticator } from './authenticator.js';
import { chainsToOneOf, CLIENT_AUTH_USAGE, parseCertificates } from './certificates.js';

export interface RequestHeaderOptions {
  /** PEM bundle the proxy's client certificate must be signed by. */
  clientCA: string;
  /** CommonNames allowed to act as a proxy; empty allows any certificate the CA signed. */
  allowedNames?: readonly string[];
  /** Default ['X-Remote-User']: the first present one names the user. */
  usernameHeaders?: readonly string[];
  /** Default ['X-Remote-Uid'] (kube 1.32's --requestheader-uid-headers). */
  uidHeaders?: readonly string[];
  /** Default ['X-Remote-Group']: every value of every header is a group. */
  groupHeaders?: readonly string[];
  /** Default ['X-Remote-Extra-']: `<prefix><key>` carries extra[key] (key URL-unescaped, lower-cased). */
  extraHeaderPrefixes?: readonly string[];
}

export const DEFAULT_USERNAME_HEADERS = ['X-Remote-User'];
export const DEFAULT_UID_HEADERS = ['X-Remote-Uid'];
export const DEFAULT_GROUP_HEADERS = ['X-Remote-Group'];
export const DEFAULT_EXTRA_HEADER_PREFIXES = ['X-Remote-Extra-'];

function values(request: IncomingAPIRequest, name: string): string[] {
  const lower = name.toLowerCase();
  const distinct = request.headersDistinct?.[lower];
  if (distinct) return distinct;
  const value = request.headers[lower];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function headerNamesWithPrefix(request: IncomingAPIRequest, prefixes: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (const name of Object.keys(request.headers)) {
    for (const prefix of prefixes) {
      if (name.toLowerCase().startsWith(prefix.toLowerCase())) out.push([name, name.slice(prefix.length)]);
    }
  }
  return out;
}

function unescapeKey(key: string): string {
  try {
    return decodeURIComponent(key).toLowerCase();
  } catch {
    return key.toLowerCase();
  }
}

/**
 * kube's headerrequest.ClearAuthenticationHeaders, prepared once for a set of headers: deletes
 * the named headers and those whose name starts with one of the prefixes (lower-cased, as node
 * keys headers), so nothing later (audit, handlers, the aggregator's proxy) sees them. The
 * authentication filter runs it on every request: one pass over the header names, most of
 * them dismissed by their first character.
 */
export function authenticationHeadersClearer(headers: AuthenticationHeaders): (request: IncomingAPIRequest) => void {
  const names = new Set(headers.names);
  // An empty prefix would name every header (Content-Type included): it clears none.
  const prefixes = [...new Set(headers.prefixes)].filter((p) => p !== '');
  const firsts = new Set([...names, ...prefixes].map((n) => n.charCodeAt(0)));
  return (request) => {
    const all = request.headers;
    let found: string[] | undefined;
    for (const name in all) {
      if (!firsts.has(name.charCodeAt(0))) continue;
      if (names.has(name) || prefixes.some((p) => name.startsWith(p))) (found ??= []).push(name);
    }
    if (found === undefined) return;
    // headersDistinct is read only when there is something to remove (node builds it on first read).
    const distinct = request.headersDistinct;
    for (const name of found) {
      delete all[name];
      if (distinct) delete distinct[name];
    }
  };
}

/** kube's standard front-proxy headers, which WithAuthentication removes whatever the configuration. */
export const STANDARD_AUTHENTICATION_HEADERS: AuthenticationHeaders = {
  names: [...DEFAULT_USERNAME_HEADERS, ...DEFAULT_UID_HEADERS, ...DEFAULT_GROUP_HEADERS].map((n) => n.toLowerCase()),
  prefixes: DEFAULT_EXTRA_HEADER_PREFIXES.map((p) => p.toLowerCase()),
};

export function requestHeaderAuthenticator(options: RequestHeaderOptions): RequestAuthenticator {
  const cas = parseCertificates(options.clientCA);
  if (cas.length === 0) throw new Error('--requestheader-client-ca-file holds no PEM certificate');
  const allowed = options.allowedNames ?? [];
  const headers = {
    usernameHeaders: options.usernameHeaders?.length ? options.usernameHeaders : DEFAULT_USERNAME_HEADERS,
    uidHeaders: options.uidHeaders?.length ? options.uidHeaders : DEFAULT_UID_HEADERS,
    groupHeaders: options.groupHeaders?.length ? options.groupHeaders : DEFAULT_GROUP_HEADERS,
    extraHeaderPrefixes: options.extraHeaderPrefixes?.length ? options.extraHeaderPrefixes : DEFAULT_EXTRA_HEADER_PREFIXES,
  };
  const configured: AuthenticationHeaders = {
    names: [...headers.usernameHeaders, ...headers.uidHeaders, ...headers.groupHeaders].map((n) => n.toLowerCase()),
    prefixes: headers.extraHeaderPrefixes.map((p) => p.toLowerCase()),
  };
  const clearHeaders = authenticationHeadersClearer(configured);
  return {
    authenticationHeaders: () => configured,
    authenticate(request: IncomingAPIRequest) {
      const cert = request.clientCertificate;
      if (!cert) return undefined;
      if (!chainsToOneOf(cert, cas)) return { error: 'request-header: x509: certificate signed by unknown authority' };
      if (cert.extKeyUsage && !cert.extKeyUsage.includes(CLIENT_AUTH_USAGE)) {
        return { error: 'request-header: x509: certificate specifies an incompatible key usage' };
      }
      if (allowed.length > 0 && !allowed.includes(cert.commonName)) {
        return { error: `x509: subject with cn=${cert.commonName} is not in the allowed list` };
      }
      const username = headers.usernameHeaders.map((h) => values(request, h)[0]).find((v) => v !== undefined && v !== '');
      if (username === undefined) return undefined;
      const uid = headers.uidHeaders.map((h) => values(request, h)[0]).find((v) => v !== undefined && v !== '');
      const groups = headers.groupHeaders.flatMap((h) => values(request, h));
      const extra: Record<string, string[]> = {};
      for (const [name, key] of headerNamesWithPrefix(request, headers.extraHeaderPrefixes)) {
        // Keys are data: "X-Remote-Extra-Constructor" must not meet Object.prototype (api/ownkeys.ts).
        const k = unescapeKey(key);
        const existing = ownValue(extra, k) as string[] | undefined;
        if (existing) existing.push(...values(request, name));
        else setOwnValue(extra, k, [...values(request, name)]);
      }
      clearHeaders(request);
      const user: UserInfo = { username, groups };
      if (uid !== undefined) user.uid = uid;
      if (Object.keys(extra).length > 0) user.extra = extra;
      return { user };
    },
  };
}

/**
 * kube's CEL URL library (k8s.io/apiserver/pkg/cel/library/urls.go, in every kube CEL
 * environment): url(), isURL() and the URL accessors, over a port of the parts of Go's net/url
 * they use. isURL/url accept what url.ParseRequestURI accepts (an absolute URI or an absolute
 * path); the components are url.Parse's (which, unlike ParseRequestURI, splits off a fragment).
 * Error texts are net/url's, wrapped as kube wraps them.
 */
import { goQuote } from './gofmt.js';
import { KubeLibraryError } from './cel-errors.js';

/** url.URL, the fields the library reads. */
export class CelURL {
  constructor(
    readonly scheme: string,
    readonly host: string,
    readonly path: string,
    readonly rawPath: string,
    readonly rawQuery: string,
  ) {}
}

type Mode = 'path' | 'host' | 'zone' | 'userPassword' | 'queryComponent' | 'fragment';

const isAlnum = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
const isHex = (c: string | undefined): boolean => c !== undefined && hexValue(c.charCodeAt(0)) >= 0;
/** The value of a hexadecimal digit's char code, or -1. */
const hexValue = (c: number): number => (c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1);

/** net/url shouldEscape, for one byte (through ESCAPE's tables, made from shouldEscapeByte). */
const shouldEscape = (c: number, mode: Mode): boolean => ESCAPE[mode][c] === 1;

/** net/url shouldEscape, for one byte. */
function shouldEscapeByte(c: number, mode: Mode): boolean {
  if (isAlnum(c)) return false;
  const ch = String.fromCharCode(c);
  if ((mode === 'host' || mode === 'zone') && `!$&'()*+,;=:[]<>"`.includes(ch)) return false;
  if ('-_.~'.includes(ch)) return false;
  if ('$&+,/:;=?@'.includes(ch)) {
    switch (mode) {
      case 'path':
        return ch === '?';
      case 'userPassword':
        return ch === '@' || ch === '/' || ch === '?' || ch === ':';
      case 'queryComponent':
        return true;
      case 'fragment':
        return false;
      default:
        break;
    }
  }
  if (mode === 'fragment' && '!()*'.includes(ch)) return false;
  return true;
}

const MODES: readonly Mode[] = ['path', 'host', 'zone', 'userPassword', 'queryComponent', 'fragment'];
/** shouldEscape per mode and byte: a URL as long as a request body (3 MB) is escaped in milliseconds. */
const ESCAPE = Object.fromEntries(MODES.map((mode) => [mode, Uint8Array.from({ length: 256 }, (_, c) => (shouldEscapeByte(c, mode) ? 1 : 0))])) as Record<Mode, Uint8Array>;
/** validEncoded's characters that may stay as they are in any mode. */
const SUB_DELIMS = Uint8Array.from({ length: 256 }, (_, c) => (`!$&'()*+,;=:@[]%`.includes(String.fromCharCode(c)) ? 1 : 0));
const HEX_UPPER = Buffer.from('0123456789ABCDEF', 'latin1');

class URLError extends Error {}

/** net/url unescape: validates escapes (and, in a host, the characters), then decodes them. */
function unescape(s: string, mode: Mode): string {
  let hasEscape = false;
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (s[i] === '%') {
      if (i + 2 >= s.length || !isHex(s[i + 1]) || !isHex(s[i + 2])) throw new URLError(`invalid URL escape ${goQuote(s.slice(i, i + 3))}`);
      if (mode === 'host' && parseInt(s[i + 1]!, 16) < 8 && s.slice(i, i + 3) !== '%25') throw new URLError(`invalid URL escape ${goQuote(s.slice(i, i + 3))}`);
      if (mode === 'zone') {
        const v = parseInt(s.slice(i + 1, i + 3), 16);
        if (s.slice(i, i + 3) !== '%25' && v !== 0x20 && shouldEscape(v, 'host')) throw new URLError(`invalid URL escape ${goQuote(s.slice(i, i + 3))}`);
      }
      hasEscape = true;
      i += 3;
    } else {
      if ((mode === 'host' || mode === 'zone') && c < 0x80 && shouldEscape(c, mode)) throw new URLError(`invalid character ${goQuote(s[i]!)} in host name`);
      i++;
    }
  }
  const plus = mode === 'queryComponent' && s.includes('+');
  if (!hasEscape && !plus) return s;
  // Escapes are checked above. The bytes are never more than the text's UTF-8: an escape's three
  // characters become one byte.
  const bytes = Buffer.allocUnsafe(Buffer.byteLength(s, 'utf8'));
  let o = 0;
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (c === 37) {
      bytes[o++] = hexValue(s.charCodeAt(i + 1)) * 16 + hexValue(s.charCodeAt(i + 2));
      i += 3;
    } else if (c === 43 && mode === 'queryComponent') {
      bytes[o++] = 0x20;
      i++;
    } else if (c < 0x80) {
      bytes[o++] = c;
      i++;
    } else {
      // A run of other characters, written as UTF-8 at once (a lone surrogate becomes U+FFFD's bytes, as before).
      let j = i + 1;
      while (j < s.length && s.charCodeAt(j) >= 0x80) j++;
      o += bytes.write(s.slice(i, j), o, 'utf8');
      i = j;
    }
  }
  return bytes.toString('utf8', 0, o);
}

/** net/url escape (the path form). */
function escape(s: string, mode: Mode): string {
  const table = ESCAPE[mode];
  const src = Buffer.from(s, 'utf8');
  const out = Buffer.allocUnsafe(src.length * 3);
  let o = 0;
  for (let i = 0; i < src.length; i++) {
    const b = src[i]!;
    if (table[b] === 1) {
      out[o++] = 37;
      out[o++] = HEX_UPPER[b >> 4]!;
      out[o++] = HEX_UPPER[b & 15]!;
    } else out[o++] = b;
  }
  return out.toString('latin1', 0, o);
}

/** net/url validEncoded. */
function validEncoded(s: string, mode: Mode): boolean {
  const table = ESCAPE[mode];
  const src = Buffer.from(s, 'utf8');
  for (let i = 0; i < src.length; i++) {
    const b = src[i]!;
    if (SUB_DELIMS[b] === 1) continue;
    if (table[b] === 1) return false;
  }
  return true;
}

function getScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) continue;
    if ((c >= 48 && c <= 57) || raw[i] === '+' || raw[i] === '-' || raw[i] === '.') {
      if (i === 0) return ['', raw];
      continue;
    }
    if (raw[i] === ':') {
      if (i === 0) throw new URLError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

const validOptionalPort = (port: string): boolean => port === '' || (port[0] === ':' && /^[0-9]*$/.test(port.slice(1)));

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) throw new URLError("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) throw new URLError(`invalid port ${goQuote(colonPort)} after host`);
    const zone = host.slice(0, i).indexOf('%25');
    if (zone >= 0) return unescape(host.slice(0, zone), 'host') + unescape(host.slice(zone, i), 'zone') + unescape(host.slice(i), 'host');
  } else {
    const i = host.lastIndexOf(':');
    if (i !== -1) {
      const colonPort = host.slice(i);
      if (!validOptionalPort(colonPort)) throw new URLError(`invalid port ${goQuote(colonPort)} after host`);
    }
  }
  return unescape(host, 'host');
}

function parseAuthority(authority: string): string {
  const i = authority.lastIndexOf('@');
  const host = parseHost(i < 0 ? authority : authority.slice(i + 1));
  if (i < 0) return host;
  const userinfo = authority.slice(0, i);
  if (!/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(userinfo)) throw new URLError('net/url: invalid userinfo');
  const colon = userinfo.indexOf(':');
  if (colon < 0) unescape(userinfo, 'userPassword');
  else {
    unescape(userinfo.slice(0, colon), 'userPassword');
    unescape(userinfo.slice(colon + 1), 'userPassword');
  }
  return host;
}

/** net/url parse(rawURL, viaRequest). */
function parse(raw: string, viaRequest: boolean): CelURL {
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new URLError('net/url: invalid control character in URL');
  if (raw === '' && viaRequest) throw new URLError('empty url');
  if (raw === '*') return new CelURL('', '', '*', '', '');
  let [scheme, rest] = getScheme(raw);
  scheme = scheme.toLowerCase();
  let rawQuery = '';
  if (rest.endsWith('?') && rest.split('?').length === 2) rest = rest.slice(0, -1);
  else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    // A rootless path with a scheme is opaque (mailto:x): no host, no path.
    if (scheme !== '') return new CelURL(scheme, '', '', '', rawQuery);
    if (viaRequest) throw new URLError('invalid URI for request');
    const segment = rest.split('/')[0]!;
    if (segment.includes(':')) throw new URLError('first path segment in URL cannot contain colon');
  }
  let host = '';
  if ((scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const i = authority.indexOf('/');
    if (i >= 0) {
      rest = authority.slice(i);
      authority = authority.slice(0, i);
    }
    host = parseAuthority(authority);
  }
  const path = unescape(rest, 'path');
  const rawPath = escape(path, 'path') === rest ? '' : rest;
  return new CelURL(scheme, host, path, rawPath, rawQuery);
}

const wrap = (raw: string, err: unknown): never => {
  if (err instanceof URLError) throw new KubeLibraryError(`URL parse error during conversion from string: parse ${goQuote(raw)}: ${err.message}`);
  throw err;
};

/** url.ParseRequestURI succeeds. */
export function isURL(raw: string): boolean {
  try {
    parse(raw, true);
    return true;
  } catch {
    return false;
  }
}

/** url.ParseRequestURI's error text (`parse "x": invalid URI for request`), undefined when it parses. */
export function requestURIError(raw: string): string | undefined {
  try {
    parse(raw, true);
    return undefined;
  } catch (err) {
    if (err instanceof URLError) return `parse ${goQuote(raw)}: ${err.message}`;
    throw err;
  }
}

/** kube's stringToUrl: checked with ParseRequestURI, parsed with Parse. */
export function parseURL(raw: string): CelURL {
  try {
    parse(raw, true);
  } catch (err) {
    wrap(raw, err);
  }
  const hash = raw.indexOf('#');
  const before = hash < 0 ? raw : raw.slice(0, hash);
  let u: CelURL;
  try {
    u = parse(before, false);
  } catch (err) {
    return wrap(before, err);
  }
  if (hash >= 0) {
    try {
      unescape(raw.slice(hash + 1), 'fragment');
    } catch (err) {
      wrap(raw, err);
    }
  }
  return u;
}

/** URL.Hostname: the host without port, IPv6 without brackets. */
export const urlHostname = (u: CelURL): string => splitHostPort(u.host)[0];

/** URL.Port. */
export const urlPort = (u: CelURL): string => splitHostPort(u.host)[1];

/** net/url splitHostPort: the port only when what follows the last colon is digits (and after ] for IPv6). */
function splitHostPort(hostPort: string): [string, string] {
  let host = hostPort;
  let port = '';
  const colon = host.lastIndexOf(':');
  if (colon !== -1 && validOptionalPort(host.slice(colon))) {
    port = host.slice(colon + 1);
    host = host.slice(0, colon);
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return [host, port];
}

/** URL.EscapedPath. */
export function urlEscapedPath(u: CelURL): string {
  if (u.rawPath !== '' && validEncoded(u.rawPath, 'path')) {
    try {
      if (unescape(u.rawPath, 'path') === u.path) return u.rawPath;
    } catch {
      // falls through to escaping the path
    }
  }
  if (u.path === '*') return '*';
  return escape(u.path, 'path');
}

/** URL.Query (url.ParseQuery, pairs that do not parse left out): values by key, in order. */
export function urlQuery(u: CelURL): Record<string, string[]> {
  const out: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const pair of u.rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    let key: string;
    let value: string;
    try {
      key = unescape(rawKey, 'queryComponent');
      value = unescape(rawValue, 'queryComponent');
    } catch {
      continue;
    }
    (out[key] ??= []).push(value);
  }
  return { ...out };
}

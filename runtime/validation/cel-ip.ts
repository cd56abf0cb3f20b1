/**
 * kube's CEL IP and CIDR libraries (k8s.io/apiserver/pkg/cel/library/ip.go and cidr.go, in CRD
 * rules since 1.30), over a port of Go's net/netip parsing (ParseAddr, ParsePrefix), its
 * canonical String() (RFC 5952) and the Addr predicates kube calls. kube refuses what netip
 * accepts but it does not want: zones (fe80::1%eth0) and IPv4-mapped IPv6 addresses
 * (::ffff:1.2.3.4). Error texts are netip's and kube's, so rule evaluation errors read the same.
 */

import { goQuote } from './gofmt.js';
import { KubeLibraryError } from './cel-errors.js';

/** netip.Addr without a zone (kube refuses zones): 4 or 16 bytes. */
export class CelIP {
  constructor(readonly bytes: Uint8Array) {}
}

/** netip.Prefix: the address as written (not masked) and the prefix length. */
export class CelCIDR {
  constructor(
    readonly ip: CelIP,
    readonly bits: number,
  ) {}
}

/** netip's parseAddrError. */
class AddrError extends KubeLibraryError {
  constructor(input: string, msg: string, at?: string) {
    super(`ParseAddr(${goQuote(input)}): ${msg}${at ? ` (at ${goQuote(at)})` : ''}`);
  }
}

/** parseIPv4Fields: in[off:end] into fields[at..at+3]. */
function parseIPv4Fields(input: string, off: number, end: number, fields: Uint8Array, at: number): void {
  const s = input.slice(off, end);
  let val = 0;
  let pos = 0;
  let digLen = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (digLen === 1 && val === 0) throw new AddrError(input, 'IPv4 field has octet with leading zero');
      val = val * 10 + (c - 48);
      digLen++;
      if (val > 255) throw new AddrError(input, 'IPv4 field has value >255');
    } else if (s[i] === '.') {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') throw new AddrError(input, 'IPv4 field must have at least one digit', s.slice(i));
      if (pos === 3) throw new AddrError(input, 'IPv4 address too long');
      fields[at + pos] = val;
      pos++;
      val = 0;
      digLen = 0;
    } else {
      throw new AddrError(input, 'unexpected character', s.slice(i));
    }
  }
  if (pos < 3) throw new AddrError(input, 'IPv4 address too short');
  fields[at + 3] = val;
}

const hexValue = (c: string): number => {
  const code = c.charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
};

/** parseIPv6; returns the bytes and the zone ('' when none). */
function parseIPv6(input: string): { bytes: Uint8Array; zone: string } {
  let s = input;
  let zone = '';
  const percent = s.indexOf('%');
  if (percent !== -1) {
    zone = s.slice(percent + 1);
    s = s.slice(0, percent);
    if (zone === '') throw new AddrError(input, 'zone must be a non-empty string');
  }
  const ip = new Uint8Array(16);
  let ellipsis = -1;
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return { bytes: ip, zone };
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const h = hexValue(s[off]!);
      if (h < 0) break;
      acc = acc * 16 + h;
      if (off > 3) throw new AddrError(input, 'each group must have 4 or less digits', s);
      if (acc > 0xffff) throw new AddrError(input, 'IPv6 field has value >=2^16', s);
    }
    if (off === 0) throw new AddrError(input, 'each colon-separated field must have at least one digit', s);
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) throw new AddrError(input, 'embedded IPv4 address must replace the final 2 fields of the address', s);
      if (i + 4 > 16) throw new AddrError(input, 'too many hex fields to fit an embedded IPv4 at the end of the address', s);
      let end = input.length;
      if (zone.length > 0) end -= zone.length + 1;
      parseIPv4Fields(input, end - s.length, end, ip, i);
      s = '';
      i += 4;
      break;
    }
    ip[i] = acc >> 8;
    ip[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s.length === 0) break;
    if (s[0] !== ':') throw new AddrError(input, 'unexpected character, want colon', s);
    if (s.length === 1) throw new AddrError(input, 'colon must be followed by more characters', s);
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) throw new AddrError(input, 'multiple :: in address', s);
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) throw new AddrError(input, 'trailing garbage after address', s);
  if (i < 16) {
    if (ellipsis < 0) throw new AddrError(input, 'address string too short');
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j]!;
    ip.fill(0, ellipsis, ellipsis + n);
  } else if (ellipsis >= 0) {
    throw new AddrError(input, 'the :: must expand to at least one field of zeros', s);
  }
  return { bytes: ip, zone };
}

/** netip.ParseAddr. */
function parseAddr(s: string): { bytes: Uint8Array; zone: string } {
  for (let i = 0; i < s.length; i++) {
    switch (s[i]) {
      case '.': {
        const bytes = new Uint8Array(4);
        parseIPv4Fields(s, 0, s.length, bytes, 0);
        return { bytes, zone: '' };
      }
      case ':':
        return parseIPv6(s);
      case '%':
        throw new AddrError(s, 'missing IPv6 address');
    }
  }
  throw new AddrError(s, 'unable to parse IP');
}

const is4In6 = (b: Uint8Array): boolean => b.length === 16 && b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;

/** kube's parseIPAddr: netip.ParseAddr, no zone, not IPv4-mapped. */
export function parseIP(raw: string): CelIP {
  let addr: { bytes: Uint8Array; zone: string };
  try {
    addr = parseAddr(raw);
  } catch (err) {
    throw new KubeLibraryError(`IP Address ${goQuote(raw)} parse error during conversion from string: ${(err as Error).message}`);
  }
  if (addr.zone !== '') throw new KubeLibraryError(`IP address ${goQuote(raw)} with zone value is not allowed`);
  if (is4In6(addr.bytes)) throw new KubeLibraryError(`IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`);
  return new CelIP(addr.bytes);
}

export function isIP(raw: string): boolean {
  try {
    parseIP(raw);
    return true;
  } catch {
    return false;
  }
}

/** netip.Addr.String(): dotted IPv4, or RFC 5952 IPv6 (lowercase, the longest run of ≥2 zero groups as ::). */
export function ipString(ip: CelIP): string {
  const b = ip.bytes;
  if (b.length === 4) return b.join('.');
  const groups = Array.from({ length: 8 }, (_, i) => (b[2 * i]! << 8) | b[2 * i + 1]!);
  let zeroStart = -1;
  let zeroLen = 0;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i >= 2 && j - i > zeroLen) {
      zeroStart = i;
      zeroLen = j - i;
    }
  }
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (i === zeroStart) {
      out += '::';
      i += zeroLen - 1;
      continue;
    }
    if (out !== '' && !out.endsWith(':')) out += ':';
    out += groups[i]!.toString(16);
  }
  return out;
}

/** ip.isCanonical(string): the string is what netip prints for the address. */
export const ipIsCanonical = (raw: string): boolean => ipString(parseIP(raw)) === raw;

export const ipFamily = (ip: CelIP): bigint => (ip.bytes.length === 4 ? 4n : 6n);

export const ipEquals = (a: CelIP, b: CelIP): boolean => a.bytes.length === b.bytes.length && a.bytes.every((x, i) => x === b.bytes[i]);

const is6Group0 = (ip: CelIP): number => (ip.bytes[0]! << 8) | ip.bytes[1]!;

export function ipIsUnspecified(ip: CelIP): boolean {
  return ip.bytes.every((x) => x === 0);
}

export function ipIsLoopback(ip: CelIP): boolean {
  if (ip.bytes.length === 4) return ip.bytes[0] === 127;
  return ip.bytes.slice(0, 15).every((x) => x === 0) && ip.bytes[15] === 1;
}

export function ipIsLinkLocalMulticast(ip: CelIP): boolean {
  if (ip.bytes.length === 4) return ip.bytes[0] === 224 && ip.bytes[1] === 0 && ip.bytes[2] === 0;
  return (is6Group0(ip) & 0xff0f) === 0xff02;
}

export function ipIsLinkLocalUnicast(ip: CelIP): boolean {
  if (ip.bytes.length === 4) return ip.bytes[0] === 169 && ip.bytes[1] === 254;
  return (is6Group0(ip) & 0xffc0) === 0xfe80;
}

function ipIsMulticast(ip: CelIP): boolean {
  if (ip.bytes.length === 4) return (ip.bytes[0]! & 0xf0) === 0xe0;
  return ip.bytes[0] === 0xff;
}

/** netip.Addr.IsGlobalUnicast (as package net: private IPv4 and ULA IPv6 count as global). */
export function ipIsGlobalUnicast(ip: CelIP): boolean {
  if (ip.bytes.length === 4 && (ipIsUnspecified(ip) || ip.bytes.every((x) => x === 255))) return false;
  return !ipIsUnspecified(ip) && !ipIsLoopback(ip) && !ipIsMulticast(ip) && !ipIsLinkLocalUnicast(ip);
}

const CIDR_ERROR = 'network address parse error during conversion from string: ';

/** kube's parseCIDR: netip.ParsePrefix, not IPv4-mapped. Errors as stringToCIDR wraps them (twice). */
export function parseCIDR(raw: string): CelCIDR {
  const prefixError = (msg: string) => new KubeLibraryError(`${CIDR_ERROR}${CIDR_ERROR}netip.ParsePrefix(${goQuote(raw)}): ${msg}`);
  const slash = raw.lastIndexOf('/');
  if (slash < 0) throw prefixError("no '/'");
  let addr: { bytes: Uint8Array; zone: string };
  try {
    addr = parseAddr(raw.slice(0, slash));
  } catch (err) {
    throw prefixError((err as Error).message);
  }
  if (addr.bytes.length === 16 && addr.zone !== '') throw prefixError('IPv6 zones cannot be present in a prefix');
  const bitsStr = raw.slice(slash + 1);
  const badBits = () => prefixError(`bad bits after slash: ${goQuote(bitsStr)}`);
  if (bitsStr.length > 1 && !(bitsStr[0]! >= '1' && bitsStr[0]! <= '9')) throw badBits();
  // strconv.Atoi: an optional sign and decimal digits.
  if (!/^[+-]?[0-9]+$/.test(bitsStr) || bitsStr.length > 19) throw badBits();
  const bits = Number(bitsStr);
  const maxBits = addr.bytes.length === 4 ? 32 : 128;
  if (bits < 0 || bits > maxBits) throw prefixError('prefix length out of range');
  if (is4In6(addr.bytes)) throw new KubeLibraryError(`${CIDR_ERROR}IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`);
  return new CelCIDR(new CelIP(addr.bytes), bits);
}

export function isCIDR(raw: string): boolean {
  try {
    parseCIDR(raw);
    return true;
  } catch {
    return false;
  }
}

function maskBytes(bytes: Uint8Array, bits: number): Uint8Array {
  const out = new Uint8Array(bytes);
  for (let i = 0; i < out.length; i++) {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    out[i] = out[i]! & ((0xff << (8 - keep)) & 0xff);
  }
  return out;
}

export const cidrString = (c: CelCIDR): string => `${ipString(c.ip)}/${c.bits}`;

export const cidrMasked = (c: CelCIDR): CelCIDR => new CelCIDR(new CelIP(maskBytes(c.ip.bytes, c.bits)), c.bits);

export const cidrEquals = (a: CelCIDR, b: CelCIDR): boolean => a.bits === b.bits && ipEquals(a.ip, b.ip);

/** netip.Prefix.Contains. */
export function cidrContainsIP(c: CelCIDR, ip: CelIP): boolean {
  if (c.ip.bytes.length !== ip.bytes.length) return false;
  return ipEquals(new CelIP(maskBytes(c.ip.bytes, c.bits)), new CelIP(maskBytes(ip.bytes, c.bits)));
}

/** kube's containsCIDR: Prefix.Overlaps and the receiver's prefix no longer than the other's. */
export function cidrContainsCIDR(c: CelCIDR, other: CelCIDR): boolean {
  if (c.ip.bytes.length !== other.ip.bytes.length) return false;
  const minBits = Math.min(c.bits, other.bits);
  const overlaps = cidrEquals(c, other) || minBits === 0 || ipEquals(new CelIP(maskBytes(c.ip.bytes, minBits)), new CelIP(maskBytes(other.ip.bytes, minBits)));
  return overlaps && c.bits <= other.bits;
}

/**
 * IP addresses as Go's net package reads them for kube's validation (k8s.io/utils/net
 * ParseIPSloppy: an IPv4 octet may have leading zeros, read as decimal), and the special ranges
 * of net.IP's IsUnspecified / IsLoopback / IsLinkLocalUnicast / IsLinkLocalMulticast. An
 * IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is its IPv4 address, as Go's To4 makes it: the
 * ranges cannot be dodged by writing an IPv4 address in IPv6 form. ipWarnings: kube's warnings
 * for such addresses written in a form other than the standard one.
 */
import { CelIP, ipString, parseIP } from './cel-ip.js';
import { goQuote } from './gofmt.js';

/** The 4 or 16 bytes of an address, undefined when it is none. */
export function parseIPSloppy(value: string): number[] | undefined {
  if (value.includes(':')) return parseIPv6(value);
  return parseIPv4(value);
}

function parseIPv4(value: string): number[] | undefined {
  const parts = value.split('.');
  if (parts.length !== 4) return undefined;
  const bytes: number[] = [];
  for (const p of parts) {
    // Any number of digits, leading zeros included (Go 1.16's dtoi, which k8s.io/utils keeps).
    if (!/^\d+$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    bytes.push(n);
  }
  return bytes;
}

function parseIPv6(value: string): number[] | undefined {
  // No zone (Go's ParseIP refuses `%eth0`), at most one `::`.
  const halves = value.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string): number[] | undefined => {
    if (s === '') return [];
    const out: number[] = [];
    const parts = s.split(':');
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (i === parts.length - 1 && p.includes('.')) {
        const v4 = parseIPv4(p);
        if (!v4) return undefined;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9a-fA-F]+$/.test(p)) {
        // Any number of hex digits, leading zeros included, up to 0xffff (Go 1.16's xtoi).
        const n = parseInt(p, 16);
        if (n > 0xffff) return undefined;
        out.push(n);
      } else return undefined;
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return undefined;
  // An embedded IPv4 address is allowed only at the very end.
  if (halves.length === 2 && halves[0]!.includes('.')) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const words = [...head, ...new Array<number>(missing).fill(0), ...tail];
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

/** Go's net.IP.To4: the IPv4 bytes of an IPv4 or IPv4-mapped address. */
export function to4(ip: number[]): number[] | undefined {
  if (ip.length === 4) return ip;
  if (ip.slice(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff) return ip.slice(12);
  return undefined;
}

export function isUnspecified(ip: number[]): boolean {
  const v4 = to4(ip);
  return v4 ? v4.every((b) => b === 0) : ip.every((b) => b === 0);
}

export function isLoopback(ip: number[]): boolean {
  const v4 = to4(ip);
  return v4 ? v4[0] === 127 : ip.slice(0, 15).every((b) => b === 0) && ip[15] === 1;
}

export function isLinkLocalUnicast(ip: number[]): boolean {
  const v4 = to4(ip);
  return v4 ? v4[0] === 169 && v4[1] === 254 : ip[0] === 0xfe && (ip[1]! & 0xc0) === 0x80;
}

export function isLinkLocalMulticast(ip: number[]): boolean {
  const v4 = to4(ip);
  return v4 ? v4[0] === 224 && v4[1] === 0 && v4[2] === 0 : ip[0] === 0xff && (ip[1]! & 0x0f) === 0x02;
}

/** net.IP.String(): dotted for an IPv4 or IPv4-mapped address, else RFC 5952 IPv6. */
function netIPString(ip: number[]): string {
  const v4 = to4(ip);
  return v4 ? v4.join('.') : ipString(new CelIP(Uint8Array.from(ip)));
}

/**
 * utilvalidation.GetWarningsForIP (apimachinery 1.33), for a field validated with Go's sloppy
 * parse: an address netip.ParseAddr refuses (leading zeros: `010.001.002.003`) or an IPv4-mapped
 * IPv6 one (`::ffff:1.2.3.4`) is to be written as net.IP prints it; an IPv6 address not in RFC
 * 5952 form (`2001:DB8::1`, `2001:db8:0:0::1`) as netip prints it. None for a value that does not
 * parse (validation refuses it).
 */
export function ipWarnings(path: string, value: string): string[] {
  const ip = parseIPSloppy(value);
  if (!ip) return [];
  let strict: CelIP | undefined;
  try {
    strict = parseIP(value);
  } catch {
    strict = undefined;
  }
  if (strict === undefined) {
    return [`${path}: non-standard IP address ${goQuote(value)} will be considered invalid in a future Kubernetes release: use ${goQuote(netIPString(ip))}`];
  }
  const canonical = ipString(strict);
  if (strict.bytes.length === 16 && canonical !== value) {
    return [`${path}: IPv6 address ${goQuote(value)} should be in RFC 5952 canonical format (${goQuote(canonical)})`];
  }
  return [];
}

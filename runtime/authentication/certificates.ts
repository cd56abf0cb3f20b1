/**
 * Verifying client certificates against a CA bundle, for the authenticators that check the
 * certificate themselves (x509 with its own CA, request-header proxies), as Go's
 * x509.Certificate.Verify does with kube's options (Roots: the authenticator's own bundle,
 * Intermediates: the other certificates the client presented, KeyUsages: clientAuth): a chain
 * leaf → intermediates → a root of the bundle, where every link is signed by the next, every
 * certificate (the root too) is within its validity window, every intermediate is a CA (basic
 * constraints), and no certificate of the chain has extended key usages that exclude clientAuth
 * (Go's chain-wide key usage check; the leaf's own usage is the callers' check, with their
 * message). Roots come only from the bundle: a presented certificate never becomes trusted by
 * being presented, so a chain to another CA (the front-proxy CA for the x509 authenticator)
 * fails here even when the TLS layer trusted it.
 */
import { X509Certificate } from 'node:crypto';

/** id-kp-clientAuth. */
export const CLIENT_AUTH_USAGE = '1.3.6.1.5.5.7.3.2';
/** anyExtendedKeyUsage. */
const ANY_USAGE = '2.5.29.37.0';
/** Longest chain searched (Go limits its search too); kube's chains are 2 or 3 long. */
const MAX_INTERMEDIATES = 8;

/** The certificates of a PEM bundle. */
export function parseCertificates(bundle: string): X509Certificate[] {
  const blocks = bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((b) => new X509Certificate(b));
}

/** What the client presented: its certificate and the others it sent (DER), read only when needed. */
export interface PresentedChain {
  raw?: Buffer;
  intermediates?(): readonly Buffer[];
}

const withinValidity = (cert: X509Certificate, now: number) => Date.parse(cert.validFrom) <= now && Date.parse(cert.validTo) >= now;

/** Go's chain-wide check: a certificate with extended key usages must allow clientAuth (or any). */
const allowsClientAuth = (cert: X509Certificate) => {
  const usages = cert.keyUsage;
  return usages === undefined || usages.includes(CLIENT_AUTH_USAGE) || usages.includes(ANY_USAGE);
};

const signs = (issuer: X509Certificate, cert: X509Certificate) => {
  try {
    return cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
  } catch {
    return false;
  }
};

/** Whether the presented certificate chains to one of cas (see the file comment). */
export function chainsToOneOf(presented: PresentedChain, cas: readonly X509Certificate[]): boolean {
  if (!presented.raw) return false;
  const parse = (der: Buffer) => {
    try {
      return new X509Certificate(der);
    } catch {
      return undefined;
    }
  };
  const leaf = parse(presented.raw);
  if (!leaf) return false;
  const now = Date.now();
  if (!withinValidity(leaf, now)) return false;
  const roots = cas.filter((ca) => withinValidity(ca, now) && allowsClientAuth(ca));
  // Signed by a root directly: the usual case, and the presented chain is never read.
  if (roots.some((root) => signs(root, leaf))) return true;
  const intermediates = (presented.intermediates?.() ?? [])
    .map(parse)
    .filter((c): c is X509Certificate => c !== undefined && c.ca && withinValidity(c, now) && allowsClientAuth(c));
  const reaches = (cert: X509Certificate, used: ReadonlySet<X509Certificate>): boolean => {
    if (roots.some((root) => signs(root, cert))) return true;
    if (used.size >= MAX_INTERMEDIATES) return false;
    return intermediates.some((next) => !used.has(next) && signs(next, cert) && reaches(next, new Set([...used, next])));
  };
  return reaches(leaf, new Set());
}

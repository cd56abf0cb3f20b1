/**
 * Verifying client certificates against a CA bundle, for the authenticators that check the
 * certificate themselves (x509 with its own CA, request-header proxies), as Go's
 * x509.Certificate.Verify does with kube's options (Roots: the authenticator's own bundle,
 * Intermediates: the other certificates the client presented, KeyUsages: clientAuth): a chain
 * leaf → intermediates → a root of the bundle, where every link is signed by the next, every
 * certificate (the root too) is within its validity window, every intermediate is a CA (basic
 * constraints), and no certificate of the chain has extended key usages that exclude clientAuth
 * (Go's chain-wide key usage check; the leaf's own usage is the callers' check, with their
 * message). Read from the DER as Go does (certificate-extensions.ts): a signer's
 * pathLenConstraint, a root that is a v3 certificate without cA, a critical extension Go does not
 * handle (on any certificate of the chain); name constraints above a certificate with alternative names are refused
 * (Go would check the names; fail closed). These matter where kgen verifies alone: the
 * request-header path does not require the TLS layer's verification (kube's does not either). Roots come only from the bundle: a presented certificate never becomes trusted by
 * being presented, so a chain to another CA (the front-proxy CA for the x509 authenticator)
 * fails here even when the TLS layer trusted it.
 */
import { X509Certificate } from 'node:crypto';
import { certificateExtensions, type CertificateExtensions } from './certificate-extensions.js';

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

/**
 * The span of time [from, until) over which a verdict holds: a verdict depends on the clock only
 * through whether each certificate it consulted was within its validity window, so it holds
 * until the first of those certificates starts or ends being valid.
 */
interface Span {
  from: number;
  until: number;
}

/**
 * A validity bound as OpenSSL prints it ("Nov 27 14:01:39 2026 GMT"), in ms; NaN for anything
 * else. OpenSSL prints "Bad time value" for a malformed time (Go refuses such a certificate), and
 * a year below 1000 without padding ("Jan  1 00:00:00 49 GMT"), which Date.parse would read as
 * 2049: both are refused rather than guessed.
 */
const validityBound = (printed: string) =>
  /^[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)? \d{4} GMT$/.test(printed) ? Date.parse(printed) : NaN;

/**
 * Whether cert is valid at now (Go: NotBefore <= now <= NotAfter); narrows span to how long that
 * answer holds. A bound that cannot be read makes the certificate invalid at any time (fail
 * closed; the span is left as it is, the answer does not depend on the clock).
 */
const withinValidity = (cert: X509Certificate, now: number, span: Span) => {
  const notBefore = validityBound(cert.validFrom);
  const notAfter = validityBound(cert.validTo);
  if (Number.isNaN(notBefore) || Number.isNaN(notAfter)) return false;
  if (now < notBefore) {
    span.until = Math.min(span.until, notBefore);
    return false;
  }
  if (now > notAfter) {
    span.from = Math.max(span.from, notAfter + 1);
    return false;
  }
  span.from = Math.max(span.from, notBefore);
  span.until = Math.min(span.until, notAfter + 1);
  return true;
};

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

/** The DER-read extensions of a certificate, cached (roots are checked on every request). */
const extensionsCache = new WeakMap<X509Certificate, CertificateExtensions | null>();
const extensionsOf = (cert: X509Certificate) => {
  let ext = extensionsCache.get(cert);
  if (ext === undefined) extensionsCache.set(cert, (ext = certificateExtensions(cert.raw) ?? null));
  return ext ?? undefined;
};

/**
 * Whether parent may sign the last certificate of below (leaf first), as Go's
 * CheckSignatureFrom and isValid: no critical extension Go does not handle, a v3 parent needs basicConstraints with cA (a v1 one is
 * tolerated as a root only), an intermediate needs basicConstraints with cA, a pathLenConstraint
 * bounds the intermediates below it, and a parent with name constraints is refused when a
 * certificate below it has subject alternative names (Go checks those names against the
 * constraints; not implemented here, so refused: fail closed).
 */
function mayIssue(parent: X509Certificate, below: readonly X509Certificate[], asRoot: boolean): boolean {
  const ext = extensionsOf(parent);
  if (!ext || ext.unhandledCritical.length > 0) return false;
  if (ext.basicConstraints ? !ext.ca : ext.version >= 3 || !asRoot) return false;
  if (ext.maxPathLen !== undefined && below.length - 1 > ext.maxPathLen) return false;
  if (ext.nameConstraints && below.some((c) => extensionsOf(c)?.subjectAltName !== false)) return false;
  return true;
}

interface Verdict extends Span {
  chains: boolean;
}

/**
 * Verdicts by bundle, then by presented chain. A TLS connection presents one chain object for
 * its life (server/http-request.ts), so a client on a kept-alive connection pays for the
 * signature checks (~0.3 ms of ECDSA and DER parsing) once, not on every request; the clock is
 * still checked per request, through the verdict's span.
 */
const verdicts = new WeakMap<readonly X509Certificate[], WeakMap<PresentedChain, Verdict>>();

/** Whether the presented certificate chains to one of cas (see the file comment). */
export function chainsToOneOf(presented: PresentedChain, cas: readonly X509Certificate[]): boolean {
  const now = Date.now();
  let known = verdicts.get(cas);
  const cached = known?.get(presented);
  if (cached && cached.from <= now && now < cached.until) return cached.chains;
  const verdict: Verdict = { from: -Infinity, until: Infinity, chains: false };
  verdict.chains = verify(presented, cas, now, verdict);
  if (!known) verdicts.set(cas, (known = new WeakMap()));
  known.set(presented, verdict);
  return verdict.chains;
}

function verify(presented: PresentedChain, cas: readonly X509Certificate[], now: number, span: Span): boolean {
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
  if (!withinValidity(leaf, now, span)) return false;
  // Go's Verify refuses a leaf with a critical extension it does not handle.
  const leafExtensions = extensionsOf(leaf);
  if (!leafExtensions || leafExtensions.unhandledCritical.length > 0) return false;
  const roots = cas.filter((ca) => withinValidity(ca, now, span) && allowsClientAuth(ca));
  const rootSigns = (chain: readonly X509Certificate[]) => {
    const cert = chain[chain.length - 1];
    return roots.some((root) => signs(root, cert) && mayIssue(root, chain, true));
  };
  // Signed by a root directly: the usual case, and the presented chain is never read.
  if (rootSigns([leaf])) return true;
  const intermediates = (presented.intermediates?.() ?? [])
    .map(parse)
    .filter((c): c is X509Certificate => c !== undefined && withinValidity(c, now, span) && allowsClientAuth(c));
  const reaches = (chain: readonly X509Certificate[]): boolean => {
    if (rootSigns(chain)) return true;
    if (chain.length > MAX_INTERMEDIATES) return false;
    const cert = chain[chain.length - 1];
    return intermediates.some((next) => !chain.includes(next) && signs(next, cert) && mayIssue(next, chain, false) && reaches([...chain, next]));
  };
  return reaches([leaf]);
}

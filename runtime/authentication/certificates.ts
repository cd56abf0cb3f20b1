/**
 * Verifying client certificates against a CA bundle, for the authenticators that check the
 * certificate themselves (x509 with its own CA, request-header proxies): one level, no
 * intermediates, validity window checked.
 */
import { X509Certificate } from 'node:crypto';

/** id-kp-clientAuth. */
export const CLIENT_AUTH_USAGE = '1.3.6.1.5.5.7.3.2';

/** The certificates of a PEM bundle. */
export function parseCertificates(bundle: string): X509Certificate[] {
  const blocks = bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((b) => new X509Certificate(b));
}

/** Whether the DER certificate was issued and signed by one of cas (one level: no intermediates). */
export function signedByOneOf(raw: Buffer, cas: readonly X509Certificate[]): boolean {
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate(raw);
  } catch {
    return false;
  }
  const now = Date.now();
  if (Date.parse(leaf.validFrom) > now || Date.parse(leaf.validTo) < now) return false;
  return cas.some((ca) => {
    try {
      return leaf.checkIssued(ca) && leaf.verify(ca.publicKey);
    } catch {
      return false;
    }
  });
}

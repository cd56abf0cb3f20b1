/** A PEM certificate and its private key: what the PKI makes (runtime/controlplane/certs.ts) and TLS clients present. */
export interface CertificateAndKey {
  /** PEM. */
  cert: string;
  /** PEM (PKCS#8). */
  key: string;
}

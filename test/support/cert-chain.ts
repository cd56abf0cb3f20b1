/**
 * Certificate chains for tests (node-forge, RSA 2048, keys from node's crypto): CAs signed by
 * other CAs, with any validity window, basic constraints and extended key usages, to test how
 * client certificates chain through intermediates.
 */
import { createRequire } from 'node:module';
import type forgeTypes from 'node-forge';

const forge = createRequire(import.meta.url)('node-forge') as typeof forgeTypes;

export interface ChainCert {
  cert: string;
  key: string;
  /** For signing. */
  forgeCert: forgeTypes.pki.Certificate;
  forgeKey: forgeTypes.pki.rsa.PrivateKey;
}

export interface ChainCertSpec {
  commonName: string;
  organizations?: string[];
  /** basicConstraints cA. */
  ca: boolean;
  /** Extended key usages by forge name (clientAuth, serverAuth); none when undefined. */
  extKeyUsage?: Array<'clientAuth' | 'serverAuth'>;
  /** subjectAltName DNS names; no subjectAltName when undefined (a CommonName-only certificate). */
  dnsNames?: string[];
  notBefore?: Date;
  notAfter?: Date;
}

let serial = 1;

/** A certificate signed by issuer (self-signed when issuer is undefined). */
export function chainCert(spec: ChainCertSpec, issuer?: ChainCert | { cert: string; key: string }): ChainCert {
  const keys = forge.pki.rsa.generateKeyPair({ bits: 2048 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = (0x1000 + serial++).toString(16);
  cert.validity.notBefore = spec.notBefore ?? new Date(Date.now() - 60_000);
  cert.validity.notAfter = spec.notAfter ?? new Date(Date.now() + 86_400_000);
  const subject = [...(spec.organizations ?? []).map((value) => ({ name: 'organizationName', value })), { name: 'commonName', value: spec.commonName }];
  cert.setSubject(subject);
  const issuerCert = issuer ? ('forgeCert' in issuer ? issuer.forgeCert : forge.pki.certificateFromPem(issuer.cert)) : cert;
  const issuerKey = issuer ? ('forgeKey' in issuer ? issuer.forgeKey : (forge.pki.privateKeyFromPem(issuer.key) as forgeTypes.pki.rsa.PrivateKey)) : keys.privateKey;
  cert.setIssuer(issuerCert.subject.attributes);
  const extensions: object[] = [
    { name: 'basicConstraints', cA: spec.ca, critical: true },
    spec.ca ? { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true } : { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ];
  if (spec.dnsNames) extensions.push({ name: 'subjectAltName', altNames: spec.dnsNames.map((value) => ({ type: 2, value })) });
  if (spec.extKeyUsage) extensions.push({ name: 'extKeyUsage', ...Object.fromEntries(spec.extKeyUsage.map((u) => [u, true])) });
  cert.setExtensions(extensions);
  cert.sign(issuerKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: forge.pki.privateKeyToPem(keys.privateKey), forgeCert: cert, forgeKey: keys.privateKey };
}

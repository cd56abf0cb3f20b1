/**
 * Certificate chains for tests (node-forge, RSA 2048): CAs signed by other CAs, with any validity
 * window, basic constraints and extended key usages, to test how client certificates chain through
 * intermediates.
 *
 * Each certificate of a process has a key of its own, as before, but the keys come from a pool made
 * once (test/fixtures/rsa-keys/rsa-2048.pem, 64 distinct keys, taken in order; a fresh key from node's
 * crypto after the last): generating an RSA-2048 key cost ~150 ms of CPU, two thirds of a
 * certificate. The signature is RSASSA-PKCS1-v1_5 over SHA-256 computed by node's crypto rather
 * than forge's JavaScript (the same bytes: the scheme is deterministic).
 */
import { createPrivateKey, generateKeyPairSync, privateEncrypt, constants } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type forgeTypes from 'node-forge';

const forge = createRequire(import.meta.url)('node-forge') as typeof forgeTypes;
const pool = readFileSync(new URL('../fixtures/rsa-keys/rsa-2048.pem', import.meta.url), 'utf8').match(/-----BEGIN RSA PRIVATE KEY-----[^-]+-----END RSA PRIVATE KEY-----\n/g) ?? [];
let pooled = 0;

/** The next unused key of the pool (PKCS#1 PEM), or a new one once the pool is spent. */
function nextKey(): string {
  if (pooled < pool.length) return pool[pooled++];
  return generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 }).privateKey.export({ type: 'pkcs1', format: 'pem' }) as string;
}

// DigestInfo's DER prefix for SHA-256 (RFC 8017 §9.2, note 1).
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

/** forge's signer interface (`sign(md)`, a binary string) over node's RSA with PKCS#1 v1.5 padding. */
function nativeSigner(keyPem: string): { sign(md: forgeTypes.md.MessageDigest): string } {
  const key = createPrivateKey(keyPem);
  return {
    sign(md) {
      if (md.algorithm !== 'sha256') throw new Error(`cert-chain signs with sha256 only, not ${md.algorithm}`);
      const digestInfo = Buffer.concat([SHA256_DIGEST_INFO, Buffer.from(md.digest().getBytes(), 'binary')]);
      return privateEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, digestInfo).toString('binary');
    },
  };
}

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
  const keyPem = nextKey();
  const privateKey = forge.pki.privateKeyFromPem(keyPem) as forgeTypes.pki.rsa.PrivateKey;
  const keys = { privateKey, publicKey: forge.pki.setRsaPublicKey(privateKey.n, privateKey.e) };
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = (0x1000 + serial++).toString(16);
  cert.validity.notBefore = spec.notBefore ?? new Date(Date.now() - 60_000);
  cert.validity.notAfter = spec.notAfter ?? new Date(Date.now() + 86_400_000);
  const subject = [...(spec.organizations ?? []).map((value) => ({ name: 'organizationName', value })), { name: 'commonName', value: spec.commonName }];
  cert.setSubject(subject);
  const issuerCert = issuer ? ('forgeCert' in issuer ? issuer.forgeCert : forge.pki.certificateFromPem(issuer.cert)) : cert;
  cert.setIssuer(issuerCert.subject.attributes);
  const extensions: object[] = [
    { name: 'basicConstraints', cA: spec.ca, critical: true },
    spec.ca ? { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true } : { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ];
  if (spec.dnsNames) extensions.push({ name: 'subjectAltName', altNames: spec.dnsNames.map((value) => ({ type: 2, value })) });
  if (spec.extKeyUsage) extensions.push({ name: 'extKeyUsage', ...Object.fromEntries(spec.extKeyUsage.map((u) => [u, true])) });
  cert.setExtensions(extensions);
  cert.sign(nativeSigner(issuer ? issuer.key : keyPem) as forgeTypes.pki.rsa.PrivateKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: forge.pki.privateKeyToPem(keys.privateKey), forgeCert: cert, forgeKey: keys.privateKey };
}

/**
 * Making X.509 certificates: a self-signed CA and leaf certificates it signs, for serving
 * (serverAuth, with DNS and IP SANs) and for clients (clientAuth; CN is the user, O the groups,
 * as kube's x509 authenticator reads them).
 *
 * Keys (ECDSA P-256, as k3s uses) and signatures (ecdsa-with-SHA256) come from Node's crypto.
 * Node 20 cannot build certificates, so node-forge's ASN.1 encoder lays out the TBSCertificate
 * (RFC 5280 §4.1): its names and extensions encoders, with the key identifiers computed here.
 */
import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import type forgeTypes from 'node-forge';
import type { CertificateAndKey } from '../api/certificates.js';

/** node-forge, loaded when the first certificate is made: a server without TLS never pays for it. */
let forgeModule: typeof forgeTypes | undefined;
const forge = (): typeof forgeTypes => (forgeModule ??= createRequire(import.meta.url)('node-forge') as typeof forgeTypes);
const asn1 = () => forge().asn1;
/** Exported by node-forge but missing from its type definitions. */
const certificateExtensionsToAsn1 = (exts: unknown[]) =>
  (forge().pki as unknown as { certificateExtensionsToAsn1(exts: unknown[]): forgeTypes.asn1.Asn1 }).certificateExtensionsToAsn1(exts);

export type { CertificateAndKey } from '../api/certificates.js';

export interface LeafSpec {
  commonName: string;
  organizations?: readonly string[];
  usage: 'server' | 'client';
  /** Host names and IP addresses for the subjectAltName (server certificates). */
  hosts?: readonly string[];
  validityDays?: number;
}

export const CA_VALIDITY_DAYS = 3650;
export const LEAF_VALIDITY_DAYS = 3650;

const ECDSA_WITH_SHA256 = '1.2.840.10045.4.3.2';

type Node = forgeTypes.asn1.Asn1;

const universal = (type: number, constructed: boolean, value: Node[] | string) => asn1().create(asn1().Class.UNIVERSAL, type, constructed, value);
const sequence = (items: Node[]) => universal(asn1().Type.SEQUENCE, true, items);
const binary = (buf: Buffer) => buf.toString('binary');
const toDer = (node: Node) => Buffer.from(asn1().toDer(node).getBytes(), 'binary');
const fromDer = (buf: Buffer) => asn1().fromDer(forge().util.createBuffer(binary(buf)));

interface KeyPair {
  privateKey: KeyObject;
  spki: Buffer;
  keyIdentifier: Buffer;
}

/** RFC 5280 §4.2.1.2 method 1: the SHA-1 of the (uncompressed) EC public key. */
function keyIdentifierOf(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
  return createHash('sha1').update(point).digest();
}

function newKeyPair(): KeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { privateKey, spki: publicKey.export({ type: 'spki', format: 'der' }), keyIdentifier: keyIdentifierOf(publicKey) };
}

/** A positive 128-bit serial (Go rejects negative ones). */
function serialNumber(): Node {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return universal(asn1().Type.INTEGER, false, binary(bytes));
}

function validity(days: number): Node {
  const now = Date.now();
  // An hour back, so a client whose clock is a little behind still accepts it. UTCTime holds
  // dates before 2050, which ten years from now are.
  const time = (d: Date) => universal(asn1().Type.UTCTIME, false, asn1().dateToUtcTime(d));
  return sequence([time(new Date(now - 3_600_000)), time(new Date(now + days * 86_400_000))]);
}

/** A subject name and extensions, encoded by forge (a scratch certificate fills in OIDs and values). */
function encodeFields(subject: forgeTypes.pki.CertificateField[], extensions: object[]): { subject: Node; extensions: Node } {
  const scratch = forge().pki.createCertificate();
  scratch.setSubject(subject);
  scratch.setExtensions(extensions);
  return { subject: forge().pki.distinguishedNameToAsn1(scratch.subject), extensions: certificateExtensionsToAsn1(scratch.extensions) };
}

function keyIdentifierExtensions(subjectKey: Buffer, authorityKey: Buffer): object[] {
  const octets = (b: Buffer) => universal(asn1().Type.OCTETSTRING, false, binary(b));
  return [
    { name: 'subjectKeyIdentifier', value: octets(subjectKey) },
    { name: 'authorityKeyIdentifier', value: sequence([asn1().create(asn1().Class.CONTEXT_SPECIFIC, 0, false, binary(authorityKey))]) },
  ];
}

interface CertificateParts {
  keys: KeyPair;
  subject: forgeTypes.pki.CertificateField[];
  /** The issuer's encoded Name; undefined for a self-signed certificate. */
  issuer?: Node;
  extensions: object[];
  days: number;
  signer: KeyObject;
}

function pem(der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g)!;
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

/** Encodes and signs the certificate; returns its PEM. */
function certificatePEM(parts: CertificateParts): string {
  const algorithm = sequence([universal(asn1().Type.OID, false, asn1().oidToDer(ECDSA_WITH_SHA256).getBytes())]);
  const fields = encodeFields(parts.subject, parts.extensions);
  const tbs = sequence([
    asn1().create(asn1().Class.CONTEXT_SPECIFIC, 0, true, [universal(asn1().Type.INTEGER, false, asn1().integerToDer(2).getBytes())]),
    serialNumber(),
    algorithm,
    parts.issuer ?? fields.subject,
    validity(parts.days),
    fields.subject,
    fromDer(parts.keys.spki),
    fields.extensions, // already wrapped in [3] EXPLICIT
  ]);
  const signature = sign('sha256', toDer(tbs), parts.signer);
  return pem(toDer(sequence([tbs, algorithm, universal(asn1().Type.BITSTRING, false, `\0${binary(signature)}`)])));
}

function subjectOf(commonName: string, organizations: readonly string[] = []): forgeTypes.pki.CertificateField[] {
  return [...organizations.map((value) => ({ name: 'organizationName', value })), { name: 'commonName', value: commonName }];
}

function keyPEM(key: KeyObject): string {
  return key.export({ type: 'pkcs8', format: 'pem' }) as string;
}

export function newCA(commonName: string): CertificateAndKey {
  const keys = newKeyPair();
  const extensions = [
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ...keyIdentifierExtensions(keys.keyIdentifier, keys.keyIdentifier),
  ];
  const cert = certificatePEM({ keys, subject: subjectOf(commonName), extensions, days: CA_VALIDITY_DAYS, signer: keys.privateKey });
  return { cert, key: keyPEM(keys.privateKey) };
}

function subjectAltNames(hosts: readonly string[]): { type: number; value?: string; ip?: string }[] {
  // type 2 is dNSName, 7 is iPAddress (RFC 5280).
  return [...new Set(hosts)].map((h) => (isIP(h) ? { type: 7, ip: h } : { type: 2, value: h }));
}

/** The CA certificate's subject Name, as encoded (the leaf's issuer must match it byte for byte). */
function subjectNameOf(caCert: X509Certificate): Node {
  const certificate = fromDer(caCert.raw);
  const tbs = (certificate.value as Node[])[0]!;
  return (tbs.value as Node[])[5]!;
}

export function newSignedCertificate(ca: CertificateAndKey, spec: LeafSpec): CertificateAndKey {
  const caCert = new X509Certificate(ca.cert);
  const keys = newKeyPair();
  const extensions: object[] = [
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, critical: true },
    spec.usage === 'server' ? { name: 'extKeyUsage', serverAuth: true } : { name: 'extKeyUsage', clientAuth: true },
    ...keyIdentifierExtensions(keys.keyIdentifier, keyIdentifierOf(caCert.publicKey)),
  ];
  if (spec.usage === 'server') extensions.push({ name: 'subjectAltName', altNames: subjectAltNames(spec.hosts ?? []) });
  const cert = certificatePEM({
    keys,
    subject: subjectOf(spec.commonName, spec.organizations),
    issuer: subjectNameOf(caCert),
    extensions,
    days: spec.validityDays ?? LEAF_VALIDITY_DAYS,
    signer: createPrivateKey(ca.key),
  });
  return { cert, key: keyPEM(keys.privateKey) };
}

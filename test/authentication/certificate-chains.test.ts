/**
 * chainsToOneOf (authentication/certificates.ts), Go's Verify as kube's x509 authenticators call
 * it: every link signed by the next and within its validity window (the root's too), every
 * intermediate a CA, no certificate of the chain excluding client auth, roots only from the
 * authenticator's own bundle.
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, it, mock } from 'node:test';
import type forgeTypes from 'node-forge';
import { chainsToOneOf } from '../../runtime/authentication/certificates.js';
import { certificateExtensions } from '../../runtime/authentication/certificate-extensions.js';
import { chainCert, type ChainCert } from '../support/cert-chain.js';
import { opensslCert, type PEMPair } from '../support/openssl-chain.js';

const forge = createRequire(import.meta.url)('node-forge') as typeof forgeTypes;
const der = (c: ChainCert) => new X509Certificate(c.cert).raw;
const past = { notBefore: new Date(Date.now() - 2 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) };
const future = { notBefore: new Date(Date.now() + 86_400_000), notAfter: new Date(Date.now() + 2 * 86_400_000) };

describe('chainsToOneOf', () => {
  const root = chainCert({ commonName: 'root', ca: true });
  const other = chainCert({ commonName: 'other-root', ca: true });
  const roots = [new X509Certificate(root.cert)];
  const intermediate = chainCert({ commonName: 'intermediate', ca: true }, root);
  const leafUnder = (issuer: ChainCert, extra: Partial<Parameters<typeof chainCert>[0]> = {}) =>
    chainCert({ commonName: 'alice', ca: false, extKeyUsage: ['clientAuth'], ...extra }, issuer);

  it('accepts a leaf of the root and a leaf through presented intermediates', () => {
    assert.equal(chainsToOneOf({ raw: der(leafUnder(root)) }, roots), true);
    // The presented chain is read only when the leaf's CA did not sign it directly (it is costly to read).
    const unread = () => assert.fail('the presented chain was read');
    assert.equal(chainsToOneOf({ raw: der(leafUnder(root)), intermediates: unread }, roots), true);
    const leaf = leafUnder(intermediate);
    assert.equal(chainsToOneOf({ raw: der(leaf), intermediates: () => [der(intermediate)] }, roots), true);
    assert.equal(chainsToOneOf({ raw: der(leaf) }, roots), false);
    const deeper = chainCert({ commonName: 'deeper', ca: true }, intermediate);
    // Order of the presented certificates does not matter; unrelated ones are ignored.
    assert.equal(chainsToOneOf({ raw: der(leafUnder(deeper)), intermediates: () => [der(other), der(intermediate), der(deeper)] }, roots), true);
  });

  it('never trusts a presented certificate as a root', () => {
    const foreign = chainCert({ commonName: 'foreign-intermediate', ca: true }, other);
    assert.equal(chainsToOneOf({ raw: der(leafUnder(foreign)), intermediates: () => [der(foreign), der(other)] }, roots), false);
    assert.equal(chainsToOneOf({ raw: der(leafUnder(other)), intermediates: () => [der(other)] }, roots), false);
  });

  it('refuses expired or not yet valid links, the root included', () => {
    assert.equal(chainsToOneOf({ raw: der(leafUnder(intermediate, past)), intermediates: () => [der(intermediate)] }, roots), false);
    for (const window of [past, future]) {
      const stale = chainCert({ commonName: 'stale', ca: true, ...window }, root);
      assert.equal(chainsToOneOf({ raw: der(leafUnder(stale)), intermediates: () => [der(stale)] }, roots), false);
    }
    const expiredRoot = chainCert({ commonName: 'expired-root', ca: true, ...past });
    assert.equal(chainsToOneOf({ raw: der(leafUnder(expiredRoot)) }, [new X509Certificate(expiredRoot.cert)]), false);
  });

  it('refuses an intermediate that is not a CA, and extended key usages without client auth anywhere in the chain', () => {
    const notCA = chainCert({ commonName: 'not-ca', ca: false }, root);
    assert.equal(chainsToOneOf({ raw: der(leafUnder(notCA)), intermediates: () => [der(notCA)] }, roots), false);
    const servingOnly = chainCert({ commonName: 'serving-only', ca: true, extKeyUsage: ['serverAuth'] }, root);
    assert.equal(chainsToOneOf({ raw: der(leafUnder(servingOnly)), intermediates: () => [der(servingOnly)] }, roots), false);
    const both = chainCert({ commonName: 'both', ca: true, extKeyUsage: ['serverAuth', 'clientAuth'] }, root);
    assert.equal(chainsToOneOf({ raw: der(leafUnder(both)), intermediates: () => [der(both)] }, roots), true);
    const servingRoot = chainCert({ commonName: 'serving-root', ca: true, extKeyUsage: ['serverAuth'] });
    assert.equal(chainsToOneOf({ raw: der(leafUnder(servingRoot)) }, [new X509Certificate(servingRoot.cert)]), false);
  });

  it('refuses garbage', () => {
    assert.equal(chainsToOneOf({}, roots), false);
    assert.equal(chainsToOneOf({ raw: Buffer.from('nope'), intermediates: () => [Buffer.from('nope')] }, roots), false);
    assert.equal(chainsToOneOf({ raw: der(leafUnder(intermediate)), intermediates: () => [Buffer.from('nope'), der(intermediate)] }, roots), true);
  });

  // Go refuses a certificate whose validity it cannot read (x509: malformed validity), and reads a
  // GeneralizedTime year below 1000 as it is; OpenSSL prints the first as "Bad time value" and the
  // second unpadded ("Jan  1 00:00:00 49 GMT", which Date.parse takes for 2049).
  it('refuses a certificate whose validity cannot be read, or names a year below 1000', () => {
    const { UTCTIME, GENERALIZEDTIME } = forge.asn1.Type;
    const stamped = (notAfter: [number, string]) => {
      const leaf = leafUnder(root);
      // getTBSCertificate is public in node-forge but missing from its typings.
      const tbs = (forge.pki as unknown as { getTBSCertificate(c: forgeTypes.pki.Certificate): forgeTypes.asn1.Asn1 }).getTBSCertificate(leaf.forgeCert);
      const validity = (tbs.value as forgeTypes.asn1.Asn1[])[4];
      (validity.value as forgeTypes.asn1.Asn1[])[1] = forge.asn1.create(forge.asn1.Class.UNIVERSAL, notAfter[0], false, notAfter[1]);
      const md = forge.md.sha256.create();
      md.update(forge.asn1.toDer(tbs).getBytes());
      const { asn1 } = forge;
      const signed = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
        tbs,
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
          asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(forge.pki.oids.sha256WithRSAEncryption).getBytes()),
          asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, ''),
        ]),
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.BITSTRING, false, String.fromCharCode(0) + root.forgeKey.sign(md)),
      ]);
      return Buffer.from(asn1.toDer(signed).getBytes(), 'binary');
    };
    // The same stamping with a readable time verifies (the test's signing is sound).
    assert.equal(chainsToOneOf({ raw: stamped([GENERALIZEDTIME, '29991231235959Z']) }, roots), true);
    for (const notAfter of [
      [UTCTIME, 'zzzzzzzzzzzzZ'],
      [UTCTIME, '301399000000Z'],
      [GENERALIZEDTIME, '00490101000000Z'],
    ] as [number, string][]) {
      const raw = stamped(notAfter);
      assert.match(new X509Certificate(raw).validTo, /^(Bad time value|Jan  1 00:00:00 49 GMT)$/);
      assert.equal(chainsToOneOf({ raw }, roots), false, notAfter[1]);
    }
  });

  // A TLS connection presents one chain object for its life: its signatures are checked once,
  // its validity windows on every call.
  describe('one verdict per presented chain, for as long as the clock allows', () => {
    const at = (time: number, call: () => boolean) => {
      const now = mock.method(Date, 'now', () => time);
      try {
        return call();
      } finally {
        now.mock.restore();
      }
    };

    it('reads a presented chain once, and verifies a chain object again for another bundle', () => {
      const leaf = leafUnder(intermediate);
      let reads = 0;
      const presented = { raw: der(leaf), intermediates: () => (reads++, [der(intermediate)]) };
      for (let i = 0; i < 3; i++) assert.equal(chainsToOneOf(presented, roots), true);
      assert.equal(reads, 1);
      assert.equal(chainsToOneOf(presented, [new X509Certificate(other.cert)]), false);
      assert.equal(reads, 2);
    });

    it('refuses a leaf that expires while its connection lasts, and accepts an intermediate once it becomes valid', () => {
      const t0 = Date.now();
      const expiring = { raw: der(leafUnder(root, { notBefore: new Date(t0 - 60_000), notAfter: new Date(t0 + 3_600_000) })) };
      assert.equal(at(t0, () => chainsToOneOf(expiring, roots)), true);
      assert.equal(at(t0 + 3_599_000, () => chainsToOneOf(expiring, roots)), true);
      assert.equal(at(t0 + 3_601_000, () => chainsToOneOf(expiring, roots)), false);
      // A refusal holds only as long as its reason: back inside the window, it verifies again.
      assert.equal(at(t0 + 1_000, () => chainsToOneOf(expiring, roots)), true);

      const later = chainCert({ commonName: 'later', ca: true, notBefore: new Date(t0 + 3_600_000), notAfter: new Date(t0 + 7_200_000) }, root);
      const early = { raw: der(leafUnder(later)), intermediates: () => [der(later)] };
      assert.equal(at(t0, () => chainsToOneOf(early, roots)), false);
      assert.equal(at(t0 + 3_700_000, () => chainsToOneOf(early, roots)), true);
      assert.equal(at(t0 + 7_300_000, () => chainsToOneOf(early, roots)), false);
    });
  });

  // What Go reads from the DER and node's X509Certificate does not expose (openssl-made certificates).
  describe('checks read from the DER, as Go', () => {
    const raw = (c: PEMPair) => new X509Certificate(c.cert).raw;
    const x509 = (c: PEMPair) => new X509Certificate(c.cert);
    const sslRoot = opensslCert({ commonName: 'ssl-root', ca: true });
    const leafOf = (issuer: PEMPair, extensions?: string[]) => opensslCert({ commonName: 'alice', ca: false, extKeyUsage: ['clientAuth'], extensions }, issuer);

    it('a v3 root must be a CA (CheckSignatureFrom), an intermediate must have basic constraints with cA', () => {
      // Signs certificates by its key usage, but basicConstraints says no CA.
      const notCARoot = opensslCert({ commonName: 'not-ca-root', ca: false, keyUsage: 'critical,keyCertSign,digitalSignature' });
      assert.equal(chainsToOneOf({ raw: raw(leafOf(notCARoot)) }, [x509(notCARoot)]), false);
      const noConstraintsRoot = opensslCert({ commonName: 'no-bc-root', ca: false, basicConstraints: false, keyUsage: '' });
      assert.equal(chainsToOneOf({ raw: raw(leafOf(noConstraintsRoot)) }, [x509(noConstraintsRoot)]), false);
      const notCA = opensslCert({ commonName: 'not-ca', ca: false, keyUsage: 'critical,keyCertSign,digitalSignature' }, sslRoot);
      assert.equal(chainsToOneOf({ raw: raw(leafOf(notCA)), intermediates: () => [raw(notCA)] }, [x509(sslRoot)]), false);
      const noConstraints = opensslCert({ commonName: 'no-bc', ca: false, basicConstraints: false, keyUsage: '' }, sslRoot);
      assert.equal(chainsToOneOf({ raw: raw(leafOf(noConstraints)), intermediates: () => [raw(noConstraints)] }, [x509(sslRoot)]), false);
      assert.equal(chainsToOneOf({ raw: raw(leafOf(sslRoot)) }, [x509(sslRoot)]), true);
    });

    it('pathLenConstraint bounds the intermediates below, the root\'s too', () => {
      const rootZero = opensslCert({ commonName: 'root-pathlen-0', ca: true, pathLen: 0 });
      const under = opensslCert({ commonName: 'under-root-0', ca: true }, rootZero);
      assert.equal(chainsToOneOf({ raw: raw(leafOf(under)), intermediates: () => [raw(under)] }, [x509(rootZero)]), false);
      assert.equal(chainsToOneOf({ raw: raw(leafOf(rootZero)) }, [x509(rootZero)]), true);
      const one = opensslCert({ commonName: 'pathlen-1', ca: true, pathLen: 1 }, sslRoot);
      const two = opensslCert({ commonName: 'below-1', ca: true }, one);
      const three = opensslCert({ commonName: 'below-below-1', ca: true }, two);
      assert.equal(chainsToOneOf({ raw: raw(leafOf(two)), intermediates: () => [raw(two), raw(one)] }, [x509(sslRoot)]), true);
      assert.equal(chainsToOneOf({ raw: raw(leafOf(three)), intermediates: () => [raw(three), raw(two), raw(one)] }, [x509(sslRoot)]), false);
    });

    it('a certificate of the chain with a critical extension Go does not handle is refused', () => {
      assert.equal(chainsToOneOf({ raw: raw(leafOf(sslRoot, ['1.2.3.4=critical,ASN1:NULL'])) }, [x509(sslRoot)]), false);
      assert.equal(chainsToOneOf({ raw: raw(leafOf(sslRoot, ['1.2.3.4=ASN1:NULL'])) }, [x509(sslRoot)]), true);
      // On an intermediate or a root too (Go's isValid checks every certificate of the chain).
      const oddIntermediate = opensslCert({ commonName: 'odd-intermediate', ca: true, extensions: ['1.2.3.4=critical,ASN1:NULL'] }, sslRoot);
      assert.equal(chainsToOneOf({ raw: raw(leafOf(oddIntermediate)), intermediates: () => [raw(oddIntermediate)] }, [x509(sslRoot)]), false);
      const oddRoot = opensslCert({ commonName: 'odd-root', ca: true, extensions: ['1.2.3.4=critical,ASN1:NULL'] });
      assert.equal(chainsToOneOf({ raw: raw(leafOf(oddRoot)) }, [x509(oddRoot)]), false);
      const plainIntermediate = opensslCert({ commonName: 'plain-intermediate', ca: true, extensions: ['1.2.3.4=ASN1:NULL'] }, sslRoot);
      assert.equal(chainsToOneOf({ raw: raw(leafOf(plainIntermediate)), intermediates: () => [raw(plainIntermediate)] }, [x509(sslRoot)]), true);
      // Extensions Go handles may be critical.
      assert.equal(chainsToOneOf({ raw: raw(leafOf(sslRoot, ['subjectAltName=critical,DNS:alice.example'])) }, [x509(sslRoot)]), true);
    });

    it('name constraints above a certificate with alternative names are refused (fail closed)', () => {
      const constrainedRoot = opensslCert({ commonName: 'constrained-root', ca: true, extensions: ['nameConstraints=critical,permitted;DNS:example.com'] });
      assert.equal(chainsToOneOf({ raw: raw(leafOf(constrainedRoot, ['subjectAltName=DNS:evil.org'])) }, [x509(constrainedRoot)]), false);
      assert.equal(chainsToOneOf({ raw: raw(leafOf(constrainedRoot)) }, [x509(constrainedRoot)]), true);
    });

    it('a name match is not a signature: an impostor CA of the same name, a self-signed leaf named as the CA', () => {
      const impostor = opensslCert({ commonName: 'ssl-root', ca: true });
      assert.equal(chainsToOneOf({ raw: raw(leafOf(impostor)) }, [x509(sslRoot)]), false);
      assert.equal(chainsToOneOf({ raw: raw(leafOf(impostor)), intermediates: () => [raw(impostor)] }, [x509(sslRoot)]), false);
      // A self-signed certificate with the CA's subject (and so the CA's name as its issuer).
      const selfNamed = opensslCert({ commonName: 'ssl-root', ca: false, extKeyUsage: ['clientAuth'] });
      assert.equal(chainsToOneOf({ raw: raw(selfNamed) }, [x509(sslRoot)]), false);
      // An RSA CA of the same name against the ECDSA one.
      const rsaImpostor = chainCert({ commonName: 'ssl-root', ca: true });
      assert.equal(chainsToOneOf({ raw: der(leafUnder(rsaImpostor)), intermediates: () => [der(rsaImpostor)] }, [x509(sslRoot)]), false);
    });

    it('reads the DER without throwing on garbage', () => {
      assert.equal(certificateExtensions(Buffer.from('nope')), undefined);
      assert.equal(certificateExtensions(Buffer.alloc(0)), undefined);
      const good = raw(leafOf(sslRoot));
      for (let cut = 0; cut < good.length; cut += 7) assert.equal(certificateExtensions(good.subarray(0, cut)), undefined);
      assert.deepEqual(certificateExtensions(raw(opensslCert({ commonName: 'c', ca: true, pathLen: 3 }, sslRoot))), {
        version: 3, basicConstraints: true, ca: true, maxPathLen: 3, nameConstraints: false, subjectAltName: false, unhandledCritical: [],
      });
    });
  });
});

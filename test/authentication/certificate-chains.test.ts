/**
 * chainsToOneOf (authentication/certificates.ts), Go's Verify as kube's x509 authenticators call
 * it: every link signed by the next and within its validity window (the root's too), every
 * intermediate a CA, no certificate of the chain excluding client auth, roots only from the
 * authenticator's own bundle.
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { describe, it } from 'node:test';
import { chainsToOneOf } from '../../runtime/authentication/certificates.js';
import { chainCert, type ChainCert } from '../support/cert-chain.js';

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
});

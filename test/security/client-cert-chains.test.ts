/**
 * Client certificates through an intermediate CA, over real TLS: kube (Go's Verify with the
 * certificates the client presented as intermediates) accepts leaf → intermediate → client CA,
 * and so does kgen, without letting a chain to the front-proxy CA name a user through the
 * client-CA path, and without accepting an intermediate that is no CA or that excludes client
 * auth. The request-header path accepts chains to its own CA the same way.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:tls';
import { before, describe, it } from 'node:test';
import { opensslCert, type PEMPair } from '../support/openssl-chain.js';
import { useTLSWhoServer } from '../support/tls-who.js';

describe('client certificates through intermediates (TLS server)', () => {
  const who = useTLSWhoServer('kgen-chain');
  const pki = (name: string): PEMPair => who.pki(name);
  let clientCA: PEMPair;
  let frontProxyCA: PEMPair;
  /** The SelfSubjectReview's user, or the status code when there is none; `chain` is sent after the leaf. */
  const whoAmI = (leaf: PEMPair, chain: PEMPair[], headers: Record<string, string> = {}) => who.whoAmI({ cert: [leaf, ...chain].map((c) => c.cert).join(''), key: leaf.key }, headers);

  before(() => {
    clientCA = pki('ca');
    frontProxyCA = pki('front-proxy-ca');
  });

  it('names the leaf of leaf → intermediate → client CA when the client presents the intermediate', async () => {
    const intermediate = opensslCert({ commonName: 'team-ca', ca: true }, clientCA);
    const alice = opensslCert({ commonName: 'alice', organizations: ['devs'], ca: false, extKeyUsage: ['clientAuth'] }, intermediate);
    assert.deepEqual(await whoAmI(alice, [intermediate]), { username: 'alice', groups: ['devs', 'system:authenticated'] });
    // Two intermediates deep.
    const sub = opensslCert({ commonName: 'sub-team-ca', ca: true, extKeyUsage: ['clientAuth'] }, intermediate);
    const bob = opensslCert({ commonName: 'bob', ca: false, extKeyUsage: ['clientAuth'] }, sub);
    assert.deepEqual(await whoAmI(bob, [sub, intermediate]), { username: 'bob', groups: ['system:authenticated'] });
    // Without the intermediate nothing links the leaf to the client CA.
    assert.equal(await whoAmI(alice, []), 401);
    // A serving certificate under the intermediate names no one.
    const server = opensslCert({ commonName: 'kgen-admin', organizations: ['system:masters'], ca: false, extKeyUsage: ['serverAuth'] }, intermediate);
    assert.equal(await whoAmI(server, [intermediate]), 401);
  });

  it('a chain to the front-proxy CA never names its CN through the client-CA path', async () => {
    const intermediate = opensslCert({ commonName: 'proxy-team-ca', ca: true }, frontProxyCA);
    const admin = opensslCert({ commonName: 'kgen-admin', organizations: ['system:masters'], ca: false, extKeyUsage: ['clientAuth'] }, intermediate);
    assert.equal(await whoAmI(admin, [intermediate]), 401);
    // Presenting the front-proxy CA itself as an "intermediate" does not help either.
    assert.equal(await whoAmI(admin, [intermediate, frontProxyCA]), 401);
    // It is a request-header client only with an allowed name (kube verifies that path's chains the same way).
    const proxy = opensslCert({ commonName: 'front-proxy-client', ca: false, extKeyUsage: ['clientAuth'] }, intermediate);
    assert.deepEqual(await whoAmI(proxy, [intermediate], { 'X-Remote-User': 'carol', 'X-Remote-Group': 'g1' }), { username: 'carol', groups: ['g1', 'system:authenticated'] });
    assert.equal(await whoAmI(admin, [intermediate], { 'X-Remote-User': 'carol' }), 401);
  });

  it('refuses an intermediate that is no CA or whose key usages exclude client auth', async () => {
    const notCA = opensslCert({ commonName: 'not-a-ca', ca: false, extKeyUsage: ['clientAuth'] }, clientCA);
    const underNotCA = opensslCert({ commonName: 'kgen-admin', organizations: ['system:masters'], ca: false, extKeyUsage: ['clientAuth'] }, notCA);
    assert.equal(await whoAmI(underNotCA, [notCA]), 401);
    const servingOnly = opensslCert({ commonName: 'serving-ca', ca: true, extKeyUsage: ['serverAuth'] }, clientCA);
    const underServingOnly = opensslCert({ commonName: 'kgen-admin', organizations: ['system:masters'], ca: false, extKeyUsage: ['clientAuth'] }, servingOnly);
    assert.equal(await whoAmI(underServingOnly, [servingOnly]), 401);
  });

  // kgen verifies the request-header path alone (the TLS layer's verification is not required
  // there, as kube's): what Go's Verify refuses from the certificate's DER, kgen must refuse too.
  it('the request-header path refuses a broken pathlen, an unknown critical extension and names outside constraints', async () => {
    const asProxy = { 'X-Remote-User': 'carol' };
    const proxyUnder = (issuer: PEMPair, extensions?: string[]) =>
      opensslCert({ commonName: 'front-proxy-client', ca: false, extKeyUsage: ['clientAuth'], extensions }, issuer);
    // pathlen:0 allows no CA below it; pathlen:1 allows one.
    const zero = opensslCert({ commonName: 'proxy-pathlen-0', ca: true, pathLen: 0 }, frontProxyCA);
    const belowZero = opensslCert({ commonName: 'proxy-below-0', ca: true }, zero);
    assert.equal(await whoAmI(proxyUnder(belowZero), [belowZero, zero], asProxy), 401);
    assert.deepEqual(await whoAmI(proxyUnder(zero), [zero], asProxy), { username: 'carol', groups: ['system:authenticated'] });
    const one = opensslCert({ commonName: 'proxy-pathlen-1', ca: true, pathLen: 1 }, frontProxyCA);
    const belowOne = opensslCert({ commonName: 'proxy-below-1', ca: true }, one);
    assert.deepEqual(await whoAmI(proxyUnder(belowOne), [belowOne, one], asProxy), { username: 'carol', groups: ['system:authenticated'] });
    // A critical extension Go does not know makes the leaf unusable; a non-critical one does not.
    assert.equal(await whoAmI(proxyUnder(frontProxyCA, ['1.2.3.4=critical,ASN1:NULL']), [], asProxy), 401);
    assert.deepEqual(await whoAmI(proxyUnder(frontProxyCA, ['1.2.3.4=ASN1:NULL']), [], asProxy), { username: 'carol', groups: ['system:authenticated'] });
    // Name constraints: Go checks the leaf's alternative names against them (kgen refuses any).
    const constrained = opensslCert({ commonName: 'proxy-constrained', ca: true, extensions: ['nameConstraints=critical,permitted;DNS:example.com'] }, frontProxyCA);
    assert.equal(await whoAmI(proxyUnder(constrained, ['subjectAltName=DNS:evil.org']), [constrained], asProxy), 401);
    assert.deepEqual(await whoAmI(proxyUnder(constrained), [constrained], asProxy), { username: 'carol', groups: ['system:authenticated'] });
    // The client-CA path: the TLS layer (OpenSSL) refuses these already, kgen's check too.
    const adminUnder = (issuer: PEMPair, extensions?: string[]) =>
      opensslCert({ commonName: 'kgen-admin', organizations: ['system:masters'], ca: false, extKeyUsage: ['clientAuth'], extensions }, issuer);
    const clientZero = opensslCert({ commonName: 'client-pathlen-0', ca: true, pathLen: 0 }, clientCA);
    const clientBelowZero = opensslCert({ commonName: 'client-below-0', ca: true }, clientZero);
    assert.equal(await whoAmI(adminUnder(clientBelowZero), [clientBelowZero, clientZero]), 401);
    assert.equal(await whoAmI(adminUnder(clientCA, ['1.2.3.4=critical,ASN1:NULL']), []), 401);
  });

  // A connection's client certificate is read and verified once (authentication/certificates.ts):
  // as Go's TLS server, kgen refuses renegotiation, so it cannot change under the connection.
  it('refuses TLS 1.2 renegotiation', async () => {
    const admin = pki('admin');
    const url = new URL(who.server.url);
    const socket = connect({ host: url.hostname, port: Number(url.port), ca: clientCA.cert, cert: admin.cert, key: admin.key, maxVersion: 'TLSv1.2', servername: 'localhost' });
    await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
    const outcome = await new Promise<string>((resolve) => {
      socket.once('error', (err) => resolve(`error: ${err.message}`));
      socket.once('close', () => resolve('closed'));
      const started = socket.renegotiate({ rejectUnauthorized: false }, (err) => resolve(err ? `error: ${err.message}` : 'renegotiated'));
      if (!started) resolve('not started');
      // A request on the connection makes the server read the renegotiation's handshake.
      socket.write('GET /version HTTP/1.1\r\nHost: localhost\r\n\r\n');
      socket.once('data', () => resolve('answered'));
    });
    socket.destroy();
    assert.match(outcome, /^(error: |closed)/);
  });
});

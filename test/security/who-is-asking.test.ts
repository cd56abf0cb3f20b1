/**
 * Who a request is, over real TLS (security review sec6): which client certificates name a user,
 * when X-Remote-* headers are believed, and that a failed bearer token is never anonymous. Each
 * case asks a SelfSubjectReview (who am I?) or a health path.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { newCA, newSignedCertificate, type CertificateAndKey } from '../../runtime/controlplane/certs.js';
import type { TestServer } from '../server/testserver.js';
import { useTLSWhoServer } from '../support/tls-who.js';

describe('who a request is (TLS server)', () => {
  const who = useTLSWhoServer('kgen-who');
  const { pki, whoAmI } = who;
  let t: TestServer;
  let clientCA: CertificateAndKey;
  let frontProxyCA: CertificateAndKey;
  before(() => {
    t = who.server;
    clientCA = pki('ca');
    frontProxyCA = pki('front-proxy-ca');
  });

  it('a client certificate names its CN only when the client CA signed it for client auth', async () => {
    assert.deepEqual(await whoAmI(newSignedCertificate(clientCA, { commonName: 'alice', organizations: ['devs'], usage: 'client' })), { username: 'alice', groups: ['devs', 'system:authenticated'] });
    // The front-proxy CA's certificates name no one by themselves, whatever their subject.
    assert.equal(await whoAmI(newSignedCertificate(frontProxyCA, { commonName: 'kgen-admin', organizations: ['system:masters'], usage: 'client' })), 401);
    assert.equal(await whoAmI(pki('front-proxy-client')), 401);
    // Another CA, or a serving certificate of the right CA.
    assert.equal(await whoAmI(newSignedCertificate(newCA('elsewhere'), { commonName: 'kgen-admin', organizations: ['system:masters'], usage: 'client' })), 401);
    assert.equal(await whoAmI(newSignedCertificate(clientCA, { commonName: 'kgen-admin', organizations: ['system:masters'], usage: 'server', hosts: ['localhost'] })), 401);
  });

  it('X-Remote-* name the user only from the front proxy, with an allowed name', async () => {
    const forged = { 'X-Remote-User': 'kgen-admin', 'X-Remote-Group': 'system:masters' };
    assert.deepEqual(await whoAmI(pki('front-proxy-client'), { 'X-Remote-User': 'bob', 'X-Remote-Group': 'g1' }), { username: 'bob', groups: ['g1', 'system:authenticated'] });
    assert.equal(await whoAmI(newSignedCertificate(frontProxyCA, { commonName: 'not-allowed', usage: 'client' }), forged), 401);
    assert.deepEqual(await whoAmI(newSignedCertificate(clientCA, { commonName: 'alice', usage: 'client' }), forged), { username: 'alice', groups: ['system:authenticated'] });
    assert.equal(await whoAmI({}, forged), 401);
    assert.equal(await whoAmI({ token: 'not-a-token' }, forged), 401);
  });

  it('a bearer token no one knows is a 401 on the anonymous paths too; no credentials there is anonymous', async () => {
    for (const path of ['/healthz', '/livez', '/readyz', '/version']) {
      assert.equal((await t.fetchAs({ token: 'not-a-token' })(t.url + path)).status, 401, path);
      assert.equal((await t.fetchAs({})(t.url + path)).status, 200, path);
    }
  });
});

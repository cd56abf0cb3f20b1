/** The request-header authenticator: X-Remote-* believed only from the front-proxy CA's allowed certificates. */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { describe, it } from 'node:test';
import { newAuthenticator } from '../../runtime/authentication/index.js';
import { requestHeaderAuthenticator } from '../../runtime/authentication/requestheader.js';
import type { ClientCertificate } from '../../runtime/authentication/x509.js';
import { newCA, newSignedCertificate } from '../../runtime/controlplane/certs.js';
import type { IncomingAPIRequest } from '../../runtime/server/handler.js';

const frontProxyCA = newCA('front-proxy-ca');
const clientCA = newCA('client-ca');
const proxy = newSignedCertificate(frontProxyCA, { commonName: 'front-proxy-client', usage: 'client' });
const otherProxy = newSignedCertificate(frontProxyCA, { commonName: 'someone-else', usage: 'client' });
const admin = newSignedCertificate(clientCA, { commonName: 'kgen-admin', organizations: ['system:masters'], usage: 'client' });
const serverCert = newSignedCertificate(frontProxyCA, { commonName: 'front-proxy-client', usage: 'server', hosts: ['localhost'] });

function certOf(pem: string): ClientCertificate {
  const x = new X509Certificate(pem);
  const cn = /CN=([^\n]+)/.exec(x.subject)?.[1] ?? '';
  const orgs = [...x.subject.matchAll(/O=([^\n]+)/g)].map((m) => m[1]!);
  const usage = x.keyUsage;
  return { verified: true, commonName: cn, organizations: orgs, extKeyUsage: usage, raw: x.raw };
}

function request(cert: ClientCertificate | undefined, headers: Record<string, string | string[]>): IncomingAPIRequest {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const distinct = Object.fromEntries(Object.entries(lower).map(([k, v]) => [k, Array.isArray(v) ? v : [v]]));
  return { method: 'GET', url: '/api', headers: lower, headersDistinct: distinct, signal: new AbortController().signal, clientCertificate: cert };
}

const HEADERS = {
  'X-Remote-User': 'alice',
  'X-Remote-Group': ['devs', 'ops'],
  'X-Remote-Extra-Scopes': ['a', 'b'],
  'X-Remote-Extra-Example.com%2Fteam': 'blue',
  'X-Remote-Uid': 'uid-1',
};

describe('requestheader authenticator', () => {
  const authenticator = requestHeaderAuthenticator({ clientCA: frontProxyCA.cert, allowedNames: ['front-proxy-client'] });

  it('reads user, uid, groups and extras from a front-proxy certificate, and removes the headers', async () => {
    const req = request(certOf(proxy.cert), HEADERS);
    const result = await authenticator.authenticate(req);
    assert.deepEqual(result, { user: { username: 'alice', uid: 'uid-1', groups: ['devs', 'ops'], extra: { scopes: ['a', 'b'], 'example.com/team': ['blue'] } } });
    assert.deepEqual(Object.keys(req.headers).filter((h) => h.startsWith('x-remote-')), []);
  });

  it('keeps extra keys named like Object.prototype members as data (no 500)', async () => {
    // Header names are tokens: "__proto__" and "constructor" are valid extra keys, as in kube.
    const req = request(certOf(proxy.cert), { 'X-Remote-User': 'alice', 'X-Remote-Extra-__proto__': 'p', 'X-Remote-Extra-Constructor': ['c1', 'c2'] });
    const result = await authenticator.authenticate(req);
    assert.ok(result && 'user' in result && result.user, JSON.stringify(result));
    assert.deepEqual(result.user.extra, JSON.parse('{"__proto__":["p"],"constructor":["c1","c2"]}'));
    assert.equal(Object.getPrototypeOf(result.user.extra), Object.prototype);
  });

  it('refuses certificates of another CA, names not allowed, and server-only certificates', async () => {
    assert.match(((await authenticator.authenticate(request(certOf(admin.cert), HEADERS))) as { error: string }).error, /unknown authority/);
    assert.equal(((await authenticator.authenticate(request(certOf(otherProxy.cert), HEADERS))) as { error: string }).error, 'x509: subject with cn=someone-else is not in the allowed list');
    assert.match(((await authenticator.authenticate(request(certOf(serverCert.cert), HEADERS))) as { error: string }).error, /incompatible key usage/);
    // Any name the CA signed, when no names are configured.
    const any = requestHeaderAuthenticator({ clientCA: frontProxyCA.cert });
    assert.equal(((await any.authenticate(request(certOf(otherProxy.cert), HEADERS))) as { user: { username: string } }).user.username, 'alice');
  });

  it('does not apply without a certificate or without a user header', async () => {
    assert.equal(await authenticator.authenticate(request(undefined, HEADERS)), undefined);
    assert.equal(await authenticator.authenticate(request(certOf(proxy.cert), { 'X-Remote-Group': 'devs' })), undefined);
  });

  it('honours custom header names', async () => {
    const custom = requestHeaderAuthenticator({ clientCA: frontProxyCA.cert, usernameHeaders: ['X-User'], groupHeaders: ['X-Groups'], extraHeaderPrefixes: ['X-Extra-'] });
    const result = await custom.authenticate(request(certOf(proxy.cert), { 'X-User': 'bob', 'X-Groups': 'g1', 'X-Extra-K': 'v', 'X-Remote-User': 'mallory' }));
    assert.deepEqual(result, { user: { username: 'bob', groups: ['g1'], extra: { k: ['v'] } } });
  });

  it('in the server authenticator, X-Remote-* from a client-CA certificate is ignored and x509 names the user', async () => {
    const full = newAuthenticator({ requestHeader: { clientCA: frontProxyCA.cert, allowedNames: ['front-proxy-client'], x509ClientCA: clientCA.cert } });
    const asAdmin = (await full.authenticate(request(certOf(admin.cert), HEADERS))) as { user: { username: string; groups: string[] } };
    assert.deepEqual(asAdmin.user, { username: 'kgen-admin', groups: ['system:masters', 'system:authenticated'] });
    const viaProxy = (await full.authenticate(request(certOf(proxy.cert), HEADERS))) as { user: { username: string; groups: string[] } };
    assert.equal(viaProxy.user.username, 'alice');
    assert.deepEqual(viaProxy.user.groups, ['devs', 'ops', 'system:authenticated']);
    // The front proxy's own certificate, without headers, is no user of the x509 authenticator.
    const bare = await full.authenticate(request(certOf(proxy.cert), {}));
    assert.ok(bare && 'error' in bare, JSON.stringify(bare));
  });
});

/**
 * The front-proxy credentials: made on first read without a data dir (insecure dev mode), made
 * at once under <data-dir>/pki with one; and an insecure-dev-mode server proxying to a backend
 * that requires the front-proxy client certificate, which is made when the APIService is first used.
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TLSSocket } from 'node:tls';
import { ensureFrontProxy, FRONT_PROXY_CLIENT } from '../../runtime/controlplane/front-proxy.js';
import { newCA, newSignedCertificate } from '../../runtime/controlplane/certs.js';
import { startTestServer, type TestServer } from '../server/testserver.js';

const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';

function assertClientOf(client: { cert: string }, ca: { cert: string }): void {
  const cert = new X509Certificate(client.cert);
  assert.ok(cert.verify(new X509Certificate(ca.cert).publicKey), 'the client certificate is signed by the front-proxy CA');
  assert.equal(cert.subject, `CN=${FRONT_PROXY_CLIENT}`);
  assert.deepEqual(cert.keyUsage, [CLIENT_AUTH]);
}

describe('ensureFrontProxy', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kgen-front-proxy-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('without a data dir, makes a CA and a client certificate it signed on first read, once', () => {
    const creds = ensureFrontProxy(undefined);
    assertClientOf(creds.client, creds.ca!);
    assert.equal(creds.requestHeader.clientCA, creds.ca!.cert);
    assert.deepEqual(creds.requestHeader.allowedNames, [FRONT_PROXY_CLIENT]);
    const { cert, key } = creds.client;
    assert.deepEqual([creds.client.cert, creds.client.key], [cert, key], 'later reads return the same credential');
    assert.match(key, /^-----BEGIN PRIVATE KEY-----/);
    assert.notEqual(ensureFrontProxy(undefined).ca!.cert, creds.ca!.cert, 'each server has its own');
  });

  it('with a data dir, writes both at once and loads them on the next start', () => {
    const first = ensureFrontProxy(dir);
    for (const name of ['front-proxy-ca', 'front-proxy-client']) {
      assert.ok(existsSync(join(dir, 'pki', name, 'tls.crt')), `${name}/tls.crt`);
      assert.ok(existsSync(join(dir, 'pki', name, 'tls.key')), `${name}/tls.key`);
    }
    assertClientOf(first.client, first.ca!);
    const again = ensureFrontProxy(dir);
    assert.deepEqual([again.ca!.cert, again.client.cert, again.client.key], [first.ca!.cert, first.client.cert, first.client.key]);
  });

  it('reads the files of its flags at once, with or without a data dir', () => {
    const missing = join(dir, 'missing.crt');
    assert.throws(() => ensureFrontProxy(undefined, { proxyClientCertFile: missing, proxyClientKeyFile: missing }), /cannot read --proxy-client-cert-file/);
    assert.throws(() => ensureFrontProxy(undefined, { requestheaderClientCAFile: missing }), /cannot read --requestheader-client-ca-file/);
    assert.throws(() => ensureFrontProxy(undefined, { proxyClientCertFile: missing }), /must be given together/);
  });
});

describe('an insecure-dev-mode server proxying to a backend that requires the front-proxy client certificate', () => {
  let t: TestServer;
  let backend: Server;
  const backendCA = newCA('backend-ca');

  before(async () => {
    t = await startTestServer({ aggregator: { availabilityIntervalMs: 100, discoveryTimeoutMs: 2_000 } });
    const serving = newSignedCertificate(backendCA, { commonName: 'remote', usage: 'server', hosts: ['remote.default.svc'] });
    // The backend believes only client certificates of the front server's front-proxy CA.
    backend = createServer({ ...serving, ca: t.server.frontProxy.ca!.cert, requestCert: true, rejectUnauthorized: true }, (req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/apis/remote.example.com/v1') {
        res.end(JSON.stringify({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'remote.example.com/v1', resources: [{ name: 'things', namespaced: false, kind: 'Thing', verbs: ['get', 'list'] }] }));
        return;
      }
      if (!req.url?.startsWith('/apis/remote.example.com/')) {
        res.statusCode = 404;
        res.end('{}');
        return;
      }
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      res.end(JSON.stringify({ path: req.url, user: req.headers['x-remote-user'], cn: peer.subject?.CN }));
    });
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  });

  after(async () => {
    await t?.close();
    await new Promise((resolve) => backend?.close(resolve));
  });

  it('authenticates to the backend as front-proxy-client and names the user in X-Remote-User', async () => {
    const port = (backend.address() as { port: number }).port;
    const objects = [
      ['/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'remote' }, spec: { ports: [{ name: 'https', port: 443 }] } }],
      ['/api/v1/namespaces/default/endpoints', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'remote' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port }] }] }],
      [
        '/apis/apiregistration.k8s.io/v1/apiservices',
        {
          apiVersion: 'apiregistration.k8s.io/v1',
          kind: 'APIService',
          metadata: { name: 'v1.remote.example.com' },
          spec: { group: 'remote.example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 100, caBundle: Buffer.from(backendCA.cert).toString('base64'), service: { namespace: 'default', name: 'remote' } },
        },
      ],
    ] as const;
    for (const [path, body] of objects) {
      const created = await t.request('POST', path, { body });
      assert.equal(created.status, 201, created.text);
    }
    const deadline = Date.now() + 10_000;
    let res = await t.request('GET', '/apis/remote.example.com/v1/things');
    while (res.status === 503 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      res = await t.request('GET', '/apis/remote.example.com/v1/things');
    }
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { path: '/apis/remote.example.com/v1/things', user: 'kgen-dev', cn: FRONT_PROXY_CLIENT });
    const apiService = await t.request('GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1.remote.example.com');
    const available = apiService.body.status.conditions.find((c: { type: string }) => c.type === 'Available');
    assert.deepEqual([available.status, available.reason], ['True', 'Passed']);
  });
});

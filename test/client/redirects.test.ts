/**
 * The Node transport follows redirects as client-go's http.Client does (Go's redirectBehavior: a
 * 301/302/303 turns a write into a GET without its body, a 307/308 repeats it with its body; at
 * most 10 requests, then `stopped after 10 redirects`; a 3xx without Location is the answer),
 * and is stricter than client-go with credentials: client-go's bearer round tripper puts the
 * token back on every hop, to any host; here a hop to another origin (host, port or scheme, so an
 * https → http downgrade too) carries no Authorization or Cookie and presents no client
 * certificate.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { RestClient } from '@kgen/client';
import { newCA, newSignedCertificate } from '../../runtime/controlplane/certs.js';
import { startStub, type Stub } from './stub-server.js';

const TOKEN = 'redirect-secret-token-5e0c2b7a91d4';
const OK = '{"kind":"Status","apiVersion":"v1","status":"Success"}';

describe('the Node transport and redirects', () => {
  const stubs: Stub[] = [];
  const servers: Server[] = [];
  after(async () => {
    await Promise.all(stubs.map((s) => s.close()));
    for (const s of servers) {
      s.closeAllConnections();
      s.close();
    }
  });

  const stub = async (handler: Parameters<typeof startStub>[0]) => {
    const s = await startStub(handler);
    stubs.push(s);
    return s;
  };
  const client = (server: string) => new RestClient({ server, token: TOKEN, qps: 0, maxRetries: 0 });

  it('follows a redirect on the same server with the token', async () => {
    const s = await stub((req, res) => {
      if (req.path === '/api/v1/namespaces') res.writeHead(302, { Location: '/api/v1/namespaces-moved' }).end();
      else res.writeHead(200, { 'Content-Type': 'application/json' }).end(OK);
    });
    const result = await client(s.url).request({ method: 'GET', path: '/api/v1/namespaces' });
    assert.deepEqual(result, JSON.parse(OK));
    assert.deepEqual(
      s.requests.map((r) => [r.path, r.headers.authorization]),
      [
        ['/api/v1/namespaces', `Bearer ${TOKEN}`],
        ['/api/v1/namespaces-moved', `Bearer ${TOKEN}`],
      ],
    );
  });

  it('a 307 repeats a POST with its body; a 302 turns it into a GET without one', async () => {
    const s = await stub((req, res) => {
      if (req.path === '/a') res.writeHead(307, { Location: '/b' }).end();
      else if (req.path === '/c') res.writeHead(302, { Location: '/d' }).end();
      else res.writeHead(200, { 'Content-Type': 'application/json' }).end(OK);
    });
    await client(s.url).request({ method: 'POST', path: '/a', body: { kind: 'Thing' } });
    await client(s.url).request({ method: 'POST', path: '/c', body: { kind: 'Thing' } });
    assert.deepEqual(
      s.requests.map((r) => [r.method, r.path, r.body, r.headers['content-length'] ?? '']),
      [
        ['POST', '/a', '{"kind":"Thing"}', '16'],
        ['POST', '/b', '{"kind":"Thing"}', '16'],
        ['POST', '/c', '{"kind":"Thing"}', '16'],
        ['GET', '/d', '', ''],
      ],
    );
  });

  it('a redirect to another host is followed without the token', async () => {
    const elsewhere = await stub((_req, res) => void res.writeHead(200, { 'Content-Type': 'application/json' }).end(OK));
    const other = elsewhere.url.replace('127.0.0.1', 'localhost');
    const s = await stub((req, res) => void res.writeHead(302, { Location: `${other}${req.url}`, 'Set-Cookie': 'a=b' }).end());
    const result = await new RestClient({ server: s.url, token: TOKEN, qps: 0, maxRetries: 0 }).request({ method: 'GET', path: '/api/v1/pods', headers: { Cookie: 'session=1' } });
    assert.deepEqual(result, JSON.parse(OK));
    assert.equal(elsewhere.requests.length, 1);
    assert.equal(elsewhere.requests[0]!.headers.authorization, undefined);
    assert.equal(elsewhere.requests[0]!.headers.cookie, undefined);
    assert.equal(elsewhere.requests[0]!.path, '/api/v1/pods');
  });

  it('stops after 10 requests', async () => {
    let n = 0;
    const s = await stub((_req, res) => void res.writeHead(302, { Location: `/loop/${++n}` }).end());
    await assert.rejects(client(s.url).request({ method: 'GET', path: '/loop/0' }), /stopped after 10 redirects/);
    assert.equal(s.requests.length, 10);
  });

  it('a 3xx without Location is the answer (an error), not followed', async () => {
    const s = await stub((_req, res) => void res.writeHead(302).end());
    await assert.rejects(client(s.url).request({ method: 'GET', path: '/x' }));
    assert.equal(s.requests.length, 1);
  });

  it('presents the client certificate to the server named, not to another host', async () => {
    const ca = newCA('redirect-ca');
    const serving = newSignedCertificate(ca, { commonName: 'server', usage: 'server', hosts: ['127.0.0.1', 'localhost'] });
    const user = newSignedCertificate(ca, { commonName: 'alice', usage: 'client' });
    const seen: { host: string; cert: boolean; authorization?: string }[] = [];
    const listen = async (answer: (port: number) => [number, Record<string, string>]) => {
      const server = createServer({ cert: serving.cert, key: serving.key, ca: ca.cert, requestCert: true, rejectUnauthorized: false }, (req, res) => {
        const peer = (req.socket as import('node:tls').TLSSocket).getPeerCertificate();
        seen.push({ host: String(req.headers.host), cert: Boolean(peer && peer.subject), authorization: req.headers.authorization });
        const [code, headers] = answer((server.address() as AddressInfo).port);
        res.writeHead(code, headers).end(code === 200 ? OK : '');
      });
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return (server.address() as AddressInfo).port;
    };
    const otherPort = await listen(() => [200, { 'Content-Type': 'application/json' }]);
    const port = await listen(() => [302, { Location: `https://localhost:${otherPort}/moved` }]);
    const rest = new RestClient({ server: `https://127.0.0.1:${port}`, ca: ca.cert, cert: user.cert, key: user.key, token: TOKEN, qps: 0, maxRetries: 0 });
    assert.deepEqual(await rest.request({ method: 'GET', path: '/api' }), JSON.parse(OK));
    assert.deepEqual(seen, [
      { host: `127.0.0.1:${port}`, cert: true, authorization: `Bearer ${TOKEN}` },
      { host: `localhost:${otherPort}`, cert: false, authorization: undefined },
    ]);
  });
});

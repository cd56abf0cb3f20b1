/**
 * Upgrade requests (WebSocket here; SPDY is the same HTTP upgrade) to an aggregated API are
 * proxied as kube-aggregator proxies them (UpgradeAwareHandler): through the filter chain first,
 * so an unauthorized one is refused before any byte reaches the backend; then to the backend
 * with the user in X-Remote-User/X-Remote-Group and no client Authorization; the backend's 101
 * joins the two connections, and its refusal is relayed as it sent it. One server (HTTPS, token
 * users), one backend.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import WebSocket, { WebSocketServer } from 'ws';
import { newCA, newSignedCertificate } from '../../runtime/controlplane/certs.js';
import { startTestServer, type TestServer } from '../server/testserver.js';

const GV = '/apis/up.example.com/v1';
const ATTACH = `${GV}/namespaces/default/things/x/attach`;
const ADMIN_TOKEN = 'upgrade-admin-token-3b8e1f0c5d7a';
const NOBODY_TOKEN = 'upgrade-nobody-token-9a2c4e6f8b1d';

let backend: Server;
/** Every upgrade request the backend received. */
const upgrades: { url: string; headers: IncomingHttpHeaders }[] = [];
const wss = new WebSocketServer({ noServer: true });
let t: TestServer;
let dir: string;

before(async () => {
  const ca = newCA('up-ca');
  const serving = newSignedCertificate(ca, { commonName: 'up', usage: 'server', hosts: ['up.default.svc', '127.0.0.1'] });
  backend = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'up.example.com/v1', resources: [] }));
  });
  backend.on('upgrade', (req, socket, head) => {
    upgrades.push({ url: req.url ?? '', headers: req.headers });
    if (req.url?.includes('refuse')) {
      const body = '{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","code":403}';
      socket.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nX-Backend: up\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      return;
    }
    // An echo that answers in upper case.
    wss.handleUpgrade(req, socket, head, (ws) => ws.on('message', (data) => ws.send(String(data).toUpperCase())));
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));

  dir = mkdtempSync(join(tmpdir(), 'kgen-proxy-upgrade-'));
  const tokens = join(dir, 'tokens.csv');
  writeFileSync(tokens, `${ADMIN_TOKEN},alice,uid-alice,"system:masters,devs"\n${NOBODY_TOKEN},bob,uid-bob\n`);
  t = await startTestServer({ tls: true, dataDir: join(dir, 'data'), tokenAuthFile: tokens, aggregator: { availabilityIntervalMs: 200, discoveryTimeoutMs: 2_000 } });
  const port = (backend.address() as AddressInfo).port;
  const post = async (path: string, body: unknown) => {
    const r = await t.request('POST', path, { body });
    assert.equal(r.status, 201, r.text);
  };
  await post('/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'up' }, spec: { ports: [{ name: 'https', port: 443 }] } });
  await post('/api/v1/namespaces/default/endpoints', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'up' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port }] }] });
  await post('/apis/apiregistration.k8s.io/v1/apiservices', {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: 'v1.up.example.com' },
    spec: { group: 'up.example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 100, insecureSkipTLSVerify: true, service: { namespace: 'default', name: 'up' } },
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const r = await t.request('GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1.up.example.com');
    if (r.body?.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'Available' && c.status === 'True')) break;
    assert.ok(Date.now() < deadline, `the APIService never became Available: ${r.text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
});

after(async () => {
  await t?.close();
  wss.close();
  backend?.closeAllConnections();
  backend?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A WebSocket to the server as the token's user; resolves open, or with the refusal's status and body. */
function connect(path: string, token: string, headers: Record<string, string> = {}): Promise<{ ws?: WebSocket; status?: number; body?: string; responseHeaders?: IncomingHttpHeaders }> {
  const ca = t.server.credentials!.servingCA ?? t.server.credentials!.ca.cert;
  const ws = new WebSocket(`${t.url.replace(/^http/, 'ws')}${path}`, { ca, headers: { authorization: `Bearer ${token}`, ...headers } });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8'), responseHeaders: res.headers }));
    });
    ws.once('error', reject);
  });
}

describe('aggregator: upgrade requests', () => {
  it('an authorized upgrade reaches the backend as the user, without the client\'s credentials, and carries bytes both ways', async () => {
    const before = upgrades.length;
    const { ws, status, body } = await connect(ATTACH, ADMIN_TOKEN, { 'x-remote-user': 'mallory' });
    assert.ok(ws, `not upgraded: ${status} ${body}`);
    const reply = new Promise<string>((resolve) => ws.once('message', (data) => resolve(String(data))));
    ws.send('hello');
    assert.equal(await reply, 'HELLO');
    ws.close();
    const seen = upgrades.slice(before);
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.url, ATTACH);
    assert.equal(seen[0]!.headers['x-remote-user'], 'alice');
    assert.equal(seen[0]!.headers['x-remote-uid'], 'uid-alice');
    assert.match(String(seen[0]!.headers['x-remote-group']), /system:masters/);
    assert.equal(seen[0]!.headers.authorization, undefined);
    assert.equal(seen[0]!.headers.upgrade, 'websocket');
  });

  it('an unauthorized upgrade is refused (403) before any byte reaches the backend', async () => {
    const before = upgrades.length;
    const { ws, status, body } = await connect(ATTACH, NOBODY_TOKEN);
    assert.equal(ws, undefined);
    assert.equal(status, 403, body);
    assert.match(body!, /"reason":"Forbidden"/);
    assert.match(body!, /User \\"bob\\" cannot get resource \\"things\/attach\\" in API group \\"up\.example\.com\\"/);
    assert.equal(upgrades.length, before, 'the backend saw nothing');
  });

  it("the backend's refusal is relayed as it sent it", async () => {
    const { ws, status, body, responseHeaders } = await connect(`${GV}/namespaces/default/things/refuse/attach`, ADMIN_TOKEN);
    assert.equal(ws, undefined);
    assert.equal(status, 403);
    assert.equal(responseHeaders?.['x-backend'], 'up');
    assert.equal(body, '{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","code":403}');
  });
});

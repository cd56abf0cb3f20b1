/**
 * `/openapi/v3` for a remote APIService, as kube-aggregator's OpenAPI v3 aggregation
 * (pkg/controllers/openapiv3/aggregator: specProxier) serves it: it keeps the backend's last
 * downloaded `/openapi/v3` index, not its documents. The merged index lists the backend's own
 * serverRelativeURL; `/openapi/v3/apis/<g>/<v>` is proxied to the backend live once an index
 * listed it (so, with the backend unavailable, the proxy's 503 `service unavailable`), and before
 * any index listed it is a bare 404 (handleGroupVersion's `w.WriteHeader(404)`). The merged root
 * also takes every other path the backend's index lists (getOpenAPIV3Root merges each
 * APIService's whole index); on a collision kube's map order decides, and kgen takes the front's
 * own documents first. One server, one backend.
 */
import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { newCA, newSignedCertificate } from '../../runtime/controlplane/certs.js';
import { startTestServer, type TestServer } from '../server/testserver.js';

const KEY = 'apis/up.example.com/v1';
const BACKEND_URL = `/openapi/v3/${KEY}?hash=BACKEND0123`;
/** Another path the backend's index lists, and one it lists that the front serves itself. */
const EXTRA = 'apis/extra.example.com/v1';
const EXTRA_URL = `/openapi/v3/${EXTRA}?hash=EXTRA0123`;
const LOCAL = 'apis/widgets.example.com/v1';
const EXTRA_DOC = { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'extra' }, paths: {}, components: { schemas: {} } };
const DOC = { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'up' }, paths: { '/apis/up.example.com/v1/': {} }, components: { schemas: {} } };

let backend: Server;
/** The backend's /openapi/v3 answers 500 until set. */
let indexReady = false;
const docRequests: { url: string; headers: IncomingHttpHeaders }[] = [];
let t: TestServer;

before(async () => {
  const ca = newCA('up-ca');
  const serving = newSignedCertificate(ca, { commonName: 'up', usage: 'server', hosts: ['up.default.svc', '127.0.0.1'] });
  backend = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const json = (body: unknown, headers: Record<string, string> = {}) => void res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    if (path === '/apis/up.example.com/v1') return json({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'up.example.com/v1', resources: [] });
    if (path === '/openapi/v3') {
      const paths = { [KEY]: { serverRelativeURL: BACKEND_URL }, [EXTRA]: { serverRelativeURL: EXTRA_URL }, [LOCAL]: { serverRelativeURL: `/openapi/v3/${LOCAL}?hash=BACKENDS` } };
      return indexReady ? json({ paths }) : void res.writeHead(500).end();
    }
    if (path === `/openapi/v3/${EXTRA}`) {
      docRequests.push({ url: req.url ?? '', headers: req.headers });
      return json(EXTRA_DOC);
    }
    if (path === `/openapi/v3/${KEY}`) {
      docRequests.push({ url: req.url ?? '', headers: req.headers });
      return json(DOC, { 'cache-control': 'public, immutable', etag: '"BACKEND0123"' });
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  t = await startTestServer({ aggregator: { availabilityIntervalMs: 200, discoveryTimeoutMs: 2_000 } });
  const port = (backend.address() as AddressInfo).port;
  const post = async (path: string, body: unknown) => assert.equal((await t.request('POST', path, { body })).status, 201);
  await post('/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'up' }, spec: { ports: [{ name: 'https', port: 443 }] } });
  await post('/api/v1/namespaces/default/endpoints', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'up' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port }] }] });
  await post('/apis/apiregistration.k8s.io/v1/apiservices', {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: 'v1.up.example.com' },
    spec: { group: 'up.example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 100, insecureSkipTLSVerify: true, service: { namespace: 'default', name: 'up' } },
  });
  await until(async () => (await available()) === 'True', 'the APIService never became Available');
});

after(async () => {
  await t?.close();
  backend?.closeAllConnections();
  backend?.close();
});

async function available(): Promise<string | undefined> {
  const r = await t.request('GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1.up.example.com');
  return r.body?.status?.conditions?.find((c: { type: string }) => c.type === 'Available')?.status;
}

async function until(check: () => Promise<boolean>, message: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, message);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const listed = async () => (await t.request('GET', '/openapi/v3')).body.paths[KEY]?.serverRelativeURL as string | undefined;

describe('aggregator: OpenAPI v3 of a remote APIService', () => {
  it('before an index of the backend listed it: a bare 404, and not in the merged index', async () => {
    const res = await t.request('GET', `/openapi/v3/${KEY}`);
    assert.equal(res.status, 404);
    assert.equal(res.text, '');
    assert.equal(await listed(), undefined);
  });

  it("once listed: the backend's own URL in the index, and the document proxied from the backend", async () => {
    indexReady = true;
    await until(async () => (await listed()) !== undefined, 'never listed');
    assert.equal(await listed(), BACKEND_URL);
    const before = docRequests.length;
    const res = await t.request('GET', BACKEND_URL);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, DOC);
    assert.equal(res.headers.get('etag'), '"BACKEND0123"');
    assert.equal(docRequests.length, before + 1, 'asked of the backend, not served from a copy');
    assert.equal(docRequests.at(-1)!.url, BACKEND_URL);
    assert.equal(docRequests.at(-1)!.headers['x-remote-user'], 'kgen-dev');
  });

  it("the merged index also lists every other path the backend's index lists; the front's own documents win a collision", async () => {
    await until(async () => (await listed()) !== undefined, 'never listed');
    const paths = (await t.request('GET', '/openapi/v3')).body.paths as Record<string, { serverRelativeURL: string }>;
    assert.equal(paths[EXTRA]?.serverRelativeURL, EXTRA_URL, 'the backend\'s other path, with its URL');
    assert.match(paths[LOCAL]!.serverRelativeURL, /^\/openapi\/v3\/apis\/widgets\.example\.com\/v1\?hash=(?!BACKENDS)/, 'the front\'s own document');
    const before = docRequests.length;
    const extra = await t.request('GET', EXTRA_URL);
    assert.equal(extra.status, 200, extra.text);
    assert.deepEqual(extra.body, EXTRA_DOC);
    assert.equal(docRequests.length, before + 1, 'proxied to the backend');
    const local = await t.request('GET', paths[LOCAL]!.serverRelativeURL);
    assert.equal(local.status, 200, local.text);
    assert.equal(docRequests.length, before + 1, 'served by the front');
  });

  it('with the backend unavailable: still listed, and the proxy\'s 503 "service unavailable"', async () => {
    assert.equal((await t.request('DELETE', '/api/v1/namespaces/default/endpoints/up')).status, 200);
    await until(async () => (await available()) === 'False', 'the APIService never became unavailable');
    assert.equal(await listed(), BACKEND_URL);
    const res = await t.request('GET', BACKEND_URL);
    assert.equal(res.status, 503);
    assert.equal(res.text, 'service unavailable\n');
  });
});

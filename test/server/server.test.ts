/** Non-resource endpoints and the HTTP layer: discovery, OpenAPI, health, version, errors. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { startServer } from '../../runtime/controlplane/index.js';
import { FIXTURE_DIR, startTestServer, widget, WIDGETS, type TestServer } from './testserver.js';

const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const KUBECTL_DISCOVERY_ACCEPT = `${AGGREGATED},application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json`;
/** kgen's built-in groups, by name (the OpenAPI index order). */
const BUILTIN_GROUPS = ['admissionregistration.k8s.io', 'apiextensions.k8s.io', 'apiregistration.k8s.io', 'apps', 'authentication.k8s.io', 'authorization.k8s.io', 'coordination.k8s.io', 'events.k8s.io', 'rbac.authorization.k8s.io'];
/**
 * Discovery order: kube's group priorities (apiregistration 18000, apps 17800, events 17750, authentication
 * 17700, authorization 17600, RBAC 17000, admission and apiextensions 16700, coordination 16500,
 * by name), then the fixture's (1000).
 */
const DISCOVERY_GROUPS = [
  'apiregistration.k8s.io',
  'apps',
  'events.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'rbac.authorization.k8s.io',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'coordination.k8s.io',
  'widgets.example.com',
];

describe('API server', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it('serves legacy discovery', async () => {
    const api = await t.request('GET', '/api');
    assert.equal(api.body.kind, 'APIVersions');
    assert.deepEqual(api.body.versions, ['v1']);
    const v1 = await t.request('GET', '/api/v1');
    assert.equal(v1.body.kind, 'APIResourceList');
    assert.ok(v1.body.resources.some((r: { name: string }) => r.name === 'namespaces'));
    const apis = await t.request('GET', '/apis');
    assert.equal(apis.headers.get('content-type'), 'application/json');
    assert.equal(apis.body.kind, 'APIGroupList');
    assert.deepEqual(apis.body.groups.map((g: { name: string }) => g.name), DISCOVERY_GROUPS);
    const group = await t.request('GET', '/apis/widgets.example.com');
    assert.equal(group.body.kind, 'APIGroup');
    assert.equal(group.body.preferredVersion.version, 'v1');
    const gv = await t.request('GET', '/apis/widgets.example.com/v1');
    assert.deepEqual(gv.body.resources.map((r: { name: string }) => r.name), ['gadgets', 'widgets', 'widgets/scale', 'widgets/status']);
    assert.equal((await t.request('GET', '/apis/nope.io/v1')).status, 404);
    assert.equal((await t.request('GET', '/apis/nope.io')).status, 404);
  });

  it('serves aggregated discovery with its exact Content-Type: core for /api, the rest for /apis', async () => {
    const apis = await t.request('GET', '/apis', { accept: KUBECTL_DISCOVERY_ACCEPT });
    assert.equal(apis.headers.get('content-type'), AGGREGATED);
    assert.equal(apis.body.kind, 'APIGroupDiscoveryList');
    assert.equal(apis.body.apiVersion, 'apidiscovery.k8s.io/v2');
    assert.deepEqual(apis.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), DISCOVERY_GROUPS);
    const api = await t.request('GET', '/api', { accept: KUBECTL_DISCOVERY_ACCEPT });
    assert.equal(api.headers.get('content-type'), AGGREGATED);
    assert.deepEqual(api.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['']);
    const beta = await t.request('GET', '/apis', { accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList' });
    assert.equal(beta.body.apiVersion, 'apidiscovery.k8s.io/v2beta1');
  });

  it('serves the OpenAPI v3 index and hashed, cacheable documents', async () => {
    const index = await t.request('GET', '/openapi/v3');
    const v1 = BUILTIN_GROUPS.map((g) => `apis/${g}/v1`);
    // SelfSubjectReview is also served in v1beta1 (kubectl 1.27's `auth whoami`).
    assert.deepEqual(Object.keys(index.body.paths), ['api/v1', ...v1.slice(0, 5), 'apis/authentication.k8s.io/v1beta1', ...v1.slice(5), 'apis/widgets.example.com/v1']);
    const url: string = index.body.paths['apis/widgets.example.com/v1'].serverRelativeURL;
    const hash = /^\/openapi\/v3\/apis\/widgets\.example\.com\/v1\?hash=([0-9A-F]{128})$/.exec(url)?.[1];
    assert.ok(hash, url);
    const doc = await t.request('GET', url);
    assert.equal(doc.status, 200);
    assert.equal(doc.headers.get('etag'), `"${hash}"`);
    assert.match(doc.headers.get('cache-control') ?? '', /immutable/);
    assert.ok(doc.body.components.schemas['com.example.widgets.v1.Widget']);
    const cached = await t.request('GET', url, { headers: { 'if-none-match': `"${hash}"` } });
    assert.equal(cached.status, 304);
    const unhashed = await t.request('GET', '/openapi/v3/apis/widgets.example.com/v1');
    assert.equal(unhashed.headers.get('cache-control'), 'no-cache, private');
    const res = await fetch(`${t.url}/openapi/v3/apis/widgets.example.com/v1?hash=OLD`, { redirect: 'manual' });
    assert.equal(res.status, 301);
    assert.equal(res.headers.get('location'), url);
    assert.equal((await t.request('GET', '/openapi/v3/apis/nope/v1')).status, 404);
  });

  it('serves /openapi/v2 as JSON (protobuf: test/server/openapi-v2-proto.test.ts)', async () => {
    const v2 = await t.request('GET', '/openapi/v2', { accept: 'application/json' });
    assert.equal(v2.body.swagger, '2.0');
  });

  it('answers health checks as kube does', async () => {
    for (const path of ['/healthz', '/livez', '/readyz']) {
      const r = await t.request('GET', path);
      assert.equal(r.status, 200);
      assert.equal(r.text, 'ok');
      assert.match(r.headers.get('content-type') ?? '', /^text\/plain/);
    }
    const verbose = await t.request('GET', '/readyz?verbose');
    assert.equal(verbose.text, '[+]ping ok\n[+]log ok\n[+]storage ok\n[+]shutdown ok\nreadyz check passed\n');
    const excluded = await t.request('GET', '/healthz?verbose&exclude=storage');
    assert.match(excluded.text, /\[\+\]storage excluded: ok/);
    assert.equal((await t.request('GET', '/healthz/ping')).text, 'ok');
    assert.equal((await t.request('GET', '/healthz/nope')).status, 404);
  });

  it('reports version 1.32', async () => {
    const r = await t.request('GET', '/version?timeout=5s');
    assert.equal(r.body.major, '1');
    assert.equal(r.body.minor, '32');
    assert.match(r.body.gitVersion, /^v1\.32\.0-kgen/);
    assert.match(r.body.platform, /^\w+\/\w+$/);
  });

  it('turns every failure into a Status: unknown paths, bad bodies, large bodies, bad methods', async () => {
    const unknown = await t.request('GET', '/no/such/path');
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server could not find the requested resource',
      reason: 'NotFound',
      details: {},
      code: 404,
    });
    const malformed = await t.request('POST', WIDGETS, { body: '{"kind":' });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.reason, 'BadRequest');
    const big = await t.request('POST', WIDGETS, { body: JSON.stringify({ ...widget('big'), pad: 'x'.repeat(3 * 1024 * 1024) }) });
    assert.equal(big.status, 413);
    assert.equal(big.body.reason, 'RequestEntityTooLarge');
    assert.equal(big.body.message, 'Request entity too large: limit is 3145728');
    const post = await t.request('POST', '/apis', { body: {} });
    assert.equal(post.status, 405);
    assert.equal(post.body.kind, 'Status');
  });
});

describe('startServer', () => {
  it('writes a kubeconfig into the data dir, persists to sqlite, and closes with open watches', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kgen-serve-'));
    try {
      const s = await startServer({ generatedDir: FIXTURE_DIR, dataDir, port: 0, insecureDevMode: true });
      assert.equal(s.kubeconfigPath, join(dataDir, 'kubeconfig'));
      assert.equal(statSync(s.kubeconfigPath!).mode & 0o777, 0o600);
      const config = parse(readFileSync(s.kubeconfigPath!, 'utf8'));
      assert.equal(config['current-context'], 'kgen');
      assert.deepEqual(config.clusters, [{ name: 'kgen', cluster: { server: s.url } }]);
      assert.deepEqual(config.contexts, [{ name: 'kgen', context: { cluster: 'kgen', user: 'admin' } }]);
      assert.equal(config.users[0].name, 'admin');
      const created = await fetch(`${s.url}${WIDGETS}`, { method: 'POST', body: JSON.stringify(widget('persisted')), headers: { 'content-type': 'application/json' } });
      assert.equal(created.status, 201);
      const watch = await fetch(`${s.url}${WIDGETS}?watch=true`);
      assert.equal(watch.status, 200);
      await s.close();
      await watch.body?.cancel().catch(() => undefined);
      statSync(join(dataDir, 'kgen.db'));

      const again = await startServer({ generatedDir: FIXTURE_DIR, dataDir, port: 0, insecureDevMode: true });
      const got = await fetch(`${again.url}${WIDGETS}/persisted`);
      assert.equal(got.status, 200);
      await again.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('fails clearly when the generated directory has no index.ts', async () => {
    await assert.rejects(startServer({ generatedDir: tmpdir(), storage: 'memory:', port: 0, insecureDevMode: true }), /index\.ts not found: run `kgen generate` first/);
  });
});

/**
 * A built-in kind's resource.Quantity is decoded into Go and written back by MarshalJSON, so kube
 * stores and answers it in canonical form (apimachinery quantity.go CanonicalizeBytes): `cpu: 0.5`
 * (a JSON number) or `"0.5"` is `500m`, `"1.5Gi"` is `1536Mi`, while `1000Mi` and `1e3` (canonical
 * already: ParseQuantity keeps such text) stay. Custom resources and kgen's own kinds are
 * unstructured in kube: their quantities stay as sent.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { crdWithSpec } from '../apiextensions/chain.js';
import { startTestServer, type TestServer } from '../server/testserver.js';
import { compileSchemaValidator } from '../../runtime/validation/index.js';

const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';

const withResources = (name: string, resources: Record<string, unknown>) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx', resources }] } },
  },
});

const resourcesOf = (body: { spec: { template: { spec: { containers: { resources: unknown }[] } } } }) => body.spec.template.spec.containers[0]!.resources;

describe('a built-in kind\'s Quantity is stored and answered in canonical form', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false });
  });
  after(() => t.close());

  const canonical = {
    limits: { cpu: '500m', memory: '1536Mi', 'ephemeral-storage': '1e3' },
    requests: { cpu: '250m', memory: '1000Mi', 'ephemeral-storage': '1k' },
  };

  it('create: numbers and strings, answered and stored canonically', async () => {
    const sent = {
      limits: { cpu: 0.5, memory: '1.5Gi', 'ephemeral-storage': '1e3' },
      requests: { cpu: ' 0.25 ', memory: '1000Mi', 'ephemeral-storage': 1000 },
    };
    const created = await t.request('POST', DEPLOYMENTS, { body: withResources('q', sent) });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(resourcesOf(created.body), canonical);
    const read = await t.request('GET', `${DEPLOYMENTS}/q`);
    assert.deepEqual(resourcesOf(read.body), canonical);
  });

  it('update and merge patch: the result is canonical; an unchanged value is no change', async () => {
    const read = await t.request('GET', `${DEPLOYMENTS}/q`);
    const rv = read.body.metadata.resourceVersion;
    const generation = read.body.metadata.generation;
    const same = structuredClone(read.body);
    (same.spec.template.spec.containers[0].resources.limits as Record<string, unknown>).cpu = '0.50';
    const put = await t.request('PUT', `${DEPLOYMENTS}/q`, { body: same });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(resourcesOf(put.body), canonical);
    assert.equal(put.body.metadata.generation, generation, 'the spec did not change');
    assert.equal(put.body.metadata.resourceVersion, rv, 'a no-op update writes nothing');
    const patch = { spec: { template: { spec: { containers: [{ name: 'c', resources: { limits: { cpu: 1.5 } } }] } } } };
    const merged = await t.request('PATCH', `${DEPLOYMENTS}/q`, { body: patch, contentType: 'application/strategic-merge-patch+json' });
    assert.equal(merged.status, 200, merged.text);
    assert.equal((resourcesOf(merged.body) as { limits: { cpu: string } }).limits.cpu, '1500m');
  });

  it('a custom resource keeps its quantities as sent (kube decodes it unstructured)', async () => {
    const crd = crdWithSpec('example.com', 'racks', 'Rack', {
      cpu: { 'x-kubernetes-int-or-string': true, pattern: '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$' },
    });
    const created = await t.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd });
    assert.equal(created.status, 201, created.text);
    let r = await t.request('POST', '/apis/example.com/v1/namespaces/default/racks', { body: { apiVersion: 'example.com/v1', kind: 'Rack', metadata: { name: 'r' }, spec: { cpu: '0.5' } } });
    for (let i = 0; r.status === 404 && i < 100; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      r = await t.request('POST', '/apis/example.com/v1/namespaces/default/racks', { body: { apiVersion: 'example.com/v1', kind: 'Rack', metadata: { name: 'r' }, spec: { cpu: '0.5' } } });
    }
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.spec.cpu, '0.5');
  });

  it('only a kind compiled as one of Kubernetes\' own is written canonically (compileSchemaValidator)', () => {
    const schemas = { T: { type: 'object', properties: { q: { 'x-kubernetes-int-or-string': true, pattern: '^x$' } } } };
    const own = { q: '0.5' };
    compileSchemaValidator(schemas as never, 'T', { T: { q: 1 } }).applyDefaults(own);
    assert.equal(own.q, '0.5');
    const kube = { q: 0.5 };
    compileSchemaValidator(schemas as never, 'T', { T: { q: 1 } }, true).applyDefaults(kube);
    assert.equal(kube.q, '500m');
  });
});

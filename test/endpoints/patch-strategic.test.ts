/** Strategic merge patch: its directives on Namespace over HTTP, merge-key lists, and the scale subresource. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { strategicMergePatch } from '../../runtime/endpoints/fieldmanager/strategicmerge.js';
import { buildTypeSchema } from '../../runtime/endpoints/fieldmanager/typeschema.js';
import { startTestServer, widget, WIDGETS, type TestServer } from '../server/testserver.js';

const STRATEGIC = 'application/strategic-merge-patch+json';
const MERGE = 'application/merge-patch+json';
const NS = '/api/v1/namespaces';

describe('strategic merge patch on Namespace', () => {
  let t: TestServer;
  const smp = (name: string, body: unknown, query = '') => t.request('PATCH', `${NS}/${name}${query}`, { body, contentType: STRATEGIC });
  before(async () => {
    t = await startTestServer();
    const r = await t.request('POST', NS, {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team', labels: { a: '1', b: '2' }, annotations: { note: 'x' } }, spec: { finalizers: ['one', 'two'] } },
    });
    assert.equal(r.status, 201, r.text);
  });
  after(() => t.close());

  it('merges maps and deletes keys set to null (kubectl label/annotate)', async () => {
    const r = await smp('team', { metadata: { labels: { b: null, c: '3' }, annotations: { more: 'y' } } }, '?fieldManager=kubectl-label');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.metadata.labels, { a: '1', c: '3', 'kubernetes.io/metadata.name': 'team' });
    assert.deepEqual(r.body.metadata.annotations, { note: 'x', more: 'y' });
    const label = r.body.metadata.managedFields.find((m: { manager: string }) => m.manager === 'kubectl-label');
    assert.deepEqual(label.fieldsV1, { 'f:metadata': { 'f:annotations': { 'f:more': {} }, 'f:labels': { 'f:c': {} } } });
  });

  it('merges metadata.finalizers (patchStrategy merge, as ObjectMeta), honours $deleteFromPrimitiveList and $setElementOrder', async () => {
    const first = await smp('team', { metadata: { finalizers: ['example.com/three'] } });
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body.metadata.finalizers, ['example.com/three']);
    const merged = await smp('team', { metadata: { finalizers: ['example.com/a', 'example.com/b'] } });
    assert.deepEqual(merged.body.metadata.finalizers, ['example.com/a', 'example.com/b', 'example.com/three'], 'united, patch items first (kube mergeSortedSlice)');
    const deleted = await smp('team', {
      metadata: { '$deleteFromPrimitiveList/finalizers': ['example.com/b'], '$setElementOrder/finalizers': ['example.com/three', 'example.com/a'] },
    });
    assert.equal(deleted.status, 200, deleted.text);
    assert.deepEqual(deleted.body.metadata.finalizers, ['example.com/three', 'example.com/a']);
    const cleared = await smp('team', { metadata: { finalizers: null } });
    assert.equal(cleared.body.metadata.finalizers, undefined);
  });

  it('honours $patch: replace and $patch: delete on maps and $retainKeys', async () => {
    const replaced = await smp('team', { metadata: { annotations: { $patch: 'replace', only: 'this' } } });
    assert.equal(replaced.status, 200, replaced.text);
    assert.deepEqual(replaced.body.metadata.annotations, { only: 'this' });
    const emptied = await smp('team', { metadata: { annotations: { $patch: 'delete' } } });
    assert.deepEqual(emptied.body.metadata.annotations ?? {}, {});
    await smp('team', { metadata: { annotations: { x: '1', y: '2', z: '3' } } });
    const retained = await smp('team', { metadata: { annotations: { $retainKeys: ['x', 'w'], w: '0' } } });
    assert.equal(retained.status, 200, retained.text);
    assert.deepEqual(retained.body.metadata.annotations, { x: '1', w: '0' });
    const bad = await smp('team', { metadata: { annotations: { $patch: 'frobnicate' } } });
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /unknown patch type: frobnicate/);
  });

  it('is accepted for compiled kinds that are not built in, and on their scale subresource, as is merge patch', async () => {
    await t.request('POST', WIDGETS, { body: widget('sc') });
    const accepted = await t.request('PATCH', `${WIDGETS}/sc`, { body: { spec: { replicas: 2 } }, contentType: STRATEGIC });
    assert.equal(accepted.status, 200, accepted.text);
    assert.equal(accepted.body.spec.replicas, 2);
    const viaSMP = await t.request('PATCH', `${WIDGETS}/sc/scale`, { body: { spec: { replicas: 3 } }, contentType: STRATEGIC });
    assert.equal(viaSMP.status, 200, viaSMP.text);
    assert.equal(viaSMP.body.spec.replicas, 3);
    const viaMerge = await t.request('PATCH', `${WIDGETS}/sc/scale?fieldManager=kubectl-scale`, { body: { spec: { replicas: 4 } }, contentType: MERGE });
    assert.equal(viaMerge.status, 200, viaMerge.text);
    assert.equal(viaMerge.body.spec.replicas, 4);
    assert.equal((await t.request('GET', `${WIDGETS}/sc`)).body.spec.replicas, 4);
  });
});

describe('strategic merge patch on every compiled kind', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it('merges a user kind @kgen:listType map list by its @kgen:listMapKey, published in OpenAPI', async () => {
    const created = await t.request('POST', WIDGETS, { body: widget('ports', { replicas: 1, ports: [{ name: 'http', port: 80 }, { name: 'metrics', port: 9090 }] }) });
    assert.equal(created.status, 201, created.text);
    const r = await t.request('PATCH', `${WIDGETS}/ports`, {
      body: { spec: { ports: [{ name: 'https', port: 443 }, { name: 'http', port: 8080 }, { name: 'metrics', $patch: 'delete' }] } },
      contentType: STRATEGIC,
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.spec.ports, [{ name: 'https', port: 443 }, { name: 'http', port: 8080 }]);
    const doc = (await t.request('GET', '/openapi/v3/apis/widgets.example.com/v1')).body;
    const spec = Object.entries(doc.components.schemas).find(([k]) => k.endsWith('.WidgetSpec'))![1] as { properties: Record<string, Record<string, unknown>> };
    assert.equal(spec.properties.ports!['x-kubernetes-patch-strategy'], 'merge');
    assert.equal(spec.properties.ports!['x-kubernetes-patch-merge-key'], 'name');
    const op = doc.paths['/apis/widgets.example.com/v1/namespaces/{namespace}/widgets/{name}'].patch;
    assert.deepEqual(Object.keys(op.requestBody.content), ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml']);
  });

  it('patches RBAC kinds (kubectl patch clusterrole, set subject) and replaces their atomic lists as kube does', async () => {
    const CR = '/apis/rbac.authorization.k8s.io/v1/clusterroles';
    const CRB = '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings';
    await t.request('POST', CR, { body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'smp' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] } });
    const role = await t.request('PATCH', `${CR}/smp`, { body: { metadata: { labels: { a: 'b' } }, rules: [{ apiGroups: [''], resources: ['services'], verbs: ['list'] }] }, contentType: STRATEGIC });
    assert.equal(role.status, 200, role.text);
    assert.deepEqual(role.body.rules, [{ apiGroups: [''], resources: ['services'], verbs: ['list'] }]);
    assert.deepEqual(role.body.metadata.labels, { a: 'b' });
    await t.request('POST', CRB, { body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'smp' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'smp' } } });
    const subjects = [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }];
    const binding = await t.request('PATCH', `${CRB}/smp`, { body: { subjects }, contentType: STRATEGIC });
    assert.equal(binding.status, 200, binding.text);
    assert.deepEqual(binding.body.subjects, subjects);
  });
});

describe('strategicMergePatch with patch merge keys', () => {
  const structure = buildTypeSchema(
    {
      Pod: {
        type: 'object',
        properties: {
          containers: { type: 'array', items: { $ref: '#/components/schemas/Container' }, 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' },
          finalizers: { type: 'array', items: { type: 'string' }, 'x-kubernetes-patch-strategy': 'merge' },
          args: { type: 'array', items: { type: 'string' } },
        },
      },
      Container: {
        type: 'object',
        properties: { name: { type: 'string' }, image: { type: 'string' }, env: { type: 'object', additionalProperties: { type: 'string' } } },
      },
    },
    'Pod',
  );
  const original = {
    containers: [
      { name: 'a', image: 'a:1', env: { X: '1' } },
      { name: 'b', image: 'b:1' },
    ],
    finalizers: ['f1'],
    args: ['x', 'y'],
  };

  it('merges list items by key, deletes and replaces with item directives, unites scalar lists', () => {
    const out = strategicMergePatch(original, {
      containers: [{ name: 'a', env: { Y: '2' } }, { name: 'c', image: 'c:1' }, { name: 'b', $patch: 'delete' }],
      finalizers: ['f2', 'f1'],
      args: ['z'],
    }, structure);
    assert.deepEqual(out, {
      containers: [
        { name: 'a', image: 'a:1', env: { X: '1', Y: '2' } },
        { name: 'c', image: 'c:1' },
      ],
      finalizers: ['f2', 'f1'],
      args: ['z'],
    });
    const replaced = strategicMergePatch(original, { containers: [{ $patch: 'replace' }, { name: 'z', image: 'z' }] }, structure);
    assert.deepEqual((replaced as { containers: unknown }).containers, [{ name: 'z', image: 'z' }]);
    const ordered = strategicMergePatch(original, { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }], containers: [{ name: 'b', image: 'b:2' }] }, structure);
    assert.deepEqual((ordered as { containers: { name: string; image: string }[] }).containers.map((c) => `${c.name}=${c.image}`), ['b=b:2', 'a=a:1']);
    assert.deepEqual(original.containers[1], { name: 'b', image: 'b:1' }, 'the original is not mutated');
  });

  it('rejects merge-list items without the merge key', () => {
    assert.throws(() => strategicMergePatch(original, { containers: [{ image: 'x' }] }, structure), /does not contain declared merge key: name/);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ResourceClient, RestClient, type KubeObject, type Scale, type Status } from '@kgen/client';
import { echo, startStub, type RecordedRequest, type Stub } from './stub-server.js';

interface Widget extends KubeObject {
  spec?: { size?: number; replicas?: number };
}

const widgets = { group: 'widgets.example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true };
const gizmos = { group: 'example.com', version: 'v1alpha1', plural: 'gizmos', kind: 'Gizmo', namespaced: false };
const pods = { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true };
const nodes = { group: '', version: 'v1', plural: 'nodes', kind: 'Node', namespaced: false };

describe('ResourceClient', () => {
  let stub: Stub;
  let rest: RestClient;
  before(async () => {
    stub = await startStub(echo);
    rest = new RestClient({ server: stub.url, qps: 0 });
  });
  after(async () => {
    rest.close();
    await stub.close();
  });
  const last = (): RecordedRequest => stub.requests.at(-1)!;

  describe('URL building', () => {
    it('named group, namespaced: /apis/<g>/<v>/namespaces/<ns>/<plural>[/<name>]', async () => {
      const c = new ResourceClient<Widget>(rest, widgets, 'team-a');
      await c.list();
      assert.equal(last().path, '/apis/widgets.example.com/v1/namespaces/team-a/widgets');
      await c.get('w1');
      assert.equal(last().path, '/apis/widgets.example.com/v1/namespaces/team-a/widgets/w1');
    });

    it('named group, all namespaces: list and watch at /apis/<g>/<v>/<plural>', async () => {
      const c = new ResourceClient<Widget>(rest, widgets);
      await c.list();
      assert.equal(last().path, '/apis/widgets.example.com/v1/widgets');
      assert.throws(() => c.get('w1'), /namespaced/);
      assert.throws(() => c.deleteCollection(), /needs a namespace/);
    });

    it('named group, cluster-scoped: no namespace segment, and no namespace allowed', async () => {
      const c = new ResourceClient<Widget>(rest, gizmos);
      await c.get('g1');
      assert.equal(last().path, '/apis/example.com/v1alpha1/gizmos/g1');
      await c.create({ metadata: { name: 'g2' } });
      assert.equal(last().path, '/apis/example.com/v1alpha1/gizmos');
      assert.throws(() => new ResourceClient(rest, gizmos, 'default'), /cluster-scoped/);
    });

    it('core group: /api/v1/...', async () => {
      await new ResourceClient(rest, pods, 'kube-system').get('p1');
      assert.equal(last().path, '/api/v1/namespaces/kube-system/pods/p1');
      await new ResourceClient(rest, pods).list();
      assert.equal(last().path, '/api/v1/pods');
      await new ResourceClient(rest, nodes).get('n1');
      assert.equal(last().path, '/api/v1/nodes/n1');
    });

    it('escapes names and rejects empty ones', async () => {
      const c = new ResourceClient<Widget>(rest, widgets, 'ns');
      await c.get('a b');
      assert.equal(last().path, '/apis/widgets.example.com/v1/namespaces/ns/widgets/a%20b');
      assert.throws(() => c.get(''), /may not be empty/);
    });

    it('takes the namespace of an object when the client has none', async () => {
      const c = new ResourceClient<Widget>(rest, widgets);
      await c.create({ metadata: { name: 'w1', namespace: 'from-object' } });
      assert.equal(last().path, '/apis/widgets.example.com/v1/namespaces/from-object/widgets');
      await c.update({ metadata: { name: 'w1', namespace: 'from-object' } });
      assert.equal(last().path, '/apis/widgets.example.com/v1/namespaces/from-object/widgets/w1');
      assert.throws(() => c.create({ metadata: { name: 'w1' } }), /namespaced/);
      await c.inNamespace('other').list();
      assert.equal(last().path, '/apis/widgets.example.com/v1/namespaces/other/widgets');
    });
  });

  describe('verbs', () => {
    const c = () => new ResourceClient<Widget>(rest, widgets, 'ns');
    const base = '/apis/widgets.example.com/v1/namespaces/ns/widgets';

    it('create: POST with type meta filled in and create options as query', async () => {
      await c().create({ metadata: { name: 'w1' }, spec: { size: 1 } }, { dryRun: true, fieldManager: 'me', fieldValidation: 'Strict' });
      assert.equal(last().method, 'POST');
      assert.equal(last().url, `${base}?dryRun=All&fieldManager=me&fieldValidation=Strict`);
      assert.deepEqual(JSON.parse(last().body), { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 1 } });
    });

    it('get and list: GET with their query parameters', async () => {
      await c().get('w1', { resourceVersion: '0' });
      assert.equal(last().url, `${base}/w1?resourceVersion=0`);
      const list = await c().list({ labelSelector: 'a=b,c!=d', fieldSelector: 'metadata.name=w1', limit: 10, continue: 'tok', resourceVersion: '5', resourceVersionMatch: 'NotOlderThan' });
      assert.equal(last().method, 'GET');
      assert.equal(last().path, base);
      assert.equal(last().query.get('labelSelector'), 'a=b,c!=d');
      assert.equal(last().query.get('fieldSelector'), 'metadata.name=w1');
      assert.equal(last().query.get('limit'), '10');
      assert.equal(last().query.get('continue'), 'tok');
      assert.equal(last().query.get('resourceVersion'), '5');
      assert.equal(last().query.get('resourceVersionMatch'), 'NotOlderThan');
      assert.ok(list, 'decodes the response');
    });

    it('update and updateStatus: PUT to the object and to /status', async () => {
      const w: Widget = { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'w1', resourceVersion: '7' } };
      await c().update(w, { fieldManager: 'm' });
      assert.equal(last().method, 'PUT');
      assert.equal(last().url, `${base}/w1?fieldManager=m`);
      assert.deepEqual(JSON.parse(last().body), w);
      await c().updateStatus(w);
      assert.equal(last().url, `${base}/w1/status`);
      assert.throws(() => c().update({ metadata: {} }), /metadata.name is required/);
    });

    it('patch: content type per strategy, options as query, subresources', async () => {
      const cases = [
        ['merge', 'application/merge-patch+json'],
        ['json', 'application/json-patch+json'],
        ['apply', 'application/apply-patch+yaml'],
        ['strategic', 'application/strategic-merge-patch+json'],
      ] as const;
      for (const [type, contentType] of cases) {
        await c().patch('w1', { spec: { size: 2 } }, type);
        assert.equal(last().method, 'PATCH');
        assert.equal(last().headers['content-type'], contentType);
        assert.deepEqual(JSON.parse(last().body), { spec: { size: 2 } });
      }
      await c().patch('w1', { status: {} }, 'merge', { subresource: 'status', dryRun: true, fieldManager: 'f' });
      assert.equal(last().url, `${base}/w1/status?dryRun=All&fieldManager=f`);
      await c().patch('w1', { spec: { replicas: 3 } }, 'merge', { subresource: 'scale' });
      assert.equal(last().path, `${base}/w1/scale`);
    });

    it('mergePatch, jsonPatch and apply', async () => {
      await c().mergePatch('w1', { metadata: { labels: { a: 'b' } } });
      assert.equal(last().headers['content-type'], 'application/merge-patch+json');
      await c().jsonPatch('w1', [{ op: 'replace', path: '/spec/size', value: 3 }]);
      assert.equal(last().headers['content-type'], 'application/json-patch+json');
      assert.deepEqual(JSON.parse(last().body), [{ op: 'replace', path: '/spec/size', value: 3 }]);
      await c().apply({ metadata: { name: 'w9' }, spec: { size: 1 } }, { fieldManager: 'kgen-test', force: true });
      assert.equal(last().url, `${base}/w9?fieldManager=kgen-test&force=true`);
      assert.equal(last().headers['content-type'], 'application/apply-patch+yaml');
      assert.deepEqual(JSON.parse(last().body), { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'w9' }, spec: { size: 1 } });
      assert.throws(() => c().apply({ metadata: { name: 'w9' } }, { fieldManager: '' }), /fieldManager is required/);
    });

    it('delete: DELETE with a DeleteOptions body', async () => {
      await c().delete('w1', { propagationPolicy: 'Foreground', preconditions: { uid: 'u1', resourceVersion: '9' }, gracePeriodSeconds: 0, dryRun: true });
      assert.equal(last().method, 'DELETE');
      assert.equal(last().url, `${base}/w1`);
      assert.deepEqual(JSON.parse(last().body), {
        kind: 'DeleteOptions',
        apiVersion: 'v1',
        propagationPolicy: 'Foreground',
        preconditions: { uid: 'u1', resourceVersion: '9' },
        gracePeriodSeconds: 0,
        dryRun: ['All'],
      });
      await c().delete('w2');
      assert.deepEqual(JSON.parse(last().body), { kind: 'DeleteOptions', apiVersion: 'v1' });
    });

    it('deleteCollection: list options as query, delete options as body', async () => {
      await c().deleteCollection({ labelSelector: 'app=x', propagationPolicy: 'Background' });
      assert.equal(last().method, 'DELETE');
      assert.equal(last().url, `${base}?labelSelector=app%3Dx`);
      assert.deepEqual(JSON.parse(last().body), { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' });
    });

    it('getScale and updateScale on /scale', async () => {
      await c().getScale('w1');
      assert.equal(last().method, 'GET');
      assert.equal(last().path, `${base}/w1/scale`);
      const scale: Scale = { metadata: { name: 'w1', namespace: 'ns' }, spec: { replicas: 4 } };
      await c().updateScale('w1', scale);
      assert.equal(last().method, 'PUT');
      assert.equal(last().path, `${base}/w1/scale`);
      assert.deepEqual(JSON.parse(last().body), { apiVersion: 'autoscaling/v1', kind: 'Scale', ...scale });
    });
  });

  it('returns what the server answers, typed', async () => {
    const s = await startStub((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      if (req.method === 'DELETE') res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 }));
      else res.end(JSON.stringify({ kind: 'WidgetList', apiVersion: 'widgets.example.com/v1', metadata: { resourceVersion: '3' }, items: [{ metadata: { name: 'w1' }, spec: { size: 1 } }] }));
    });
    const r = new RestClient({ server: s.url, qps: 0 });
    const c = new ResourceClient<Widget>(r, widgets, 'ns');
    const list = await c.list();
    assert.equal(list.metadata.resourceVersion, '3');
    assert.equal(list.items[0]!.spec?.size, 1);
    const deleted = (await c.delete('w1')) as Status;
    assert.equal(deleted.status, 'Success');
    r.close();
    await s.close();
  });
});

/** The status and scale subresources. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, widget, WIDGETS, type TestServer } from '../server/testserver.js';

describe('status subresource', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    await t.request('POST', WIDGETS, { body: widget('s', { replicas: 2 }, { status: { phase: 'ignored' } }) });
  });
  after(() => t.close());

  it('drops status on create and ignores status changes through the main resource', async () => {
    const got = (await t.request('GET', `${WIDGETS}/s`)).body;
    assert.equal(got.status, undefined);
    const put = await t.request('PUT', `${WIDGETS}/s`, { body: { ...got, status: { phase: 'Up' } } });
    assert.equal(put.body.status, undefined);
  });

  it('updates only status through …/status (PUT and PATCH), without bumping generation', async () => {
    const cur = (await t.request('GET', `${WIDGETS}/s/status`)).body;
    assert.equal(cur.kind, 'Widget');
    const put = await t.request('PUT', `${WIDGETS}/s/status`, {
      body: { ...cur, spec: { replicas: 50 }, metadata: { ...cur.metadata, labels: { x: 'y' } }, status: { phase: 'Running', replicas: 2 } },
    });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body.status, { phase: 'Running', replicas: 2 });
    assert.equal(put.body.spec.replicas, 2);
    assert.equal(put.body.metadata.labels, undefined);
    assert.equal(put.body.metadata.generation, 1);
    const patch = await t.request('PATCH', `${WIDGETS}/s/status`, {
      body: { status: { conditions: [{ type: 'Ready', status: 'True' }] } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(patch.status, 200, patch.text);
    assert.deepEqual(patch.body.status.conditions, [{ type: 'Ready', status: 'True' }]);
    const invalid = await t.request('PATCH', `${WIDGETS}/s/status`, { body: { status: { replicas: 'many' } }, contentType: 'application/merge-patch+json' });
    assert.equal(invalid.status, 422);
    assert.equal(invalid.body.details.causes[0].field, 'status.replicas');
  });

  it('has no status subresource on kinds without one', async () => {
    await t.request('POST', '/apis/widgets.example.com/v1/gadgets', { body: { apiVersion: 'widgets.example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { size: 'small' } } });
    assert.equal((await t.request('GET', '/apis/widgets.example.com/v1/gadgets/g/status')).status, 404);
    assert.equal((await t.request('GET', '/apis/widgets.example.com/v1/gadgets/g/scale')).status, 404);
  });
});

describe('scale subresource', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    await t.request('POST', WIDGETS, { body: widget('sc', { replicas: 2 }) });
    await t.request('PATCH', `${WIDGETS}/sc/status`, { body: { status: { replicas: 1, selector: 'app=sc' } }, contentType: 'application/merge-patch+json' });
  });
  after(() => t.close());

  it('reads an autoscaling/v1 Scale through the declared paths', async () => {
    const r = await t.request('GET', `${WIDGETS}/sc/scale`);
    assert.equal(r.status, 200);
    assert.equal(r.body.kind, 'Scale');
    assert.equal(r.body.apiVersion, 'autoscaling/v1');
    assert.equal(r.body.metadata.name, 'sc');
    assert.equal(r.body.metadata.namespace, 'default');
    assert.deepEqual(r.body.spec, { replicas: 2 });
    assert.deepEqual(r.body.status, { replicas: 1, selector: 'app=sc' });
  });

  it('writes spec replicas with PUT (no Content-Type, as kubectl scale --current-replicas) and PATCH', async () => {
    const scale = (await t.request('GET', `${WIDGETS}/sc/scale`)).body;
    const put = await t.request('PUT', `${WIDGETS}/sc/scale`, { body: JSON.stringify({ ...scale, spec: { replicas: 4 } }), contentType: null });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.spec.replicas, 4);
    const obj = (await t.request('GET', `${WIDGETS}/sc`)).body;
    assert.equal(obj.spec.replicas, 4);
    assert.equal(obj.metadata.generation, 2);
    const stale = await t.request('PUT', `${WIDGETS}/sc/scale`, { body: { ...scale, spec: { replicas: 5 } } });
    assert.equal(stale.status, 409);
    const patch = await t.request('PATCH', `${WIDGETS}/sc/scale`, { body: { spec: { replicas: 7 } }, contentType: 'application/merge-patch+json' });
    assert.equal(patch.status, 200, patch.text);
    assert.equal(patch.body.spec.replicas, 7);
    assert.equal((await t.request('GET', `${WIDGETS}/sc`)).body.spec.replicas, 7);
  });

  it('rejects negative replicas with 422 on Scale', async () => {
    const r = await t.request('PATCH', `${WIDGETS}/sc/scale`, { body: { spec: { replicas: -1 } }, contentType: 'application/merge-patch+json' });
    assert.equal(r.status, 422);
    assert.equal(r.body.details.kind, 'Scale');
    assert.match(r.body.message, /spec\.replicas: Invalid value: -1: must be greater than or equal to 0/);
    assert.equal((await t.request('GET', `${WIDGETS}/missing/scale`)).status, 404);
  });
});

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

describe('server-side apply of a Scale (kube ScaleHandler)', () => {
  let t: TestServer;
  const APPLY = 'application/apply-patch+yaml';
  const scaleApply = (replicas?: number, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'ap' }, ...(replicas === undefined ? {} : { spec: { replicas } }), ...extra });
  const entriesOf = async () => (await t.request('GET', `${WIDGETS}/ap`)).body.metadata.managedFields as Array<Record<string, unknown>>;
  before(async () => {
    t = await startTestServer();
    await t.request('POST', `${WIDGETS}?fieldManager=creator`, { body: widget('ap', { replicas: 2 }) });
  });
  after(() => t.close());

  it('owns replicas with subresource scale, and conflicts at the Scale path with the manager that set them', async () => {
    const conflict = await t.request('PATCH', `${WIDGETS}/ap/scale?fieldManager=hpa`, { body: scaleApply(5), contentType: APPLY });
    assert.equal(conflict.status, 409, conflict.text);
    assert.equal(conflict.body.reason, 'Conflict');
    assert.equal(conflict.body.message, 'Apply failed with 1 conflict: conflict with "creator" using widgets.example.com/v1: .spec.replicas');
    assert.deepEqual(conflict.body.details.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "creator" using widgets.example.com/v1', field: '.spec.replicas' }]);
    assert.equal((await t.request('GET', `${WIDGETS}/ap`)).body.spec.replicas, 2);

    const forced = await t.request('PATCH', `${WIDGETS}/ap/scale?fieldManager=hpa&force=true`, { body: scaleApply(5), contentType: APPLY });
    assert.equal(forced.status, 200, forced.text);
    assert.equal(forced.body.kind, 'Scale');
    assert.equal(forced.body.spec.replicas, 5);
    const obj = (await t.request('GET', `${WIDGETS}/ap`)).body;
    assert.equal(obj.spec.replicas, 5);
    const hpa = obj.metadata.managedFields.find((e: { manager: string }) => e.manager === 'hpa');
    assert.deepEqual(
      { operation: hpa.operation, apiVersion: hpa.apiVersion, subresource: hpa.subresource, fieldsV1: hpa.fieldsV1 },
      { operation: 'Apply', apiVersion: 'widgets.example.com/v1', subresource: 'scale', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
    );
    // The creator lost replicas, and only replicas (it still owns spec itself, as kube's `.`).
    const creator = obj.metadata.managedFields.find((e: { manager: string }) => e.manager === 'creator');
    assert.deepEqual(creator.fieldsV1, { 'f:spec': {} });
  });

  it('applies again without conflict, and gives replicas back to 0 once no one applies them', async () => {
    const again = await t.request('PATCH', `${WIDGETS}/ap/scale?fieldManager=hpa`, { body: scaleApply(6), contentType: APPLY });
    assert.equal(again.status, 200, again.text);
    assert.equal((await t.request('GET', `${WIDGETS}/ap`)).body.spec.replicas, 6);
    const dropped = await t.request('PATCH', `${WIDGETS}/ap/scale?fieldManager=hpa`, { body: scaleApply(), contentType: APPLY });
    assert.equal(dropped.status, 200, dropped.text);
    assert.equal(dropped.body.spec.replicas, 0);
    assert.equal((await entriesOf()).find((e) => e.manager === 'hpa'), undefined);
  });

  it('honours dryRun and a resourceVersion precondition', async () => {
    const before = (await t.request('GET', `${WIDGETS}/ap`)).body;
    const dry = await t.request('PATCH', `${WIDGETS}/ap/scale?fieldManager=hpa&dryRun=All`, { body: scaleApply(9), contentType: APPLY });
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body.spec.replicas, 9);
    assert.equal((await t.request('GET', `${WIDGETS}/ap`)).body.metadata.resourceVersion, before.metadata.resourceVersion);
    const stale = await t.request('PATCH', `${WIDGETS}/ap/scale?fieldManager=hpa`, {
      body: scaleApply(3, { metadata: { name: 'ap', resourceVersion: '1' } }),
      contentType: APPLY,
    });
    assert.equal(stale.status, 409, stale.text);
  });

  it('refuses what kube refuses: no field manager, another version or kind, unknown fields, another name, a missing object', async () => {
    const noManager = await t.request('PATCH', `${WIDGETS}/ap/scale`, { body: scaleApply(1), contentType: APPLY });
    assert.equal(noManager.status, 422);
    assert.equal(noManager.body.details.causes[0].field, 'fieldManager');
    const version = await t.request('PATCH', `${WIDGETS}/ap/scale?fieldManager=hpa`, { body: JSON.stringify({ apiVersion: 'widgets.example.com/v1', kind: 'Scale', spec: { replicas: 1 } }), contentType: APPLY });
    assert.equal(version.status, 400);
    assert.equal(version.body.message, 'Incorrect version specified in apply patch. Specified patch version: widgets.example.com/v1, expected: autoscaling/v1');
    const unknown = await t.request('PATCH', `${WIDGETS}/ap/scale?fieldManager=hpa`, { body: scaleApply(1, { spec: { replicas: 1, size: 2 } }), contentType: APPLY });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.message, /\.spec\.size: field not declared in schema/);
    const other = await t.request('PATCH', `${WIDGETS}/ap/scale?fieldManager=hpa`, { body: scaleApply(1, { metadata: { name: 'other' } }), contentType: APPLY });
    assert.equal(other.status, 400);
    assert.equal(other.body.message, 'the name of the object (other) does not match the name on the URL (ap)');
    const missing = await t.request('PATCH', `${WIDGETS}/nope/scale?fieldManager=hpa`, { body: scaleApply(1), contentType: APPLY });
    assert.equal(missing.status, 404);
    const negative = await t.request('PATCH', `${WIDGETS}/ap/scale?fieldManager=hpa&force=true`, { body: scaleApply(-1), contentType: APPLY });
    assert.equal(negative.status, 422);
    assert.equal(negative.body.details.kind, 'Scale');
  });
});

describe('server-side apply of a Scale leaves the rest of the object alone', () => {
  let t: TestServer;
  const APPLY = 'application/apply-patch+yaml';
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it('the same manager applying the object and then its Scale keeps its other fields (its entries differ by subresource)', async () => {
    const main = JSON.stringify({ apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'same', labels: { app: 'x' } }, spec: { replicas: 2, color: 'red' } });
    const created = await t.request('PATCH', `${WIDGETS}/same?fieldManager=m`, { body: main, contentType: APPLY });
    assert.equal(created.status, 201, created.text);
    const scale = JSON.stringify({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'same', labels: { other: 'y' }, annotations: { a: 'b' } }, spec: { replicas: 4 }, status: { replicas: 9 } });
    const applied = await t.request('PATCH', `${WIDGETS}/same/scale?fieldManager=m&force=true`, { body: scale, contentType: APPLY });
    assert.equal(applied.status, 200, applied.text);
    const obj = (await t.request('GET', `${WIDGETS}/same`)).body;
    assert.equal(obj.spec.replicas, 4);
    assert.equal(obj.spec.color, 'red');
    assert.deepEqual(obj.metadata.labels, { app: 'x' });
    assert.equal(obj.metadata.annotations, undefined);
    // Applying the object again without replicas leaves them to the Scale's entry.
    const again = await t.request('PATCH', `${WIDGETS}/same?fieldManager=m`, {
      body: JSON.stringify({ apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'same', labels: { app: 'x' } }, spec: { color: 'blue' } }),
      contentType: APPLY,
    });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.spec.replicas, 4);
    assert.equal(again.body.spec.color, 'blue');
  });
});

describe('server-side apply of a Scale with replicas that are not an integer', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    await t.request('POST', `${WIDGETS}?fieldManager=creator`, { body: widget('typed', { replicas: 2 }) });
  });
  after(() => t.close());

  it('is refused as a PUT of the same Scale is (422), never stored as 0', async () => {
    for (const replicas of ['3', 1.5, true, [3], -1.5]) {
      const body = JSON.stringify({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'typed' }, spec: { replicas } });
      const applied = await t.request('PATCH', `${WIDGETS}/typed/scale?fieldManager=hpa&force=true`, { body, contentType: 'application/apply-patch+yaml' });
      assert.equal(applied.status, 422, `${JSON.stringify(replicas)}: ${applied.text}`);
      assert.equal(applied.body.details.kind, 'Scale');
      assert.equal(applied.body.details.causes[0].field, 'spec.replicas');
      assert.equal((await t.request('GET', `${WIDGETS}/typed`)).body.spec.replicas, 2, JSON.stringify(replicas));
    }
  });
});

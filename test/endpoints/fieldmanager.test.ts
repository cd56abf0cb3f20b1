/** managedFields on every write: Update entries per manager, ownership moves and removals, subresources. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { managerFromUserAgent } from '../../runtime/endpoints/fieldmanager/index.js';
import { startTestServer, widget, WIDGETS, type TestServer } from '../server/testserver.js';

const MERGE = 'application/merge-patch+json';
const API = 'widgets.example.com/v1';

interface Entry {
  manager: string;
  operation: string;
  apiVersion: string;
  time?: string;
  subresource?: string;
  fieldsV1: Record<string, unknown>;
}

function entries(obj: { metadata: { managedFields?: Entry[] } }): Entry[] {
  return obj.metadata.managedFields ?? [];
}

function entry(obj: { metadata: { managedFields?: Entry[] } }, manager: string): Entry | undefined {
  return entries(obj).find((e) => e.manager === manager);
}

describe('managedFields', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it('records a create as an Update by the fieldManager, with FieldsV1 of every field it set', async () => {
    const body = widget('f1', { replicas: 2, ports: [{ name: 'http', port: 80 }], tags: ['a'] }, { metadata: { labels: { app: 'f' } } });
    const r = await t.request('POST', `${WIDGETS}?fieldManager=kubectl-create`, { body });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(entries(r.body).map((e) => [e.manager, e.operation, e.apiVersion, e.subresource]), [['kubectl-create', 'Update', API, undefined]]);
    assert.deepEqual(entries(r.body)[0]!.fieldsV1, {
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': {
        '.': {},
        'f:ports': { '.': {}, 'k:{"name":"http"}': { '.': {}, 'f:name': {}, 'f:port': {} } },
        'f:replicas': {},
        'f:tags': { '.': {}, 'v:"a"': {} },
      },
    });
  });

  it('derives the manager from the User-Agent when no fieldManager is given', async () => {
    const r = await t.request('POST', WIDGETS, { body: widget('ua'), headers: { 'user-agent': 'kubectl/v1.32.0 (linux/amd64) kubernetes/abcdef' } });
    assert.equal(r.status, 201);
    assert.equal(entries(r.body)[0]!.manager, 'kubectl');
    assert.equal(managerFromUserAgent('my\u0007-controller/1.0'), 'my-controller');
    assert.equal(managerFromUserAgent('x'.repeat(200)).length, 128);
    assert.equal(managerFromUserAgent(undefined), '');
  });

  it('moves changed fields to the writing manager, removes deleted fields from all, merges one manager\'s updates', async () => {
    await t.request('POST', `${WIDGETS}?fieldManager=one`, { body: widget('f2', { replicas: 1, color: 'red', tags: ['a'] }) });
    const patched = await t.request('PATCH', `${WIDGETS}/f2?fieldManager=two`, { body: { spec: { replicas: 5, color: null } }, contentType: MERGE });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(entry(patched.body, 'one')!.fieldsV1, { 'f:spec': { '.': {}, 'f:tags': { '.': {}, 'v:"a"': {} } } });
    assert.deepEqual(entry(patched.body, 'two')!.fieldsV1, { 'f:spec': { 'f:replicas': {} } });
    const again = await t.request('PATCH', `${WIDGETS}/f2?fieldManager=two`, { body: { metadata: { labels: { x: 'y' } } }, contentType: MERGE });
    assert.equal(entries(again.body).filter((e) => e.manager === 'two').length, 1);
    assert.deepEqual(entry(again.body, 'two')!.fieldsV1, { 'f:metadata': { 'f:labels': { '.': {}, 'f:x': {} } }, 'f:spec': { 'f:replicas': {} } });
    const noop = await t.request('PATCH', `${WIDGETS}/f2?fieldManager=three`, { body: { spec: { replicas: 5 } }, contentType: MERGE });
    assert.equal(entry(noop.body, 'three'), undefined, 'a write that changes nothing records no manager');
  });

  it('keeps managedFields across a PUT that omits them, and lets a PUT rewrite or clear them', async () => {
    const current = (await t.request('GET', `${WIDGETS}/f2`)).body;
    const { managedFields, ...meta } = current.metadata;
    const put = await t.request('PUT', `${WIDGETS}/f2?fieldManager=putter`, { body: { ...current, metadata: meta, spec: { ...current.spec, replicas: 6 } } });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(entries(put.body).map((e) => e.manager).sort(), ['one', 'putter', 'two']);
    assert.equal(managedFields.length, 2);
    const cleared = await t.request('PATCH', `${WIDGETS}/f2`, { body: { metadata: { managedFields: [{}] } }, contentType: MERGE });
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal(cleared.body.metadata.managedFields, undefined);
  });

  it('records status and scale writes with their subresource; scale takes replicas from other managers', async () => {
    await t.request('POST', `${WIDGETS}?fieldManager=maker`, { body: widget('f3', { replicas: 1 }) });
    const status = await t.request('PATCH', `${WIDGETS}/f3/status?fieldManager=ctrl`, { body: { status: { replicas: 1, phase: 'Spinning' } }, contentType: MERGE });
    assert.equal(status.status, 200, status.text);
    const s = entry(status.body, 'ctrl')!;
    assert.equal(s.subresource, 'status');
    assert.deepEqual(s.fieldsV1, { 'f:status': { '.': {}, 'f:phase': {}, 'f:replicas': {} } });
    const scale = await t.request('PATCH', `${WIDGETS}/f3/scale?fieldManager=scaler`, { body: { spec: { replicas: 4 } }, contentType: MERGE });
    assert.equal(scale.status, 200, scale.text);
    assert.equal(scale.body.kind, 'Scale');
    assert.equal(scale.body.spec.replicas, 4);
    const obj = (await t.request('GET', `${WIDGETS}/f3`)).body;
    assert.equal(obj.spec.replicas, 4);
    const sc = entry(obj, 'scaler')!;
    assert.equal(sc.subresource, 'scale');
    assert.deepEqual(sc.fieldsV1, { 'f:spec': { 'f:replicas': {} } });
    assert.deepEqual(entry(obj, 'maker')!.fieldsV1, { 'f:spec': {} }, 'spec itself stays the creator\'s');
    const put = await t.request('PUT', `${WIDGETS}/f3/scale?fieldManager=scaler2`, {
      body: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'f3', namespace: 'default' }, spec: { replicas: 2 } },
    });
    assert.equal(put.status, 200, put.text);
    const after = (await t.request('GET', `${WIDGETS}/f3`)).body;
    assert.equal(entry(after, 'scaler'), undefined);
    assert.equal(entry(after, 'scaler2')!.subresource, 'scale');
  });

  it('does not record status written through the main resource of a kind with a status subresource', async () => {
    const r = await t.request('POST', `${WIDGETS}?fieldManager=maker`, { body: widget('f4', { replicas: 1 }, { status: { phase: 'Pending' } }) });
    assert.equal(r.body.status, undefined);
    assert.equal(entry(r.body, 'maker')!.fieldsV1['f:status'], undefined);
  });

  it('rejects an overlong fieldManager with 422', async () => {
    const r = await t.request('POST', `${WIDGETS}?fieldManager=${'m'.repeat(129)}`, { body: widget('f5') });
    assert.equal(r.status, 422);
    assert.equal(r.body.message, 'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes');
  });
});

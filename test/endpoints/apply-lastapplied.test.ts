/**
 * Client-side apply upgrading to server-side apply, as kube's lastAppliedManager and
 * lastAppliedUpdater: `kubectl` (and only that manager) takes over fields whose live values still
 * match the last-applied-configuration annotation instead of conflicting, conflicts on other
 * fields remain, and its applies keep the annotation current.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, WIDGETS, type TestServer } from '../server/testserver.js';

const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';
const API = 'widgets.example.com/v1';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

const config = (name: string, spec: Record<string, unknown>) => ({ apiVersion: API, kind: 'Widget', metadata: { name }, spec });

describe('client-side apply, then server-side apply', () => {
  let t: TestServer;
  const apply = (name: string, body: unknown, manager: string) => t.request('PATCH', `${WIDGETS}/${name}?fieldManager=${manager}`, { body, contentType: APPLY });
  /** What `kubectl apply` (client-side) does to create: POST with the annotation, manager kubectl-client-side-apply. */
  const clientSideCreate = async (name: string, spec: Record<string, unknown>) => {
    const applied = config(name, spec);
    const body = { ...applied, metadata: { name, annotations: { [LAST_APPLIED]: JSON.stringify(applied) } } };
    const r = await t.request('POST', `${WIDGETS}?fieldManager=kubectl-client-side-apply`, { body });
    assert.equal(r.status, 201, r.text);
  };
  const owners = (obj: { metadata: { managedFields: { manager: string; fieldsV1: { 'f:spec'?: Record<string, unknown> } }[] } }) =>
    Object.fromEntries(obj.metadata.managedFields.map((m) => [m.manager, Object.keys(m.fieldsV1['f:spec'] ?? {}).sort()]));

  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it('kubectl takes over the fields client-side apply set, and rewrites the annotation', async () => {
    await clientSideCreate('up1', { replicas: 2, color: 'blue' });
    const r = await apply('up1', config('up1', { replicas: 3, color: 'blue' }), 'kubectl');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.spec.replicas, 3);
    assert.deepEqual(owners(r.body).kubectl, ['f:color', 'f:replicas']);
    assert.deepEqual(JSON.parse(r.body.metadata.annotations[LAST_APPLIED]), { apiVersion: API, kind: 'Widget', metadata: { name: 'up1' }, spec: { color: 'blue', replicas: 3 } });
  });

  it('still reports conflicts on fields that no longer match the annotation, and only those', async () => {
    await clientSideCreate('up2', { replicas: 2, color: 'blue' });
    const edited = await t.request('PATCH', `${WIDGETS}/up2?fieldManager=kubectl-edit`, { body: { spec: { color: 'red' } }, contentType: MERGE });
    assert.equal(edited.status, 200, edited.text);
    const r = await apply('up2', config('up2', { replicas: 3, color: 'green' }), 'kubectl');
    assert.equal(r.status, 409, r.text);
    assert.deepEqual(r.body.details.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-edit" using widgets.example.com/v1', field: '.spec.color' }]);
  });

  it('does not upgrade for other managers, and leaves their annotation alone', async () => {
    await clientSideCreate('up3', { replicas: 2, color: 'blue' });
    const r = await apply('up3', config('up3', { replicas: 3, color: 'blue' }), 'helm');
    assert.equal(r.status, 409, r.text);
    assert.deepEqual(r.body.details.causes.map((c: { field: string }) => c.field), ['.spec.replicas']);
    const ok = await apply('up3', config('up3', { replicas: 2, color: 'blue' }), 'helm');
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(JSON.parse(ok.body.metadata.annotations[LAST_APPLIED]).spec, { replicas: 2, color: 'blue' });
  });

  it('without the annotation, kubectl conflicts as any manager', async () => {
    const created = await t.request('POST', `${WIDGETS}?fieldManager=kubectl-create`, { body: config('up4', { replicas: 2 }) });
    assert.equal(created.status, 201);
    const r = await apply('up4', config('up4', { replicas: 5 }), 'kubectl');
    assert.equal(r.status, 409);
    assert.equal(r.body.metadata?.annotations, undefined);
  });
});

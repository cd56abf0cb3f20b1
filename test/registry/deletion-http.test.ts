/**
 * Deletion over HTTP against the fixture server: finalizers and deletionTimestamp, DeleteOptions,
 * foreground deletion through the in-process garbage collector, namespace termination, and the
 * `namespaces/<name>/finalize` subresource.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WIDGETS, startTestServer, widget, type Reply, type TestServer } from '../server/testserver.js';
import { eventually } from '../controllers/helpers.js';

const JSON_PATCH = 'application/json-patch+json';

function status(reply: Reply, code: number, reason: string, message?: RegExp): void {
  assert.equal(reply.status, code, reply.text);
  assert.equal(reply.body?.kind, 'Status');
  assert.equal(reply.body?.reason, reason);
  if (message) assert.match(reply.body?.message ?? '', message);
}

describe('deletion over HTTP', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  const gone = (path: string) => eventually(async () => (await t.request('GET', path)).status === 404, `${path} to be gone`);

  it('keeps an object with finalizers Terminating until a patch removes the last one', async () => {
    await t.request('POST', WIDGETS, { body: widget('fin', { replicas: 1 }, { metadata: { finalizers: ['example.com/hold'] } }) });
    const del = await t.request('DELETE', `${WIDGETS}/fin`);
    assert.equal(del.status, 200);
    assert.equal(del.body.kind, 'Widget');
    assert.match(del.body.metadata.deletionTimestamp, /Z$/);
    assert.equal(del.body.metadata.deletionGracePeriodSeconds, 0);
    const got = await t.request('GET', `${WIDGETS}/fin`);
    assert.equal(got.body.metadata.deletionTimestamp, del.body.metadata.deletionTimestamp);

    const again = await t.request('DELETE', `${WIDGETS}/fin`);
    assert.equal(again.status, 200);
    assert.equal(again.body.metadata.resourceVersion, del.body.metadata.resourceVersion);

    const add = await t.request('PATCH', `${WIDGETS}/fin`, {
      body: [{ op: 'add', path: '/metadata/finalizers/-', value: 'example.com/more' }],
      contentType: JSON_PATCH,
    });
    status(add, 422, 'Invalid', /metadata\.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers \[\]string\{"example\.com\/more"\}/);

    const rm = await t.request('PATCH', `${WIDGETS}/fin`, { body: [{ op: 'remove', path: '/metadata/finalizers' }], contentType: JSON_PATCH });
    assert.equal(rm.status, 200, rm.text);
    status(await t.request('GET', `${WIDGETS}/fin`), 404, 'NotFound');
  });

  it('validates DeleteOptions and honours preconditions, dryRun and orphanDependents', async () => {
    const c = (await t.request('POST', WIDGETS, { body: widget('opts', { replicas: 1 }, { metadata: { finalizers: ['example.com/hold'] } }) })).body;
    status(
      await t.request('DELETE', `${WIDGETS}/opts`, { body: { propagationPolicy: 'Sideways' } }),
      422,
      'Invalid',
      /propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"/,
    );
    status(
      await t.request('DELETE', `${WIDGETS}/opts`, { body: { propagationPolicy: 'Orphan', orphanDependents: true } }),
      422,
      'Invalid',
      /orphanDependents and deletionPropagation cannot be both set/,
    );
    status(
      await t.request('DELETE', `${WIDGETS}/opts`, { body: { preconditions: { resourceVersion: '1' } } }),
      409,
      'Conflict',
      /^Operation cannot be fulfilled on Widget\.widgets\.example\.com "opts": the ResourceVersion in the precondition \(1\) does not match/,
    );
    const dry = await t.request('DELETE', `${WIDGETS}/opts?dryRun=All`);
    assert.equal(dry.status, 200);
    assert.ok(dry.body.metadata.deletionTimestamp);
    assert.equal((await t.request('GET', `${WIDGETS}/opts`)).body.metadata.deletionTimestamp, undefined);
    // Cascading asked through the deprecated field, and the object stays: 202 Accepted, as kube answers.
    const accepted = await t.request('DELETE', `${WIDGETS}/opts?orphanDependents=false`, { body: { preconditions: { uid: c.metadata.uid } } });
    assert.equal(accepted.status, 202, accepted.text);
    assert.ok(accepted.body.metadata.deletionTimestamp);
  });

  it('Foreground deletion marks the owner, and the garbage collector deletes dependents then the owner', async () => {
    const owner = (await t.request('POST', WIDGETS, { body: widget('boss') })).body;
    const ref = { apiVersion: 'widgets.example.com/v1', kind: 'Widget', name: 'boss', uid: owner.metadata.uid, blockOwnerDeletion: true };
    await t.request('POST', WIDGETS, { body: widget('worker', { replicas: 1 }, { metadata: { ownerReferences: [ref] } }) });
    const del = await t.request('DELETE', `${WIDGETS}/boss`, { body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' } });
    assert.equal(del.status, 200);
    assert.deepEqual(del.body.metadata.finalizers, ['foregroundDeletion']);
    await gone(`${WIDGETS}/worker`);
    await gone(`${WIDGETS}/boss`);
  });

  it('terminates a namespace: Terminating, no new content (403), its objects go, then it goes', async () => {
    const ns = await t.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'doomed' } } });
    assert.deepEqual(ns.body.spec, { finalizers: ['kubernetes'] });
    const path = '/apis/widgets.example.com/v1/namespaces/doomed/widgets';
    await t.request('POST', path, { body: widget('held', { replicas: 1 }, { metadata: { finalizers: ['example.com/hold'] } }) });
    await t.request('POST', path, { body: widget('plain') });

    const del = await t.request('DELETE', '/api/v1/namespaces/doomed');
    assert.equal(del.status, 200);
    assert.equal(del.body.status.phase, 'Terminating');
    assert.ok(del.body.metadata.deletionTimestamp);

    const refused = await t.request('POST', path, { body: widget('late') });
    status(refused, 403, 'Forbidden', /^widgets\.widgets\.example\.com "late" is forbidden: unable to create new content in namespace doomed because it is being terminated$/);
    assert.deepEqual(refused.body.details.causes, [{ reason: 'NamespaceTerminating', message: 'namespace doomed is being terminated', field: 'metadata.namespace' }]);

    await gone(`${path}/plain`);
    const list = await t.request('GET', path);
    assert.deepEqual(list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['held']);
    assert.equal((await t.request('GET', '/api/v1/namespaces/doomed')).body.status.phase, 'Terminating');
    await t.request('PATCH', `${path}/held`, { body: { metadata: { finalizers: null } }, contentType: 'application/merge-patch+json' });
    await gone('/api/v1/namespaces/doomed');
  });
});

describe('namespaces/<name>/finalize', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false });
  });
  after(() => t.close());

  it('updates spec.finalizers only through finalize, and removing the last one deletes a terminating namespace', async () => {
    const created = await t.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fz' } } });
    const put = await t.request('PUT', '/api/v1/namespaces/fz', { body: { ...created.body, spec: { finalizers: [] } } });
    assert.deepEqual(put.body.spec, { finalizers: ['kubernetes'] }, 'a plain update keeps spec.finalizers');
    status(await t.request('GET', '/api/v1/namespaces/fz/finalize'), 405, 'MethodNotAllowed');

    const added = await t.request('PUT', '/api/v1/namespaces/fz/finalize', { body: { ...put.body, spec: { finalizers: ['kubernetes', 'example.com/extra'] } } });
    assert.equal(added.status, 200, added.text);
    assert.deepEqual(added.body.spec, { finalizers: ['kubernetes', 'example.com/extra'] });

    assert.equal((await t.request('DELETE', '/api/v1/namespaces/fz')).status, 200);
    const current = (await t.request('GET', '/api/v1/namespaces/fz')).body;
    const one = await t.request('PUT', '/api/v1/namespaces/fz/finalize', { body: { ...current, spec: { finalizers: ['example.com/extra'] } } });
    assert.equal(one.status, 200);
    assert.equal(one.body.status.phase, 'Terminating');
    const last = await t.request('PUT', '/api/v1/namespaces/fz/finalize', { body: { ...one.body, spec: {} } });
    assert.equal(last.status, 200, last.text);
    status(await t.request('GET', '/api/v1/namespaces/fz'), 404, 'NotFound');
  });
});

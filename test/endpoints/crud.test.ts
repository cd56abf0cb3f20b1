/** Every verb over HTTP, namespaced (Widget) and cluster-scoped (Gadget), with kube's codes and bodies. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GADGETS, gadget, startTestServer, widget, WIDGETS, type Reply, type TestServer } from '../server/testserver.js';

function assertStatus(reply: Reply, code: number, reason: string, message?: RegExp): void {
  assert.equal(reply.status, code, reply.text);
  assert.equal(reply.headers.get('content-type'), 'application/json');
  assert.equal(reply.body.kind, 'Status');
  assert.equal(reply.body.apiVersion, 'v1');
  assert.equal(reply.body.status, 'Failure');
  assert.equal(reply.body.reason, reason);
  assert.equal(reply.body.code, code);
  if (message) assert.match(reply.body.message, message);
}

describe('CRUD endpoints', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it('creates (201), gets, lists, updates and deletes a namespaced object', async () => {
    const created = await t.request('POST', WIDGETS, { body: widget('crud1', { replicas: 2 }) });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('content-type'), 'application/json');
    assert.equal(created.body.kind, 'Widget');
    assert.equal(created.body.apiVersion, 'widgets.example.com/v1');
    assert.equal(typeof created.body.metadata.resourceVersion, 'string');

    const got = await t.request('GET', `${WIDGETS}/crud1`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, created.body);

    const list = await t.request('GET', WIDGETS);
    assert.equal(list.status, 200);
    assert.equal(list.body.kind, 'WidgetList');
    assert.equal(list.body.apiVersion, 'widgets.example.com/v1');
    assert.equal(typeof list.body.metadata.resourceVersion, 'string');
    assert.ok(list.body.items.some((i: { metadata: { name: string } }) => i.metadata.name === 'crud1'));
    const allNamespaces = await t.request('GET', '/apis/widgets.example.com/v1/widgets');
    assert.equal(allNamespaces.status, 200);
    assert.ok(allNamespaces.body.items.some((i: { metadata: { name: string } }) => i.metadata.name === 'crud1'));

    const updated = await t.request('PUT', `${WIDGETS}/crud1`, { body: { ...created.body, spec: { replicas: 4 } } });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.spec.replicas, 4);
    assert.equal(updated.body.metadata.generation, 2);
    assert.notEqual(updated.body.metadata.resourceVersion, created.body.metadata.resourceVersion);

    const deleted = await t.request('DELETE', `${WIDGETS}/crud1`, { body: { propagationPolicy: 'Background' } });
    assert.equal(deleted.status, 200);
    // kube answers a deleted custom resource with a Success Status naming it.
    assert.equal(deleted.body.kind, 'Status');
    assert.equal(deleted.body.status, 'Success');
    assert.deepEqual(deleted.body.details, { name: 'crud1', group: 'widgets.example.com', kind: 'widgets', uid: created.body.metadata.uid });
    assertStatus(await t.request('GET', `${WIDGETS}/crud1`), 404, 'NotFound', /^widgets\.widgets\.example\.com "crud1" not found$/);
  });

  it('serves a cluster-scoped kind and rejects a namespace in its URL', async () => {
    const created = await t.request('POST', GADGETS, { body: gadget('g1') });
    assert.equal(created.status, 201);
    assert.equal(created.body.metadata.namespace, undefined);
    assert.equal((await t.request('GET', `${GADGETS}/g1`)).body.spec.size, 'small');
    const list = await t.request('GET', GADGETS);
    assert.equal(list.body.kind, 'GadgetList');
    const patched = await t.request('PATCH', `${GADGETS}/g1`, { body: { spec: { size: 'large' } }, contentType: 'application/merge-patch+json' });
    assert.equal(patched.body.spec.size, 'large');
    assertStatus(await t.request('GET', '/apis/widgets.example.com/v1/namespaces/default/gadgets/g1'), 404, 'NotFound');
    assertStatus(await t.request('POST', '/apis/widgets.example.com/v1/namespaces/default/gadgets', { body: gadget('g2') }), 404, 'NotFound');
    assert.equal((await t.request('DELETE', `${GADGETS}/g1`)).status, 200);
  });

  it('serves core/v1 namespaces', async () => {
    const list = await t.request('GET', '/api/v1/namespaces');
    assert.equal(list.body.kind, 'NamespaceList');
    assert.equal(list.body.apiVersion, 'v1');
    const created = await t.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } } });
    assert.equal(created.status, 201);
    assert.equal(created.body.status.phase, 'Active');
    assert.equal((await t.request('GET', '/api/v1/namespaces/team-a')).body.metadata.name, 'team-a');
    assert.equal((await t.request('GET', '/api/v1/namespaces/team-a/status')).body.metadata.name, 'team-a');
    assertStatus(await t.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'Not.A.Label' } } }), 422, 'Invalid', /metadata\.name: Invalid value: "Not\.A\.Label"/);
    assertStatus(await t.request('DELETE', '/api/v1/namespaces/kube-system'), 403, 'Forbidden');
    assert.equal((await t.request('DELETE', '/api/v1/namespaces/team-a')).status, 200);
  });

  it('pages lists with limit and continue', async () => {
    for (const n of ['p1', 'p2', 'p3']) await t.request('POST', '/apis/widgets.example.com/v1/namespaces/kube-public/widgets', { body: widget(n) });
    const first = await t.request('GET', '/apis/widgets.example.com/v1/namespaces/kube-public/widgets?limit=2');
    assert.equal(first.body.items.length, 2);
    assert.equal(typeof first.body.metadata.continue, 'string');
    const second = await t.request('GET', `/apis/widgets.example.com/v1/namespaces/kube-public/widgets?limit=2&continue=${encodeURIComponent(first.body.metadata.continue)}`);
    assert.deepEqual(second.body.items.map((i: { metadata: { name: string } }) => i.metadata.name), ['p3']);
    assert.equal(second.body.metadata.continue, undefined);
    assertStatus(await t.request('GET', `${WIDGETS}?limit=abc`), 400, 'BadRequest');
  });

  it('filters lists by labelSelector and fieldSelector and rejects bad selectors with 400', async () => {
    await t.request('POST', WIDGETS, { body: widget('sel-a', { replicas: 1, color: 'red' }, { metadata: { labels: { app: 'x', tier: 'a' } } }) });
    await t.request('POST', WIDGETS, { body: widget('sel-b', { replicas: 1, color: 'blue' }, { metadata: { labels: { app: 'x', tier: 'b' } } }) });
    const names = (r: Reply) => r.body.items.map((i: { metadata: { name: string } }) => i.metadata.name);
    assert.deepEqual(names(await t.request('GET', `${WIDGETS}?labelSelector=${encodeURIComponent('app=x,tier notin (b)')}`)), ['sel-a']);
    assert.deepEqual(names(await t.request('GET', `${WIDGETS}?fieldSelector=spec.color%3Dblue`)), ['sel-b']);
    assert.deepEqual(names(await t.request('GET', `${WIDGETS}?fieldSelector=metadata.name%3Dsel-a`)), ['sel-a']);
    assertStatus(await t.request('GET', `${WIDGETS}?labelSelector=${encodeURIComponent('app in (x')}`), 400, 'BadRequest', /unable to parse requirement/);
    assertStatus(await t.request('GET', `${WIDGETS}?fieldSelector=status.phase%3DUp`), 400, 'BadRequest', /^field label not supported: status\.phase$/);
    const gone = await t.request('DELETE', `${WIDGETS}?labelSelector=app%3Dx`);
    assert.equal(gone.status, 200);
    assert.equal(gone.body.kind, 'WidgetList');
    assert.deepEqual(names(gone), ['sel-a', 'sel-b']);
    assert.deepEqual(names(await t.request('GET', `${WIDGETS}?labelSelector=app%3Dx`)), []);
  });

  it('answers 409 on a stale resourceVersion and updates unconditionally without one', async () => {
    const c = (await t.request('POST', WIDGETS, { body: widget('occ') })).body;
    await t.request('PUT', `${WIDGETS}/occ`, { body: { ...c, spec: { replicas: 2 } } });
    const stale = await t.request('PUT', `${WIDGETS}/occ`, { body: { ...c, spec: { replicas: 3 } } });
    assertStatus(stale, 409, 'Conflict', /the object has been modified; please apply your changes to the latest version and try again/);
    assert.equal(stale.body.details.name, 'occ');
    const { resourceVersion: _rv, ...meta } = c.metadata;
    const forced = await t.request('PUT', `${WIDGETS}/occ`, { body: { ...c, metadata: meta, spec: { replicas: 3 } } });
    assert.equal(forced.status, 200);
    assert.equal(forced.body.spec.replicas, 3);
  });

  it('does not create on PUT and checks name and namespace against the URL', async () => {
    assertStatus(await t.request('PUT', `${WIDGETS}/nothere`, { body: widget('nothere') }), 404, 'NotFound');
    await t.request('POST', WIDGETS, { body: widget('named') });
    assertStatus(await t.request('PUT', `${WIDGETS}/named`, { body: widget('other') }), 400, 'BadRequest', /the name of the object \(other\) does not match the name on the URL \(named\)/);
    assertStatus(
      await t.request('POST', WIDGETS, { body: widget('nsx', { replicas: 1 }, { metadata: { namespace: 'kube-system' } }) }),
      400,
      'BadRequest',
      /the namespace of the provided object does not match the namespace sent on the request/,
    );
  });

  it('rejects creates in missing namespaces, invalid objects and bad names', async () => {
    assertStatus(
      await t.request('POST', '/apis/widgets.example.com/v1/namespaces/ghost/widgets', { body: widget('w') }),
      404,
      'NotFound',
      /^namespaces "ghost" not found$/,
    );
    const invalid = await t.request('POST', WIDGETS, { body: widget('inv', { replicas: -1, color: 'pink' }) });
    assertStatus(invalid, 422, 'Invalid', /^Widget\.widgets\.example\.com "inv" is invalid: \[/);
    assert.deepEqual(invalid.body.details.causes.map((c: { field: string }) => c.field).sort(), ['spec.color', 'spec.replicas']);
    assert.ok(invalid.body.details.causes.every((c: { reason: string }) => c.reason.startsWith('FieldValue')));
    assert.equal(invalid.body.details.kind, 'Widget');
    assert.equal(invalid.body.details.group, 'widgets.example.com');
    const badName = await t.request('POST', WIDGETS, { body: widget('Bad_Name') });
    assertStatus(badName, 422, 'Invalid', /metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of/);
    assert.equal((await t.request('POST', WIDGETS, { body: widget('dup') })).status, 201);
  });

  it('returns 409 AlreadyExists for a duplicate create', async () => {
    const again = await t.request('POST', WIDGETS, { body: widget('dup') });
    assertStatus(again, 409, 'AlreadyExists', /^widgets\.widgets\.example\.com "dup" already exists$/);
  });

  it('decodes YAML and Content-Type-less JSON and defaults apiVersion/kind from the URL', async () => {
    const yaml = 'apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata:\n  name: from-yaml\nspec:\n  replicas: 3\n';
    const y = await t.request('POST', WIDGETS, { body: yaml, contentType: 'application/yaml' });
    assert.equal(y.status, 201, y.text);
    assert.equal(y.body.spec.replicas, 3);
    const bare = await t.request('POST', WIDGETS, { body: JSON.stringify({ metadata: { name: 'bare' }, spec: { replicas: 1 } }), contentType: null });
    assert.equal(bare.status, 201, bare.text);
    assert.equal(bare.body.kind, 'Widget');
    assertStatus(
      await t.request('POST', WIDGETS, { body: { apiVersion: 'other.io/v1', kind: 'Widget', metadata: { name: 'x' }, spec: { replicas: 1 } } }),
      400,
      'BadRequest',
      /the API version in the data \(other\.io\/v1\) does not match the expected API version \(widgets\.example\.com\/v1\)/,
    );
    assertStatus(await t.request('POST', WIDGETS, { body: '[1,2]' }), 400, 'BadRequest');
    assertStatus(await t.request('POST', WIDGETS, { body: '{"metadata":' }), 400, 'BadRequest', /json parse error/);
    assertStatus(await t.request('POST', WIDGETS, { body: 'a: [', contentType: 'application/yaml' }), 400, 'BadRequest', /yaml parse error/);
    assertStatus(await t.request('POST', WIDGETS, { body: 'x', contentType: 'text/csv' }), 415, 'UnsupportedMediaType');
  });

  it('supports dryRun=All without storing anything', async () => {
    const dry = await t.request('POST', `${WIDGETS}?dryRun=All`, { body: widget('dry') });
    assert.equal(dry.status, 201);
    assert.equal(dry.body.metadata.name, 'dry');
    assertStatus(await t.request('GET', `${WIDGETS}/dry`), 404, 'NotFound');
    assertStatus(await t.request('POST', `${WIDGETS}?dryRun=Some`, { body: widget('dry') }), 422, 'Invalid', /dryRun: Unsupported value: "Some"/);
    await t.request('POST', WIDGETS, { body: widget('dry2') });
    assert.equal((await t.request('DELETE', `${WIDGETS}/dry2?dryRun=All`)).status, 200);
    assert.equal((await t.request('GET', `${WIDGETS}/dry2`)).status, 200);
  });

  it('honours DeleteOptions preconditions and validates the body', async () => {
    const c = (await t.request('POST', WIDGETS, { body: widget('pre') })).body;
    assertStatus(await t.request('DELETE', `${WIDGETS}/pre`, { body: { preconditions: { uid: 'wrong' } } }), 409, 'Conflict', /the UID in the precondition \(wrong\) does not match the UID in record/);
    assertStatus(await t.request('DELETE', `${WIDGETS}/pre`, { body: { propagationPolicy: 'Sideways' } }), 422, 'Invalid', /propagationPolicy: Unsupported value/);
    const ok = await t.request('DELETE', `${WIDGETS}/pre`, {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: c.metadata.uid, resourceVersion: c.metadata.resourceVersion } },
    });
    assert.equal(ok.status, 200);
    assertStatus(await t.request('DELETE', `${WIDGETS}/pre`), 404, 'NotFound');
  });

  it('answers routes that do not exist with 404 or 405 Status', async () => {
    assertStatus(await t.request('GET', `${WIDGETS}/x/bogus`), 404, 'NotFound', /^widgets\.widgets\.example\.com "x" not found$/);
    assertStatus(await t.request('GET', '/apis/widgets.example.com/v1/namespaces/default/sprockets'), 404, 'NotFound');
    assertStatus(await t.request('GET', '/apis/nope.io/v1/things'), 404, 'NotFound');
    assertStatus(await t.request('POST', '/apis/widgets.example.com/v1/widgets', { body: widget('x') }), 405, 'MethodNotAllowed');
    assertStatus(await t.request('POST', `${WIDGETS}/named`, { body: widget('named') }), 405, 'MethodNotAllowed');
    assertStatus(await t.request('DELETE', `${WIDGETS}/named/status`), 405, 'MethodNotAllowed');
    assertStatus(await t.request('DELETE', '/api/v1/namespaces'), 405, 'MethodNotAllowed');
  });
});

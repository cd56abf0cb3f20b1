/** Routing answers for requests no handler takes, as kube's CRD handler and installer give them. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, widget, WIDGETS, type TestServer } from '../server/testserver.js';

describe('dispatch', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t.close();
  });

  it('answers a subresource a custom kind lacks as the object not found', async () => {
    const bogus = await t.request('GET', `${WIDGETS}/w1/bogus`);
    assert.equal(bogus.status, 404);
    assert.deepEqual(bogus.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'widgets.widgets.example.com "w1" not found',
      reason: 'NotFound',
      details: { name: 'w1', group: 'widgets.example.com', kind: 'widgets' },
      code: 404,
    });
    const gadgetStatus = await t.request('GET', '/apis/widgets.example.com/v1/gadgets/g1/status');
    assert.equal(gadgetStatus.body.message, 'gadgets.widgets.example.com "g1" not found');
    // Built-in kinds have no route for it: the generic 404.
    const nsBogus = await t.request('GET', '/api/v1/namespaces/default/bogus');
    assert.equal(nsBogus.status, 404);
    assert.equal(nsBogus.body.message, 'the server could not find the requested resource');
  });

  it('does not take a field-selected name for a namespace in its own URL', async () => {
    // /api/v1/namespaces/default names a namespace; /api/v1/namespaces/default/namespaces is no route.
    const listed = await t.request('GET', '/api/v1/namespaces/default/namespaces?fieldSelector=metadata.name%3Ddefault');
    assert.equal(listed.status, 404);
    assert.equal((await t.request('GET', '/api/v1/namespaces?fieldSelector=metadata.name%3Ddefault')).body.items.length, 1);
  });

  it('answers a PUT to the collection with 400 name must be provided', async () => {
    const put = await t.request('PUT', WIDGETS, { body: widget('w1') });
    assert.equal(put.status, 400);
    assert.equal(put.body.reason, 'BadRequest');
    assert.equal(put.body.message, 'name must be provided');
  });
});

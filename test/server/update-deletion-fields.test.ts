/**
 * Over HTTP, every way of updating (PUT, merge patch, server-side apply) that sets a deletion field
 * on an object that is not being deleted is kube's 422 `field is immutable` (BeforeUpdate plus
 * ValidateObjectMetaUpdate), not a silent drop. The store's rules in detail: test/registry/store.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './testserver.js';

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

describe('an update that sets deletionTimestamp or deletionGracePeriodSeconds', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false });
  });
  after(() => t.close());

  it('is refused on PUT, merge patch and apply, naming the field', async () => {
    const created = await t.request('POST', CONFIGMAPS, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } } });
    assert.equal(created.status, 201, created.text);
    const cases: Array<[string, Promise<{ status: number; body: { message?: string } }>, string]> = [
      [
        'PUT',
        t.request('PUT', `${CONFIGMAPS}/x`, { body: { ...created.body, metadata: { ...created.body.metadata, deletionTimestamp: '2024-01-01T00:00:00.5Z' } } }),
        'ConfigMap "x" is invalid: metadata.deletionTimestamp: Invalid value: "2024-01-01T00:00:00Z": field is immutable',
      ],
      [
        'merge patch',
        t.request('PATCH', `${CONFIGMAPS}/x`, { body: { metadata: { deletionGracePeriodSeconds: 5 } }, contentType: 'application/merge-patch+json' }),
        'ConfigMap "x" is invalid: metadata.deletionGracePeriodSeconds: Invalid value: 5: field is immutable',
      ],
      [
        'apply',
        t.request('PATCH', `${CONFIGMAPS}/x?fieldManager=m`, {
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', deletionTimestamp: '2024-01-01T00:00:00Z' } },
          contentType: 'application/apply-patch+yaml',
        }),
        'ConfigMap "x" is invalid: metadata.deletionTimestamp: Invalid value: "2024-01-01T00:00:00Z": field is immutable',
      ],
    ];
    for (const [how, reply, message] of cases) {
      const r = await reply;
      assert.equal(r.status, 422, `${how}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.message, message, how);
    }
    const after = await t.request('GET', `${CONFIGMAPS}/x`);
    assert.equal(after.body.metadata.deletionTimestamp, undefined);
    assert.equal(after.body.metadata.resourceVersion, created.body.metadata.resourceVersion, 'nothing was written');
  });
});

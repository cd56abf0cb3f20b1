/**
 * A body's `metadata.labels: null` or `annotations: null` (or `{}`): kube's ObjectMeta decodes them
 * to nil or empty maps, which `omitempty` leaves out, for built-in kinds and for custom resources
 * alike (apiextensions-apiserver round-trips a custom resource's metadata through ObjectMeta:
 * objectmeta.Coerce's GetObjectMeta / SetObjectMeta). So nothing of them is stored or answered,
 * and managedFields record no `f:labels`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, WIDGETS, type TestServer } from '../server/testserver.js';

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const MERGE = 'application/merge-patch+json';

describe('metadata labels and annotations given as null', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  for (const [what, url, body] of [
    ['a ConfigMap', CONFIGMAPS, (name: string, meta: object) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...meta }, data: { a: 'b' } })],
    ['a custom resource', WIDGETS, (name: string, meta: object) => ({ apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name, ...meta }, spec: { replicas: 1 } })],
  ] as const) {
    it(`drops them from ${what} on create, update and merge patch`, async () => {
      const created = await t.request('POST', url, { body: body('n1', { labels: null, annotations: null }) });
      assert.equal(created.status, 201, created.text);
      assert.equal('labels' in created.body.metadata, false, created.text);
      assert.equal('annotations' in created.body.metadata, false, created.text);
      const fields = JSON.stringify(created.body.metadata.managedFields);
      assert.doesNotMatch(fields, /f:labels|f:annotations/);
      const got = await t.request('GET', `${url}/n1`);
      assert.equal('labels' in got.body.metadata, false, got.text);

      const live = got.body;
      live.metadata.labels = null;
      live.metadata.annotations = null;
      const updated = await t.request('PUT', `${url}/n1`, { body: live });
      assert.equal(updated.status, 200, updated.text);
      assert.equal('labels' in updated.body.metadata, false, updated.text);
      assert.equal('annotations' in updated.body.metadata, false, updated.text);

      const labelled = await t.request('PATCH', `${url}/n1`, { body: { metadata: { labels: { a: 'b' } } }, contentType: MERGE });
      assert.deepEqual(labelled.body.metadata.labels, { a: 'b' });
      const cleared = await t.request('PATCH', `${url}/n1`, { body: { metadata: { labels: { a: null } } }, contentType: MERGE });
      assert.equal(cleared.status, 200, cleared.text);
      assert.equal('labels' in cleared.body.metadata, false, cleared.text);
    });
  }
});

/**
 * A JSON patch can nest its result deeper than both the stored object and its own body (an `add`
 * at a deep path): the result is bounded as a body is (api/nesting.ts), a 422 on the field
 * `patch`. Before, such results were stored, a few more patches later the object was too deep for
 * the recursive layers and every update of it was a 500 (Maximum call stack size exceeded).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_NESTING_DEPTH } from '../../runtime/api/nesting.js';
import { startTestServer, type TestServer } from '../server/testserver.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'deeps.nest.example.com' },
  spec: {
    group: 'nest.example.com',
    scope: 'Namespaced',
    names: { plural: 'deeps', kind: 'Deep' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
};

/** `levels` schemas nested through properties.a (2 JSON levels each). */
function nested(levels: number): Record<string, unknown> {
  let v: Record<string, unknown> = { type: 'object' };
  for (let i = 0; i < levels; i++) v = { type: 'object', properties: { a: v } };
  return v;
}

describe('a JSON patch result nested too deep', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false });
  });
  after(() => t.close());

  it('is a 422 on the field patch, and the object stays patchable', async () => {
    assert.equal((await t.request('POST', CRDS, { body: crd })).status, 201);
    const patch = (body: unknown) => t.request('PATCH', `${CRDS}/${crd.metadata.name}`, { body, contentType: 'application/json-patch+json' });
    // Each patch body is ~300 levels deep (within the body limit); the second one's result is not.
    const levels = 150;
    let path = '/spec/versions/0/schema/openAPIV3Schema';
    let r = await patch([{ op: 'add', path: `${path}/properties`, value: { a: nested(levels) } }]);
    assert.equal(r.status, 200, r.text);
    path += '/properties/a'.repeat(levels + 1);
    r = await patch([{ op: 'add', path: `${path}/properties`, value: { a: nested(levels) } }]);
    assert.equal(r.status, 422, r.text);
    const message = `Invalid value: "": the patched object is nested deeper than the maximum depth of ${MAX_NESTING_DEPTH}`;
    assert.deepEqual(r.body, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Invalid', code: 422,
      message: ` "" is invalid: patch: ${message}`,
      details: { causes: [{ reason: 'FieldValueInvalid', message, field: 'patch' }] },
    });
    // `copy` doubles a subtree's depth the same way.
    r = await patch([{ op: 'copy', from: '/spec/versions/0/schema', path: `${path}/properties/b` }]);
    assert.equal(r.status, 422, r.text);
    r = await patch([{ op: 'add', path: '/metadata/labels', value: { still: 'patchable' } }]);
    assert.equal(r.status, 200, r.text);
  });
});

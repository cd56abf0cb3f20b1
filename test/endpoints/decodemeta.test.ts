/**
 * A create or update body whose metadata does not decode into metav1.ObjectMeta is kube's 400
 * (transformDecodeError around Go's JSON error), not a 422 from validation: compiled kinds decode
 * as typed objects, so Go names the field from the body's root.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectBadRequest, startTestServer, WIDGETS, type TestServer } from '../server/testserver.js';

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const cm = (metadata: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata });

describe('metadata that does not decode into ObjectMeta', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false });
  });
  after(() => t.close());

  const badRequest = (method: string, path: string, body: unknown, message: string) => expectBadRequest(t, method, path, message, body);

  const prefix = 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal';
  it('built-in kind, create: the first wrongly typed field, named from the root', async () => {
    await badRequest('POST', CONFIGMAPS, cm({ name: 'a', resourceVersion: 5 }), `${prefix} number into Go struct field ObjectMeta.metadata.resourceVersion of type string`);
    await badRequest('POST', CONFIGMAPS, cm({ name: 5 }), `${prefix} number into Go struct field ObjectMeta.metadata.name of type string`);
    await badRequest('POST', CONFIGMAPS, cm({ name: 'a', labels: 'x' }), `${prefix} string into Go struct field ObjectMeta.metadata.labels of type map[string]string`);
    await badRequest('POST', CONFIGMAPS, cm({ name: 'a', labels: { k: 1 } }), `${prefix} number into Go struct field ObjectMeta.metadata.labels of type string`);
    await badRequest('POST', CONFIGMAPS, cm({ name: 'a', generation: '1', uid: 7 }), `${prefix} string into Go struct field ObjectMeta.metadata.generation of type int64`);
    await badRequest('POST', CONFIGMAPS, cm({ name: 'a', generation: 1.5 }), `${prefix} number 1.5 into Go struct field ObjectMeta.metadata.generation of type int64`);
    await badRequest('POST', CONFIGMAPS, cm({ name: 'a', finalizers: [true] }), `${prefix} bool into Go struct field ObjectMeta.metadata.finalizers of type string`);
    await badRequest('POST', CONFIGMAPS, cm({ name: 'a', ownerReferences: 'x' }), `${prefix} string into Go struct field ObjectMeta.metadata.ownerReferences of type []v1.OwnerReference`);
    // metav1.Time's own UnmarshalJSON fails, which ends decoding; its encoding/json error is
    // sigs.k8s.io/json's type (an alias), so the decoder names it from the field.
    await badRequest('POST', CONFIGMAPS, cm({ name: 5, creationTimestamp: 5 }), `${prefix} number into Go struct field ObjectMeta.metadata.creationTimestamp of type string`);
  });

  it('nulls and correct types pass; an update is checked the same way', async () => {
    const created = await t.request('POST', CONFIGMAPS, { body: cm({ name: 'ok', labels: null, creationTimestamp: null, generation: 3 }) });
    assert.equal(created.status, 201, created.text);
    const rv = Number(created.body.metadata.resourceVersion);
    await badRequest('PUT', `${CONFIGMAPS}/ok`, cm({ name: 'ok', resourceVersion: rv }), `${prefix} number into Go struct field ObjectMeta.metadata.resourceVersion of type string`);
  });

  it('the other typed bodies too: a review kind\'s create, a TokenRequest and a Scale update', async () => {
    await badRequest(
      'POST',
      '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', metadata: { name: 5 }, spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } },
      'SelfSubjectAccessReview in version "v1" cannot be handled as a SelfSubjectAccessReview: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string',
    );
    const sa = await t.request('POST', '/api/v1/namespaces/default/serviceaccounts', { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'tk' } } });
    assert.equal(sa.status, 201, sa.text);
    await badRequest(
      'POST',
      '/api/v1/namespaces/default/serviceaccounts/tk/token',
      { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: { labels: 'x' }, spec: {} },
      'TokenRequest in version "v1" cannot be handled as a TokenRequest: json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string',
    );
    const w = await t.request('POST', WIDGETS, { body: { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'scaled' }, spec: { replicas: 1 } } });
    assert.equal(w.status, 201, w.text);
    await badRequest(
      'PUT',
      `${WIDGETS}/scaled/scale`,
      { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'scaled', namespace: 'default', resourceVersion: 5 }, spec: { replicas: 2 } },
      'Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.resourceVersion of type string',
    );
  });

  it('a compiled kind of yours decodes as a typed kind', async () => {
    const w = { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'w', resourceVersion: 5 }, spec: { replicas: 1 } };
    await badRequest('POST', WIDGETS, w, 'Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.resourceVersion of type string');
    // metav1.Time's error too is named from the field (encoding/json's error type is sigs.k8s.io/json's).
    const timed = { ...w, metadata: { name: 'w', creationTimestamp: true } };
    await badRequest('POST', WIDGETS, timed, 'Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.creationTimestamp of type string');
  });
});

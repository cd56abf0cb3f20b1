/**
 * Namespace lifecycle under a race (issue 19, sec12 area 4): writers keep creating in a namespace
 * while it is deleted. kube's NamespaceLifecycle refuses creates once the namespace terminates
 * (403 `unable to create new content in namespace … because it is being terminated`) and the
 * namespace controller removes every namespaced kind, compiled and CRD, before the namespace goes.
 * Nothing may survive into a namespace of the same name created afterwards: a RoleBinding that
 * did would hand the new namespace to the old one's users.
 *
 * Checked and found sound at 2c006bf; this file records it.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startTestServer, type TestServer } from '../server/testserver.js';

const RBAC = 'rbac.authorization.k8s.io';
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'blobs.race.example.com' },
  spec: {
    group: 'race.example.com',
    scope: 'Namespaced',
    names: { plural: 'blobs', kind: 'Blob' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
};
const NS = 'doomed';
const paths = {
  configmaps: `/api/v1/namespaces/${NS}/configmaps`,
  blobs: `/apis/race.example.com/v1/namespaces/${NS}/blobs`,
  widgets: `/apis/widgets.example.com/v1/namespaces/${NS}/widgets`,
  rolebindings: `/apis/${RBAC}/v1/namespaces/${NS}/rolebindings`,
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let t: TestServer;
before(async () => {
  t = await startTestServer();
  assert.equal((await t.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd })).status, 201);
});
after(() => t?.close());

it('creates racing a namespace deletion are refused or removed; nothing survives into a namespace of the same name', async () => {
  assert.equal((await t.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } } })).status, 201);
  for (let i = 0; ; i++) {
    const r = await t.request('POST', paths.blobs, { body: { apiVersion: 'race.example.com/v1', kind: 'Blob', metadata: { name: 'b' } } });
    if (r.status === 201) break;
    assert.ok(i < 100, r.text);
    await sleep(20);
  }
  assert.equal((await t.request('POST', paths.widgets, { body: { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: {} } })).status, 201);
  const binding = {
    apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'old-owner' },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'admin' }, subjects: [{ kind: 'User', apiGroup: RBAC, name: 'old-owner' }],
  };
  assert.equal((await t.request('POST', paths.rolebindings, { body: binding })).status, 201);

  let stop = false;
  const refusals = new Set<string>();
  const writer = async (k: number) => {
    for (let i = 0; !stop; i++) {
      const r = await t.request('POST', paths.configmaps, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${k}-${i}` } } });
      if (r.status !== 201) refusals.add(`${r.status} ${r.body.message.replace(/"c[0-9-]+"/, '"…"')}`);
    }
  };
  const writers = Array.from({ length: 4 }, (_, k) => writer(k));
  await sleep(20);
  assert.equal((await t.request('DELETE', `/api/v1/namespaces/${NS}`)).status, 200);
  for (let i = 0; (await t.request('GET', `/api/v1/namespaces/${NS}`)).status !== 404; i++) {
    assert.ok(i < 200, 'the namespace goes');
    await sleep(25);
  }
  stop = true;
  await Promise.all(writers);
  for (const refusal of refusals) {
    assert.match(refusal, /^(403 configmaps "…" is forbidden: unable to create new content in namespace doomed because it is being terminated|404 namespaces "doomed" not found)$/);
  }
  assert.equal((await t.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } } })).status, 201);
  for (const [kind, path] of Object.entries(paths)) {
    const r = await t.request('GET', path);
    assert.equal(r.status, 200, r.text);
    // A new namespace gets its own kube-root-ca.crt from the root CA publisher, if one runs.
    const names = r.body.items.map((o: { metadata: { name: string } }) => o.metadata.name).filter((n: string) => n !== 'kube-root-ca.crt');
    assert.deepEqual(names, [], `${kind} left in the new ${NS}`);
  }
});

/**
 * A CRD whose group and plural are a resource the server already serves (a built-in such as
 * rbac.authorization.k8s.io roles, or a kind compiled from apis/) never takes it over: the CRD is
 * stored but not accepted (NamesAccepted False, never Established), and the resource's own
 * handler, schema and discovery stay. kube serves the built-in too (its handlers come before the
 * CRD handler); kgen also reports the conflict on the CRD.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startChain, type Chain } from './chain.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

function crd(group: string, plural: string, kind: string) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}`, annotations: { 'api-approved.kubernetes.io': 'unapproved, a test of shadowing' } },
    spec: { group, scope: 'Namespaced', names: { plural, singular: plural.slice(0, -1), kind }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] },
  };
}

describe('a CRD shadowing a resource the server serves', () => {
  let chain: Chain;
  before(async () => {
    chain = await startChain();
    for (const [group, plural, kind] of [['rbac.authorization.k8s.io', 'roles', 'Role'], ['widgets.example.com', 'widgets', 'Widget']] as const) {
      assert.equal((await chain.request('POST', CRDS, crd(group, plural, kind))).code, 201);
    }
    await chain.settle();
  });
  after(() => chain?.close());

  it('is stored but never accepted nor established', async () => {
    for (const name of ['roles.rbac.authorization.k8s.io', 'widgets.widgets.example.com']) {
      const conditions = (await chain.request('GET', `${CRDS}/${name}`)).body.status.conditions as { type: string; status: string }[];
      assert.equal(conditions.find((c) => c.type === 'NamesAccepted')?.status, 'False', name);
      assert.equal(conditions.find((c) => c.type === 'Established')?.status, 'False', name);
    }
  });

  it('leaves the built-in handler: a Role is still pruned and validated as a Role', async () => {
    const role = await chain.request('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r1' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }], junk: { x: 1 } });
    assert.equal(role.code, 201);
    assert.equal(role.body.junk, undefined, 'pruned as a Role, not preserved as a custom resource');
    const bad = await chain.request('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r2' }, rules: [{ verbs: ['get'] }] });
    assert.equal(bad.code, 422, 'a Role rule without resources is invalid');
  });

  it('leaves the compiled kind: its schema still applies', async () => {
    const w = await chain.request('POST', '/apis/widgets.example.com/v1/namespaces/default/widgets', { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { replicas: 100000 } });
    assert.equal(w.code, 422);
    assert.match(w.body.message, /spec\.replicas in body should be less than or equal to 100/);
  });
});

/**
 * kube's API approval rule for CRDs (apiextensions validation validateAPIApproval): a CRD in a
 * protected group (k8s.io, *.k8s.io, kubernetes.io, *.kubernetes.io) needs the annotation
 * api-approved.kubernetes.io, holding the URL of its approval or a reason starting with
 * "unapproved"; an update that leaves the approval state as it was is never refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startChain, type Chain } from './chain.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const ANNOTATION = 'api-approved.kubernetes.io';
const MISSING = `metadata.annotations[${ANNOTATION}]: Required value: protected groups must have approval annotation "${ANNOTATION}", see https://github.com/kubernetes/enhancements/pull/1111`;

function crd(group: string, plural: string, annotations?: Record<string, string>) {
  const kind = plural[0]!.toUpperCase() + plural.slice(1, -1);
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}`, ...(annotations ? { annotations } : {}) },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular: plural.slice(0, -1), kind },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  };
}

describe('CRDs in protected groups need api-approved.kubernetes.io', () => {
  let chain: Chain;
  before(async () => {
    chain = await startChain();
  });
  after(() => chain?.close());

  it('refuses a CRD of k8s.io, *.k8s.io, kubernetes.io or *.kubernetes.io without the annotation', async () => {
    for (const group of ['k8s.io', 'snapshot.storage.k8s.io', 'kubernetes.io', 'x.kubernetes.io']) {
      const res = await chain.request('POST', CRDS, crd(group, 'probes'));
      assert.equal(res.code, 422, `${group}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.message, `CustomResourceDefinition.apiextensions.k8s.io "probes.${group}" is invalid: ${MISSING}`);
    }
  });

  it('refuses a value that is neither a URL nor a reason starting with "unapproved"', async () => {
    const res = await chain.request('POST', CRDS, crd('gadgets.k8s.io', 'probes', { [ANNOTATION]: 'yes please' }));
    assert.equal(res.code, 422);
    assert.equal(
      res.body.message,
      `CustomResourceDefinition.apiextensions.k8s.io "probes.gadgets.k8s.io" is invalid: metadata.annotations[${ANNOTATION}]: Invalid value: "yes please": protected groups must have approval annotation "${ANNOTATION}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
    );
  });

  it('accepts an approval URL or an "unapproved" reason; other groups need nothing', async () => {
    assert.equal((await chain.request('POST', CRDS, crd('approved.k8s.io', 'probes', { [ANNOTATION]: 'https://github.com/kubernetes/enhancements/pull/1111' }))).code, 201);
    assert.equal((await chain.request('POST', CRDS, crd('bypassed.k8s.io', 'probes', { [ANNOTATION]: 'unapproved, experimental-only' }))).code, 201);
    assert.equal((await chain.request('POST', CRDS, crd('notk8s.io.example.com', 'probes'))).code, 201);
    assert.equal((await chain.request('POST', CRDS, crd('k8s-io.example.com', 'probes'))).code, 201);
  });

  it('an update may keep the approval state, not drop the approval', async () => {
    const path = `${CRDS}/probes.approved.k8s.io`;
    const current = (await chain.request('GET', path)).body;
    current.metadata.labels = { touched: 'yes' };
    const kept = await chain.request('PUT', path, current);
    assert.equal(kept.code, 200, JSON.stringify(kept.body));
    const dropped = structuredClone(kept.body);
    delete dropped.metadata.annotations;
    const res = await chain.request('PUT', path, dropped);
    assert.equal(res.code, 422);
    assert.equal(res.body.message, `CustomResourceDefinition.apiextensions.k8s.io "probes.approved.k8s.io" is invalid: ${MISSING}`);
  });
});

/**
 * The discovery builders compiled kinds and CRDs share (runtime/endpoints/discovery): one verbs
 * definition, and kube's two orders, the installer's for Go-typed resources and apiextensions'
 * discovery controller's for custom resources.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceDefinition } from '../../../runtime/api/resource.js';
import { aggregatedResource, apiResourceEntries, resourceVerbs, storageVersionHash } from '../../../runtime/endpoints/discovery/resources.js';

function definition(overrides: Partial<ResourceDefinition> = {}): ResourceDefinition {
  return {
    group: 'gadgets.example.com',
    version: 'v1',
    kind: 'Gadget',
    listKind: 'GadgetList',
    plural: 'gadgets',
    singular: 'gadget',
    scope: 'Namespaced',
    shortNames: [],
    categories: [],
    subresources: { status: true, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' }, custom: [{ name: 'logs', verbs: ['get'] }] },
    printerColumns: [],
    selectableFields: [],
    schemaName: 'com.example.gadgets.v1.Gadget',
    storageVersion: true,
    verbs: resourceVerbs({ group: 'gadgets.example.com', kind: 'Gadget' }),
    ...overrides,
  };
}

describe('discovery builders', () => {
  it('one verbs definition: sorted for compiled kinds, the discovery controller order for CRDs', () => {
    assert.deepEqual(resourceVerbs({ group: 'g.example.com', kind: 'K' }), ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    assert.deepEqual(resourceVerbs({ group: 'g.example.com', kind: 'K', customResource: true }), ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch']);
    assert.deepEqual(resourceVerbs({ group: '', kind: 'Namespace' }), ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']);
    assert.deepEqual(resourceVerbs({ group: 'authorization.k8s.io', kind: 'SelfSubjectAccessReview', virtual: true }), ['create']);
  });

  it("lists a compiled kind's subresources sorted by path, a CRD's status then scale", () => {
    assert.deepEqual(apiResourceEntries({ definition: definition(), storageVersion: 'v1' }).map((e) => e.name), ['gadgets', 'gadgets/logs', 'gadgets/scale', 'gadgets/status']);
    const crd = definition({ customResource: true, subresources: { status: true, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } } });
    assert.deepEqual(apiResourceEntries({ definition: crd, storageVersion: 'v1' }).map((e) => e.name), ['gadgets', 'gadgets/status', 'gadgets/scale']);
    assert.deepEqual((aggregatedResource(crd).subresources as { subresource: string }[]).map((s) => s.subresource), ['status', 'scale']);
    assert.deepEqual((aggregatedResource(definition()).subresources as { subresource: string }[]).map((s) => s.subresource), ['logs', 'scale', 'status']);
  });

  it("computes kube's storage version hashes (as a cluster shows for deployments, pods, namespaces)", () => {
    assert.equal(storageVersionHash('apps', 'v1', 'Deployment'), '8aSe+NMegvE=');
    assert.equal(storageVersionHash('', 'v1', 'Pod'), 'xPOwRZ+Yhw8=');
    assert.equal(storageVersionHash('', 'v1', 'Namespace'), 'Q3oi5N2YM8M=');
  });

  it('gives the storage version hash of the storage version, and none to a virtual kind', () => {
    const [v1] = apiResourceEntries({ definition: definition({ version: 'v1' }), storageVersion: 'v2' });
    const [v2] = apiResourceEntries({ definition: definition({ version: 'v2' }), storageVersion: 'v2' });
    assert.equal(v1!.storageVersionHash, storageVersionHash('gadgets.example.com', 'v2', 'Gadget'));
    assert.equal(v1!.storageVersionHash, v2!.storageVersionHash);
    const [virtual] = apiResourceEntries({ definition: definition({ virtual: true, verbs: ['create'] }), storageVersion: 'v1' });
    assert.equal(virtual!.storageVersionHash, undefined);
  });
});

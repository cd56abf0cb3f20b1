/** Merged discovery and OpenAPI of the server chain: kube's priority order, preferred version first, live changes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MergedDiscovery } from '../../runtime/aggregator/discovery.js';
import { MergedOpenAPI } from '../../runtime/aggregator/openapi.js';
import { compareKubeAwareVersions, sortGroupVersions } from '../../runtime/server/priority.js';
import type { ServedGroupVersion } from '../../runtime/server/delegation.js';

const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

function gv(group: string, version: string, groupPriority: number, versionPriority: number, resources: string[] = ['things']): ServedGroupVersion {
  const openapi = { openapi: '3.0.0', paths: {}, components: { schemas: { [`${group}.${version}.Thing`]: { type: 'object' } } } };
  return {
    group,
    version,
    groupPriority,
    versionPriority,
    resourceList: () => ({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group ? `${group}/${version}` : version, resources: resources.map((name) => ({ name })) }),
    aggregated: () => ({ version, resources: resources.map((resource) => ({ resource })), freshness: 'Current' }),
    openapiV3: () => openapi,
  };
}

function body(response: unknown): any {
  return JSON.parse((response as { payload: string }).payload);
}

describe('kube-aware version order', () => {
  it('sorts GA before beta before alpha before other versions, higher numbers first', () => {
    const versions = ['v1alpha1', 'foo', 'v2beta1', 'v1', 'v1beta2', 'v10', 'v2', 'v1beta1', 'bar', 'v12alpha1'];
    assert.deepEqual(
      [...versions].sort((a, b) => compareKubeAwareVersions(b, a)),
      ['v10', 'v2', 'v1', 'v2beta1', 'v1beta2', 'v1beta1', 'v12alpha1', 'v1alpha1', 'bar', 'foo'],
    );
  });

  it('orders groups by priority then name, versions by priority then kube-aware version; the chain front wins a tie', () => {
    const front = gv('b.example.com', 'v1', 2000, 15, ['remote']);
    const sorted = sortGroupVersions([
      gv('', 'v1', 18000, 1),
      gv('z.example.com', 'v1', 1000, 100),
      front,
      gv('b.example.com', 'v1', 1000, 100, ['local']),
      gv('a.example.com', 'v1beta1', 1000, 100),
      gv('a.example.com', 'v1', 1000, 100),
      gv('a.example.com', 'v2alpha1', 1000, 200),
      gv('rbac.authorization.k8s.io', 'v1', 17000, 15),
    ]);
    assert.deepEqual(
      sorted.map((g) => `${g.name}:${g.versions.map((v) => v.version).join(',')}`),
      [':v1', 'rbac.authorization.k8s.io:v1', 'b.example.com:v1', 'a.example.com:v2alpha1,v1,v1beta1', 'z.example.com:v1'],
    );
    assert.equal(sorted[2]!.versions[0], front);
  });
});

describe('MergedDiscovery', () => {
  let served: ServedGroupVersion[] = [gv('', 'v1', 18000, 1, ['namespaces']), gv('b.io', 'v1', 1000, 100), gv('a.io', 'v1beta1', 1000, 100), gv('a.io', 'v1', 1000, 100)];
  const discovery = new MergedDiscovery(() => served);

  it('serves legacy discovery with the preferred version first', () => {
    assert.deepEqual(body(discovery.serve(['api'], undefined)).versions, ['v1']);
    const groups = body(discovery.serve(['apis'], 'application/json')).groups;
    assert.deepEqual(groups, [
      { name: 'a.io', versions: [{ groupVersion: 'a.io/v1', version: 'v1' }, { groupVersion: 'a.io/v1beta1', version: 'v1beta1' }], preferredVersion: { groupVersion: 'a.io/v1', version: 'v1' } },
      { name: 'b.io', versions: [{ groupVersion: 'b.io/v1', version: 'v1' }], preferredVersion: { groupVersion: 'b.io/v1', version: 'v1' } },
    ]);
    assert.equal(body(discovery.serve(['apis', 'a.io'], undefined)).kind, 'APIGroup');
    assert.equal(body(discovery.serve(['apis', 'a.io', 'v1beta1'], undefined)).groupVersion, 'a.io/v1beta1');
    assert.equal(body(discovery.serve(['api', 'v1'], undefined)).resources[0].name, 'namespaces');
    assert.equal(discovery.serve(['apis', 'nope.io'], undefined), undefined);
    assert.equal(discovery.serve(['apis', 'a.io', 'v9'], undefined), undefined);
  });

  it('serves aggregated discovery in the same order, and follows the servers live', () => {
    const response = discovery.serve(['apis'], AGGREGATED) as { contentType: string };
    assert.equal(response.contentType, AGGREGATED);
    assert.deepEqual(
      body(response).items.map((i: any) => [i.metadata.name, i.versions.map((v: any) => v.version)]),
      [['a.io', ['v1', 'v1beta1']], ['b.io', ['v1']]],
    );
    served = [...served, gv('c.io', 'v1', 5000, 100)];
    assert.deepEqual(body(discovery.serve(['apis'], AGGREGATED)).items.map((i: any) => i.metadata.name), ['c.io', 'a.io', 'b.io']);
    served = served.filter((s) => s.group !== 'c.io');
    assert.equal(discovery.serve(['apis', 'c.io'], undefined), undefined);
  });

  it('merges OpenAPI: a v3 document per group/version, and v2 from the base plus converted v3', () => {
    const openapi = new MergedOpenAPI(() => served, { document: () => ({ swagger: '2.0', paths: { '/api/v1/x': {} }, definitions: { base: {} } }), covers: (s) => s.group === '' });
    const index = body(openapi.serve(['openapi', 'v3'], new URLSearchParams(), {}));
    assert.deepEqual(Object.keys(index.paths), ['api/v1', 'apis/a.io/v1', 'apis/a.io/v1beta1', 'apis/b.io/v1']);
    const doc = openapi.serve(['openapi', 'v3', 'apis', 'a.io', 'v1'], new URLSearchParams(), {}) as { code: number };
    assert.equal(doc.code, 200);
    const v2 = body(openapi.serve(['openapi', 'v2'], new URLSearchParams(), { accept: 'application/json' }));
    assert.deepEqual(Object.keys(v2.definitions).sort(), ['a.io.v1.Thing', 'a.io.v1beta1.Thing', 'b.io.v1.Thing', 'base']);
  });
});

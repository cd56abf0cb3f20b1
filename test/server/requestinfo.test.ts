import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveRequestInfo } from '../../runtime/server/requestinfo.js';

function info(method: string, url: string) {
  const u = new URL(url, 'http://x');
  const r = resolveRequestInfo(method, u.pathname, u.searchParams);
  return [r.isResourceRequest, r.verb, r.apiPrefix, r.apiGroup, r.apiVersion, r.namespace, r.resource, r.name, r.subresource];
}

describe('RequestInfoResolver', () => {
  it('resolves resource requests like kube', () => {
    const cases: [string, string, unknown[]][] = [
      ['GET', '/api/v1/namespaces', [true, 'list', 'api', '', 'v1', '', 'namespaces', '', '']],
      ['GET', '/api/v1/namespaces/default', [true, 'get', 'api', '', 'v1', 'default', 'namespaces', 'default', '']],
      ['PUT', '/api/v1/namespaces/default/status', [true, 'update', 'api', '', 'v1', 'default', 'namespaces', 'default', 'status']],
      ['GET', '/apis/g.io/v1/namespaces/ns/widgets?watch=true', [true, 'watch', 'apis', 'g.io', 'v1', 'ns', 'widgets', '', '']],
      ['GET', '/apis/g.io/v1/widgets', [true, 'list', 'apis', 'g.io', 'v1', '', 'widgets', '', '']],
      ['POST', '/apis/g.io/v1/namespaces/ns/widgets', [true, 'create', 'apis', 'g.io', 'v1', 'ns', 'widgets', '', '']],
      ['PATCH', '/apis/g.io/v1/namespaces/ns/widgets/w1/scale', [true, 'patch', 'apis', 'g.io', 'v1', 'ns', 'widgets', 'w1', 'scale']],
      ['DELETE', '/apis/g.io/v1/namespaces/ns/widgets/w1', [true, 'delete', 'apis', 'g.io', 'v1', 'ns', 'widgets', 'w1', '']],
      ['DELETE', '/apis/g.io/v1/namespaces/ns/widgets', [true, 'deletecollection', 'apis', 'g.io', 'v1', 'ns', 'widgets', '', '']],
      ['GET', '/apis/g.io/v1/gadgets/g1', [true, 'get', 'apis', 'g.io', 'v1', '', 'gadgets', 'g1', '']],
      ['GET', '/api/v1/watch/namespaces/ns/widgets/w1', [true, 'watch', 'api', '', 'v1', 'ns', 'widgets', 'w1', '']],
      ['GET', '/apis/g.io/v1/namespaces/ns/widgets/a%20b', [true, 'get', 'apis', 'g.io', 'v1', 'ns', 'widgets', 'a b', '']],
    ];
    for (const [method, url, want] of cases) assert.deepEqual(info(method, url), want, `${method} ${url}`);
  });

  it('takes the name of a list or watch from a metadata.name field selector, as kube does', () => {
    const W = '/apis/g.io/v1/namespaces/ns/widgets';
    const cases: [string, string, unknown[]][] = [
      ['GET', `${W}?fieldSelector=metadata.name=w-allowed`, [true, 'list', 'apis', 'g.io', 'v1', 'ns', 'widgets', 'w-allowed', '']],
      ['GET', `${W}?fieldSelector=metadata.name%3D%3Dw1&watch=true`, [true, 'watch', 'apis', 'g.io', 'v1', 'ns', 'widgets', 'w1', '']],
      ['GET', `${W}?watch=1&fieldSelector=spec.color%3Dred,metadata.name%3Dw1`, [true, 'watch', 'apis', 'g.io', 'v1', 'ns', 'widgets', 'w1', '']],
      ['GET', '/api/v1/namespaces?fieldSelector=metadata.name%3Ddefault', [true, 'list', 'api', '', 'v1', '', 'namespaces', 'default', '']],
      // Not an exact match, not a valid path segment, or not parseable: no name.
      ['GET', `${W}?fieldSelector=metadata.name!%3Dw1`, [true, 'list', 'apis', 'g.io', 'v1', 'ns', 'widgets', '', '']],
      ['GET', `${W}?fieldSelector=metadata.name%3D..`, [true, 'list', 'apis', 'g.io', 'v1', 'ns', 'widgets', '', '']],
      ['GET', `${W}?fieldSelector=metadata.name%3Da%2Fb`, [true, 'list', 'apis', 'g.io', 'v1', 'ns', 'widgets', '', '']],
      ['GET', `${W}?fieldSelector=metadata.name`, [true, 'list', 'apis', 'g.io', 'v1', 'ns', 'widgets', '', '']],
      ['GET', `${W}?fieldSelector=metadata.namespace%3Dns`, [true, 'list', 'apis', 'g.io', 'v1', 'ns', 'widgets', '', '']],
      // Only list and watch: deletecollection and the legacy watch path keep their own rules.
      ['DELETE', `${W}?fieldSelector=metadata.name%3Dw1`, [true, 'deletecollection', 'apis', 'g.io', 'v1', 'ns', 'widgets', '', '']],
      ['GET', `/api/v1/watch/namespaces/ns/pods?fieldSelector=metadata.name%3Dp1`, [true, 'watch', 'api', '', 'v1', 'ns', 'pods', '', '']],
      ['GET', `${W}/w2?fieldSelector=metadata.name%3Dw1`, [true, 'get', 'apis', 'g.io', 'v1', 'ns', 'widgets', 'w2', '']],
    ];
    for (const [method, url, want] of cases) assert.deepEqual(info(method, url), want, `${method} ${url}`);
  });

  it('treats discovery and other paths as non-resource requests', () => {
    for (const url of ['/api', '/api/v1', '/apis', '/apis/g.io', '/apis/g.io/v1', '/healthz', '/openapi/v3', '/']) {
      assert.equal(info('GET', url)[0], false, url);
      assert.equal(info('GET', url)[1], 'get', url);
    }
  });
});

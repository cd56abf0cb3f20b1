import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withRequestInfo } from '../../../runtime/server/filters/requestinfo.js';
import { newRequestContext } from '../../../runtime/server/filters/context.js';
import { recordingHandler, request } from './helpers.js';

describe('request info filter', () => {
  it('resolves verb, group, version, namespace, resource, subresource and name for later filters', async () => {
    const next = recordingHandler();
    const ctx = newRequestContext(request('PUT', '/apis/example.com/v1/namespaces/ns1/widgets/w1/status?dryRun=All'));
    await withRequestInfo()(next)(ctx);
    assert.equal(next.calls.length, 1);
    assert.deepEqual(
      { ...ctx.info!, parts: undefined },
      { isResourceRequest: true, path: '/apis/example.com/v1/namespaces/ns1/widgets/w1/status', verb: 'update', apiPrefix: 'apis', apiGroup: 'example.com', apiVersion: 'v1', namespace: 'ns1', resource: 'widgets', subresource: 'status', name: 'w1', parts: undefined },
    );
  });

  it('reads watches from the query and non-resource paths as lower-case methods', async () => {
    const watch = newRequestContext(request('GET', '/api/v1/namespaces?watch=true'));
    await withRequestInfo()(recordingHandler())(watch);
    assert.equal(watch.info!.verb, 'watch');
    const health = newRequestContext(request('GET', '/healthz/ping'));
    await withRequestInfo()(recordingHandler())(health);
    assert.equal(health.info!.isResourceRequest, false);
    assert.equal(health.info!.verb, 'get');
    assert.equal(health.info!.path, '/healthz/ping');
  });

  it('reads a `//` path as a path, not as an authority', async () => {
    const ctx = newRequestContext(request('GET', '//apis/example.com/v1/widgets'));
    await withRequestInfo()(recordingHandler())(ctx);
    assert.equal(ctx.info!.path, '//apis/example.com/v1/widgets');
    assert.equal(ctx.info!.resource, 'widgets');
  });
});

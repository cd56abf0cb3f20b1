import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuthorizationAttributes, Authorizer } from '../../../runtime/api/auth.js';
import { withAuthorization } from '../../../runtime/server/filters/authorization.js';
import { privilegedGroupAuthorizer } from '../../../runtime/server/authorizer.js';
import { ANONYMOUS_USER } from '../../../runtime/api/auth.js';
import { admin, alice, body, contextFor, recordingHandler } from './helpers.js';

const deny: Authorizer = { authorize: async () => ({ decision: 'NoOpinion', reason: '' }) };

async function forbidden(method: string, url: string, authorizer: Authorizer = deny) {
  const response = await withAuthorization(authorizer)(recordingHandler())(contextFor(method, url, { user: alice }));
  assert.equal(response.code, 403);
  return body(response);
}

describe('authorization filter', () => {
  it('passes allowed requests, recording the decision for audit', async () => {
    const seen: AuthorizationAttributes[] = [];
    const next = recordingHandler();
    const ctx = contextFor('GET', '/apis/example.com/v1/namespaces/ns1/widgets/w1/status', { user: alice });
    await withAuthorization({ authorize: async (a) => (seen.push(a), { decision: 'Allow', reason: 'bound' }) })(next)(ctx);
    assert.equal(next.calls.length, 1);
    assert.deepEqual(seen[0], {
      user: alice, verb: 'get', isResourceRequest: true, path: '/apis/example.com/v1/namespaces/ns1/widgets/w1/status', namespace: 'ns1',
      apiGroup: 'example.com', apiVersion: 'v1', resource: 'widgets', subresource: 'status', name: 'w1',
    });
    assert.equal(ctx.annotations['authorization.k8s.io/decision'], 'allow');
    assert.equal(ctx.annotations['authorization.k8s.io/reason'], 'bound');
  });

  it('escapes &, < and > in the part of a 403 it builds from the request, and sends nosniff, as kube (responsewriters.Forbidden)', async () => {
    const ctx = contextFor('GET', '/api/v1/namespaces/<b>x</b>/pods', { user: { username: '<img src=x onerror=alert(1)>', groups: [] } });
    const response = await withAuthorization({ authorize: async () => ({ decision: 'NoOpinion', reason: '<i>why</i>' }) })(recordingHandler())(ctx);
    assert.equal(response.code, 403);
    assert.equal(response.headers['X-Content-Type-Options'], 'nosniff');
    // kube's sanitizer covers forbiddenMessage only: the name NewForbidden quotes and the authorizer's reason are kept.
    assert.equal(body(response).message, 'b> "pods" is forbidden: User "&lt;img src=x onerror=alert(1)&gt;" cannot get resource "b&gt;" in API group "" in the namespace "&lt;b&gt;x&lt;": <i>why</i>');
    const path = await forbidden('GET', '/x&y');
    assert.equal(path.message, 'forbidden: User "alice" cannot get path "/x&amp;y"');
  });

  it('answers kube’s 403 message for a named namespaced object', async () => {
    const status = await forbidden('GET', '/apis/example.com/v1/namespaces/ns1/widgets/w1');
    assert.equal(status.reason, 'Forbidden');
    assert.equal(status.message, 'widgets.example.com "w1" is forbidden: User "alice" cannot get resource "widgets" in API group "example.com" in the namespace "ns1"');
    assert.deepEqual(status.details, { name: 'w1', group: 'example.com', kind: 'widgets' });
  });

  it('words lists, cluster scope, subresources, the core group and non-resource paths as kube does', async () => {
    assert.equal((await forbidden('GET', '/apis/example.com/v1/namespaces/ns1/widgets')).message,
      'widgets.example.com is forbidden: User "alice" cannot list resource "widgets" in API group "example.com" in the namespace "ns1"');
    assert.equal((await forbidden('GET', '/api/v1/namespaces')).message,
      'namespaces is forbidden: User "alice" cannot list resource "namespaces" in API group "" at the cluster scope');
    assert.equal((await forbidden('PUT', '/apis/example.com/v1/namespaces/ns1/widgets/w1/scale')).message,
      'widgets.example.com "w1" is forbidden: User "alice" cannot update resource "widgets/scale" in API group "example.com" in the namespace "ns1"');
    assert.equal((await forbidden('GET', '/metrics')).message, 'forbidden: User "alice" cannot get path "/metrics"');
    const withReason = await forbidden('DELETE', '/api/v1/namespaces/x', { authorize: async () => ({ decision: 'Deny', reason: 'no way' }) });
    assert.equal(withReason.message, 'namespaces "x" is forbidden: User "alice" cannot delete resource "namespaces" in API group "" in the namespace "x": no way');
  });
});

describe('the interim authorizer (privileged group only)', () => {
  const authorize = (user: typeof alice, method: string, url: string) => {
    const ctx = contextFor(method, url, { user });
    return Promise.resolve(withAuthorization(privilegedGroupAuthorizer())(recordingHandler())(ctx)).then((r) => r.code);
  };

  it('allows system:masters everything', async () => {
    assert.equal(await authorize(admin, 'DELETE', '/api/v1/namespaces/x'), 200);
    assert.equal(await authorize(admin, 'GET', '/metrics'), 200);
  });

  it('allows everyone the health and version endpoints, authenticated users discovery, and nothing else', async () => {
    for (const path of ['/healthz', '/livez/ping', '/readyz', '/version', '/version/']) assert.equal(await authorize(ANONYMOUS_USER, 'GET', path), 200, path);
    assert.equal(await authorize(ANONYMOUS_USER, 'GET', '/apis'), 403);
    assert.equal(await authorize(alice, 'GET', '/apis/example.com/v1'), 200);
    assert.equal(await authorize(alice, 'GET', '/openapi/v3'), 200);
    assert.equal(await authorize(alice, 'POST', '/healthz'), 403);
    assert.equal(await authorize(alice, 'GET', '/apis/example.com/v1/widgets'), 403);
    assert.equal(await authorize(alice, 'GET', '/healthzfoo'), 403);
  });
});

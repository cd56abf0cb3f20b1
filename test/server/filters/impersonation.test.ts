import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuthorizationAttributes, Authorizer } from '../../../runtime/api/auth.js';
import { withImpersonation } from '../../../runtime/server/filters/impersonation.js';
import { privilegedGroupAuthorizer } from '../../../runtime/server/authorizer.js';
import { admin, alice, body, contextFor, recordingHandler } from './helpers.js';

function recordingAuthorizer(allow: (a: AuthorizationAttributes) => boolean): Authorizer & { asked: AuthorizationAttributes[] } {
  const asked: AuthorizationAttributes[] = [];
  return { asked, authorize: async (a) => (asked.push(a), { decision: allow(a) ? 'Allow' : 'NoOpinion', reason: '' }) };
}

const brief = (a: AuthorizationAttributes) => `${a.verb} ${a.apiGroup}/${a.resource}${a.subresource ? `/${a.subresource}` : ''} ${a.namespace}/${a.name}`;

describe('impersonation filter', () => {
  it('passes requests without impersonation headers untouched', async () => {
    const next = recordingHandler();
    const ctx = contextFor('GET', '/api', { user: alice });
    await withImpersonation(recordingAuthorizer(() => false))(next)(ctx);
    assert.deepEqual(next.calls[0]!.user, alice);
    assert.equal(ctx.impersonator, undefined);
  });

  it('authorizes each requested attribute as verb impersonate and then acts as the new user', async () => {
    const authorizer = recordingAuthorizer(() => true);
    const next = recordingHandler();
    const ctx = contextFor('GET', '/api', {
      user: admin,
      headers: { 'Impersonate-User': 'bob', 'Impersonate-Group': 'dev', 'Impersonate-Uid': 'u-1', 'Impersonate-Extra-Scopes%2Fx': ['a', 'b'] },
      extra: { headersDistinct: { 'impersonate-user': ['bob'], 'impersonate-group': ['dev', 'ops'], 'impersonate-uid': ['u-1'], 'impersonate-extra-scopes%2fx': ['a', 'b'] } },
    });
    await withImpersonation(authorizer)(next)(ctx);
    assert.deepEqual(authorizer.asked.map(brief), [
      'impersonate /users /bob',
      'impersonate /groups /dev',
      'impersonate /groups /ops',
      'impersonate authentication.k8s.io/userextras/scopes/x /a',
      'impersonate authentication.k8s.io/userextras/scopes/x /b',
      'impersonate authentication.k8s.io/uids /u-1',
    ]);
    assert.ok(authorizer.asked.every((a) => a.user === admin && a.isResourceRequest));
    assert.deepEqual(next.calls[0]!.user, { username: 'bob', uid: 'u-1', groups: ['dev', 'ops', 'system:authenticated'], extra: { 'scopes/x': ['a', 'b'] } });
    assert.deepEqual(ctx.impersonator, admin);
    assert.equal(Object.keys(ctx.request.headers).some((h) => h.startsWith('impersonate-')), false);
  });

  it('keeps extra keys named like Object.prototype members as data (kube: any key; no 500)', async () => {
    const authorizer = recordingAuthorizer(() => true);
    const next = recordingHandler();
    const ctx = contextFor('GET', '/api', {
      user: admin,
      headers: { 'Impersonate-User': 'bob', 'Impersonate-Extra-__proto__': 'p', 'Impersonate-Extra-Constructor': ['c1', 'c2'] },
      extra: { headersDistinct: { 'impersonate-user': ['bob'], 'impersonate-extra-__proto__': ['p'], 'impersonate-extra-constructor': ['c1', 'c2'] } },
    });
    const res = await withImpersonation(authorizer)(next)(ctx);
    assert.equal(next.calls.length, 1, JSON.stringify(res));
    assert.deepEqual(next.calls[0]!.user!.extra, JSON.parse('{"__proto__":["p"],"constructor":["c1","c2"]}'));
    assert.equal(Object.getPrototypeOf(next.calls[0]!.user!.extra), Object.prototype);
  });

  it('gives an impersonated service account its groups, and anonymous system:unauthenticated', async () => {
    const next = recordingHandler();
    const authorizer = recordingAuthorizer(() => true);
    await withImpersonation(authorizer)(next)(contextFor('GET', '/api', { user: admin, headers: { 'Impersonate-User': 'system:serviceaccount:ns1:robot' } }));
    assert.equal(brief(authorizer.asked[0]!), 'impersonate /serviceaccounts ns1/robot');
    assert.deepEqual(next.calls[0]!.user, { username: 'system:serviceaccount:ns1:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'] });
    await withImpersonation(authorizer)(next)(contextFor('GET', '/api', { user: admin, headers: { 'Impersonate-User': 'system:anonymous' } }));
    assert.deepEqual(next.calls[1]!.user, { username: 'system:anonymous', groups: ['system:unauthenticated'] });
  });

  it('impersonates a user, not a service account, for a name whose namespace or name is not valid (kube’s SplitUsername)', async () => {
    const next = recordingHandler();
    const authorizer = recordingAuthorizer(() => true);
    for (const username of ['system:serviceaccount:Bad_NS:robot', 'system:serviceaccount:ns1:Robot!', 'system:serviceaccount:ns1:a:b', `system:serviceaccount:${'n'.repeat(64)}:robot`]) {
      authorizer.asked.length = 0;
      next.calls.length = 0;
      await withImpersonation(authorizer)(next)(contextFor('GET', '/api', { user: admin, headers: { 'Impersonate-User': username } }));
      assert.equal(brief(authorizer.asked[0]!), `impersonate /users /${username}`);
      assert.deepEqual(next.calls[0]!.user, { username, groups: ['system:authenticated'] });
    }
  });

  it('refuses with kube’s 403 when any attribute is not allowed', async () => {
    const next = recordingHandler();
    const response = await withImpersonation(recordingAuthorizer((a) => a.resource === 'users'))(next)(
      contextFor('GET', '/api', { user: alice, headers: { 'Impersonate-User': 'bob', 'Impersonate-Group': 'system:masters' } }),
    );
    assert.equal(response.code, 403);
    assert.equal(body(response).message, 'groups "system:masters" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope');
    assert.equal(next.calls.length, 0);
  });

  it('allows system:masters and refuses others under the interim authorizer', async () => {
    const headers = { 'Impersonate-User': 'bob' };
    assert.equal((await withImpersonation(privilegedGroupAuthorizer())(recordingHandler())(contextFor('GET', '/api', { user: admin, headers }))).code, 200);
    const refused = await withImpersonation(privilegedGroupAuthorizer())(recordingHandler())(contextFor('GET', '/api', { user: alice, headers }));
    assert.equal(body(refused).message, 'users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope');
  });

  it('answers groups, uid or extras without a user with 400', async () => {
    const response = await withImpersonation(recordingAuthorizer(() => true))(recordingHandler())(contextFor('GET', '/api', { user: admin, headers: { 'Impersonate-Group': 'dev' } }));
    assert.equal(response.code, 400);
    assert.match(body(response).message, /without impersonating a user/);
  });
});

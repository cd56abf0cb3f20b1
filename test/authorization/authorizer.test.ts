import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newRBACAuthorizer, PolicyIndex, RuleResolver } from '../../runtime/authorization/index.js';
import { clusterRole, clusterRoleBinding, G, pathAttrs, resourceAttrs, role, roleBinding, SA, U, user } from './helpers.js';

function setup() {
  const index = new PolicyIndex();
  index.upsert('roles', role('ns1', 'widget-reader', [{ verbs: ['get', 'list'], apiGroups: ['widgets.example.com'], resources: ['widgets'] }]));
  index.upsert('clusterroles', clusterRole('widget-admin', [{ verbs: ['*'], apiGroups: ['widgets.example.com'], resources: ['widgets', 'widgets/status'] }]));
  index.upsert('clusterroles', clusterRole('healthz', [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }]));
  index.upsert('rolebindings', roleBinding('ns1', 'alice-reads', 'Role', 'widget-reader', [U('alice')]));
  index.upsert('rolebindings', roleBinding('ns2', 'devs-admin', 'ClusterRole', 'widget-admin', [G('dev'), SA('builder')]));
  index.upsert('clusterrolebindings', clusterRoleBinding('ops-admin', 'widget-admin', [G('ops')]));
  index.upsert('clusterrolebindings', clusterRoleBinding('all-healthz', 'healthz', [G('system:authenticated')]));
  return { index, authorizer: newRBACAuthorizer(new RuleResolver(index)) };
}

describe('RBAC authorizer', () => {
  it('allows what a Role bound in the namespace allows, only there, with kube\'s reason', async () => {
    const { authorizer } = setup();
    const alice = user('alice');
    assert.deepEqual(await authorizer.authorize(resourceAttrs(alice, 'list', 'widgets', { namespace: 'ns1' })), {
      decision: 'Allow',
      reason: 'RBAC: allowed by RoleBinding "alice-reads/ns1" of Role "widget-reader" to User "alice"',
    });
    assert.equal((await authorizer.authorize(resourceAttrs(alice, 'list', 'widgets', { namespace: 'ns2' }))).decision, 'NoOpinion');
    assert.equal((await authorizer.authorize(resourceAttrs(alice, 'list', 'widgets'))).decision, 'NoOpinion');
    assert.equal((await authorizer.authorize(resourceAttrs(alice, 'delete', 'widgets', { namespace: 'ns1' }))).decision, 'NoOpinion');
  });

  it('scopes a RoleBinding to a ClusterRole to the binding namespace; groups and service accounts match', async () => {
    const { authorizer } = setup();
    const dev = user('dan', 'dev');
    assert.equal((await authorizer.authorize(resourceAttrs(dev, 'delete', 'widgets', { namespace: 'ns2' }))).decision, 'Allow');
    assert.equal((await authorizer.authorize(resourceAttrs(dev, 'update', 'widgets', { namespace: 'ns2', subresource: 'status' }))).decision, 'Allow');
    assert.equal((await authorizer.authorize(resourceAttrs(dev, 'delete', 'widgets', { namespace: 'ns1' }))).decision, 'NoOpinion');
    const sa = { username: 'system:serviceaccount:ns2:builder', groups: ['system:serviceaccounts', 'system:authenticated'] };
    const result = await authorizer.authorize(resourceAttrs(sa, 'create', 'widgets', { namespace: 'ns2' }));
    assert.deepEqual(result, { decision: 'Allow', reason: 'RBAC: allowed by RoleBinding "devs-admin/ns2" of ClusterRole "widget-admin" to ServiceAccount "builder/ns2"' });
  });

  it('applies ClusterRoleBindings everywhere, for resource and non-resource requests', async () => {
    const { authorizer } = setup();
    const ops = user('olga', 'ops');
    assert.equal((await authorizer.authorize(resourceAttrs(ops, 'delete', 'widgets', { namespace: 'anywhere' }))).decision, 'Allow');
    const all = await authorizer.authorize(resourceAttrs(ops, 'list', 'widgets'));
    assert.deepEqual(all, { decision: 'Allow', reason: 'RBAC: allowed by ClusterRoleBinding "ops-admin" of ClusterRole "widget-admin" to Group "ops"' });
    assert.equal((await authorizer.authorize(pathAttrs(ops, 'get', '/healthz'))).decision, 'Allow');
    assert.equal((await authorizer.authorize(pathAttrs(ops, 'get', '/metrics'))).decision, 'NoOpinion');
  });

  it('always allows system:masters, with no reason', async () => {
    const { authorizer } = setup();
    assert.deepEqual(await authorizer.authorize(resourceAttrs(user('root', 'system:masters'), 'escalate', 'clusterroles', { group: 'rbac.authorization.k8s.io' })), {
      decision: 'Allow',
      reason: '',
    });
  });

  it('reports bindings to missing roles as the reason of a denial, and still honours the others', async () => {
    const { index, authorizer } = setup();
    index.upsert('rolebindings', roleBinding('ns1', 'broken', 'Role', 'missing', [U('alice')]));
    const denied = await authorizer.authorize(resourceAttrs(user('alice'), 'delete', 'widgets', { namespace: 'ns1' }));
    assert.deepEqual(denied, { decision: 'NoOpinion', reason: 'RBAC: role.rbac.authorization.k8s.io "missing" not found' });
    assert.equal((await authorizer.authorize(resourceAttrs(user('alice'), 'get', 'widgets', { namespace: 'ns1' }))).decision, 'Allow');
  });

  it('follows changes to the index: deleted bindings stop applying', async () => {
    const { index, authorizer } = setup();
    const attrs = resourceAttrs(user('alice'), 'get', 'widgets', { namespace: 'ns1' });
    assert.equal((await authorizer.authorize(attrs)).decision, 'Allow');
    index.remove('rolebindings', roleBinding('ns1', 'alice-reads', 'Role', 'widget-reader', []));
    assert.equal((await authorizer.authorize(attrs)).decision, 'NoOpinion');
  });

  it('resolves aggregated ClusterRoles from the roles their selectors match, transitively', async () => {
    const index = new PolicyIndex();
    index.upsert('clusterroles', clusterRole('agg-admin', [], undefined, 'to-admin'));
    index.upsert('clusterroles', clusterRole('agg-edit', [], { 'to-admin': 'true' }, 'to-edit'));
    index.upsert('clusterroles', clusterRole('edit-widgets', [{ verbs: ['delete'], apiGroups: ['widgets.example.com'], resources: ['widgets'] }], { 'to-edit': 'true' }));
    index.upsert('clusterrolebindings', clusterRoleBinding('a', 'agg-admin', [U('alice')]));
    const authorizer = newRBACAuthorizer(new RuleResolver(index));
    const attrs = resourceAttrs(user('alice'), 'delete', 'widgets', { namespace: 'x' });
    assert.equal((await authorizer.authorize(attrs)).decision, 'Allow');
    index.upsert('clusterroles', clusterRole('edit-widgets', [{ verbs: ['delete'], apiGroups: ['widgets.example.com'], resources: ['widgets'] }], { other: 'true' }));
    assert.equal((await authorizer.authorize(attrs)).decision, 'NoOpinion');
  });

  it('keeps the own rules of a ClusterRole whose selectors are not selectors, as kube reads them when aggregation fails', async () => {
    const index = new PolicyIndex();
    const agg = clusterRole('agg', [{ verbs: ['get'], apiGroups: ['widgets.example.com'], resources: ['widgets'] }]);
    agg.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { pick: 'me' } }, { matchExpressions: [{ key: 'x', operator: 'NotIn', values: [] }] }] };
    index.upsert('clusterroles', agg);
    index.upsert('clusterroles', clusterRole('picked', [{ verbs: ['delete'], apiGroups: ['widgets.example.com'], resources: ['widgets'] }], { pick: 'me' }));
    index.upsert('clusterrolebindings', clusterRoleBinding('a', 'agg', [U('alice')]));
    const authorizer = newRBACAuthorizer(new RuleResolver(index));
    assert.equal((await authorizer.authorize(resourceAttrs(user('alice'), 'get', 'widgets', { namespace: 'x' }))).decision, 'Allow');
    assert.equal((await authorizer.authorize(resourceAttrs(user('alice'), 'delete', 'widgets', { namespace: 'x' }))).decision, 'NoOpinion');
  });

  it('lists the rules that apply in a namespace (SelfSubjectRulesReview)', () => {
    const { authorizer } = setup();
    const result = authorizer.rulesFor(user('alice'), 'ns1');
    assert.deepEqual(result, {
      resourceRules: [{ verbs: ['get', 'list'], apiGroups: ['widgets.example.com'], resources: ['widgets'] }],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
      incomplete: false,
      evaluationError: '',
    });
  });
});

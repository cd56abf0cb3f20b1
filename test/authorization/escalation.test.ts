import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AdmissionAttributes, UserInfo } from '../../runtime/api/auth.js';
import { StatusError } from '../../runtime/api/status.js';
import { checkEscalation, compactRules, compactString, covers, newRBACAuthorizer, PolicyIndex, RuleResolver, type PolicyRule } from '../../runtime/authorization/index.js';
import { clusterRole, clusterRoleBinding, RBAC, role, roleBinding, U, user } from './helpers.js';

const W = 'widgets.example.com';

describe('Covers (policy comparator)', () => {
  it('covers by wildcards, exact values and */subresource', () => {
    const owner: PolicyRule[] = [{ verbs: ['get', 'list'], apiGroups: [W], resources: ['widgets', '*/status'] }];
    assert.equal(covers(owner, [{ verbs: ['get'], apiGroups: [W], resources: ['widgets', 'widgets/status'] }]).covered, true);
    assert.equal(covers([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], [{ verbs: ['delete'], apiGroups: [''], resources: ['namespaces'] }]).covered, true);
    const { covered, missing } = covers(owner, [{ verbs: ['get', 'delete'], apiGroups: [W], resources: ['widgets', 'widgets/scale'] }]);
    assert.equal(covered, false);
    assert.deepEqual(missing.map(compactString), [
      '{APIGroups:["widgets.example.com"], Resources:["widgets"], Verbs:["delete"]}',
      '{APIGroups:["widgets.example.com"], Resources:["widgets/scale"], Verbs:["get"]}',
      '{APIGroups:["widgets.example.com"], Resources:["widgets/scale"], Verbs:["delete"]}',
    ]);
  });

  it('treats resourceNames as narrower than no names, and non-resource URLs by prefix', () => {
    const named: PolicyRule[] = [{ verbs: ['get'], apiGroups: [W], resources: ['widgets'], resourceNames: ['w1'] }];
    assert.equal(covers(named, [{ verbs: ['get'], apiGroups: [W], resources: ['widgets'] }]).covered, false);
    assert.equal(covers(named, [{ verbs: ['get'], apiGroups: [W], resources: ['widgets'], resourceNames: ['w1'] }]).covered, true);
    assert.equal(covers([{ verbs: ['get'], nonResourceURLs: ['/apis/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/apis/x'] }]).covered, true);
    assert.equal(covers([{ verbs: ['get'], nonResourceURLs: ['/apis/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/api'] }]).covered, false);
  });

  it('compacts simple rules into one per resource', () => {
    const compacted = compactRules([
      { verbs: ['get'], apiGroups: [W], resources: ['widgets'] },
      { verbs: ['list'], apiGroups: [W], resources: ['widgets'] },
      { verbs: ['get'], nonResourceURLs: ['/x'] },
    ]);
    assert.deepEqual(compacted.map(compactString).sort(), ['{APIGroups:["widgets.example.com"], Resources:["widgets"], Verbs:["get" "list"]}', '{NonResourceURLs:["/x"], Verbs:["get"]}']);
  });
});

function setup() {
  const index = new PolicyIndex();
  index.upsert('clusterroles', clusterRole('rbac-writer', [{ verbs: ['create', 'update'], apiGroups: [RBAC], resources: ['roles', 'rolebindings', 'clusterroles', 'clusterrolebindings'] }]));
  index.upsert('clusterroles', clusterRole('widget-reader', [{ verbs: ['get', 'list'], apiGroups: [W], resources: ['widgets'] }]));
  index.upsert('clusterroles', clusterRole('widget-admin', [{ verbs: ['*'], apiGroups: [W], resources: ['widgets'] }]));
  index.upsert('clusterroles', clusterRole('binder', [{ verbs: ['bind'], apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['widget-admin'] }]));
  index.upsert('clusterroles', clusterRole('escalator', [{ verbs: ['escalate'], apiGroups: [RBAC], resources: ['roles'] }]));
  index.upsert('clusterroles', clusterRole('named-escalator', [{ verbs: ['escalate'], apiGroups: [RBAC], resources: ['roles'], resourceNames: ['named'] }]));
  index.upsert('clusterrolebindings', clusterRoleBinding('writers', 'rbac-writer', [U('alice'), U('bob'), U('carol'), U('dave')]));
  index.upsert('rolebindings', roleBinding('ns1', 'alice-reads', 'ClusterRole', 'widget-reader', [U('alice')]));
  index.upsert('rolebindings', roleBinding('ns1', 'bob-binds', 'ClusterRole', 'binder', [U('bob')]));
  index.upsert('rolebindings', roleBinding('ns1', 'carol-escalates', 'ClusterRole', 'escalator', [U('carol')]));
  index.upsert('rolebindings', roleBinding('ns1', 'dave-escalates', 'ClusterRole', 'named-escalator', [U('dave')]));
  const authorizer = newRBACAuthorizer(new RuleResolver(index));
  return { authorizer, resolver: authorizer.resolver };
}

function attrs(u: UserInfo, resource: string, object: Record<string, unknown>, namespace = 'ns1', operation: 'CREATE' | 'UPDATE' = 'CREATE', oldObject?: Record<string, unknown>): AdmissionAttributes {
  const obj = object as AdmissionAttributes['object'] & object;
  return {
    operation,
    object: obj,
    oldObject: oldObject as AdmissionAttributes['oldObject'],
    user: u,
    namespace,
    name: obj.metadata.name ?? '',
    resource: { group: RBAC, version: 'v1', resource },
    subresource: '',
    kind: { group: RBAC, version: 'v1', kind: String(obj.kind) },
    dryRun: false,
  };
}

async function rejection(promise: Promise<void>): Promise<StatusError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    return err;
  }
  assert.fail('expected a 403');
}

describe('escalation prevention', () => {
  it('allows a role with rules the writer holds in that namespace', async () => {
    const opts = setup();
    const reader = role('ns1', 'r', [{ verbs: ['get'], apiGroups: [W], resources: ['widgets'] }]);
    await checkEscalation(attrs(user('alice'), 'roles', reader), opts);
  });

  it('refuses rules the writer does not hold, with kube\'s message', async () => {
    const opts = setup();
    const writer = role('ns1', 'w', [{ verbs: ['get', 'delete', 'patch'], apiGroups: [W], resources: ['widgets'] }]);
    const err = await rejection(checkEscalation(attrs(user('alice', 'dev'), 'roles', writer), opts));
    assert.equal(err.code, 403);
    assert.equal(
      err.message,
      'roles.rbac.authorization.k8s.io "w" is forbidden: user "alice" (groups=["dev" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:["widgets.example.com"], Resources:["widgets"], Verbs:["delete" "patch"]}',
    );
    // Held in ns1 only: the same role elsewhere is an escalation too.
    const reader = role('ns2', 'r', [{ verbs: ['get'], apiGroups: [W], resources: ['widgets'] }]);
    await rejection(checkEscalation(attrs(user('alice'), 'roles', reader, 'ns2'), opts));
  });

  it('lets the escalate verb and system:masters through', async () => {
    const opts = setup();
    const big = role('ns1', 'big', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
    await checkEscalation(attrs(user('carol'), 'roles', big), opts);
    await checkEscalation(attrs(user('root', 'system:masters'), 'clusterroles', { ...clusterRole('big', big.rules!) }, ''), opts);
    await rejection(checkEscalation(attrs(user('carol'), 'clusterroles', clusterRole('big', big.rules!), ''), opts));
  });

  it('takes escalate limited by resourceNames for updates of those roles only, never creates (kube asks about the URL\'s name)', async () => {
    const opts = setup();
    const big = role('ns1', 'named', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
    // POST: the request has no name, so the grant does not apply.
    await rejection(checkEscalation({ ...attrs(user('dave'), 'roles', big), requestName: '' }, opts));
    // PUT or PATCH of roles/named: it does.
    await checkEscalation({ ...attrs(user('dave'), 'roles', big, 'ns1', 'UPDATE', role('ns1', 'named', [])), requestName: 'named' }, opts);
    await rejection(checkEscalation({ ...attrs(user('dave'), 'roles', { ...big, metadata: { ...big.metadata, name: 'other' } }, 'ns1', 'UPDATE', role('ns1', 'other', [])), requestName: 'other' }, opts));
  });

  it('allows binding a role whose rules the writer holds, or with bind on it', async () => {
    const opts = setup();
    await checkEscalation(attrs(user('alice'), 'rolebindings', roleBinding('ns1', 'b', 'ClusterRole', 'widget-reader', [U('x')])), opts);
    await checkEscalation(attrs(user('bob'), 'rolebindings', roleBinding('ns1', 'b', 'ClusterRole', 'widget-admin', [U('x')])), opts);
    // bob's bind is for widget-admin in ns1 only.
    await rejection(checkEscalation(attrs(user('bob'), 'rolebindings', roleBinding('ns2', 'b', 'ClusterRole', 'widget-admin', [U('x')]), 'ns2'), opts));
    await rejection(checkEscalation(attrs(user('bob'), 'clusterrolebindings', clusterRoleBinding('b', 'widget-admin', [U('x')]), ''), opts));
    const err = await rejection(checkEscalation(attrs(user('alice'), 'rolebindings', roleBinding('ns1', 'b', 'ClusterRole', 'widget-admin', [U('x')])), opts));
    assert.match(err.message, /^rolebindings\.rbac\.authorization\.k8s\.io "b" is forbidden: user "alice" .* not currently held:\n\{APIGroups:\["widgets.example.com"\], Resources:\["widgets"\], Verbs:\["\*"\]\}$/);
    const missing = await rejection(checkEscalation(attrs(user('alice'), 'rolebindings', roleBinding('ns1', 'b', 'Role', 'nope', [U('x')])), opts));
    assert.equal(missing.message, 'rolebindings.rbac.authorization.k8s.io "b" is forbidden: role.rbac.authorization.k8s.io "nope" not found');
  });

  it('does not check updates that only change garbage-collection metadata', async () => {
    const opts = setup();
    const old = role('ns1', 'w', [{ verbs: ['delete'], apiGroups: [W], resources: ['widgets'] }]);
    const withFinalizer = { ...old, metadata: { ...old.metadata, finalizers: ['example.com/keep'] } };
    await checkEscalation(attrs(user('alice'), 'roles', withFinalizer, 'ns1', 'UPDATE', old), opts);
    const relabelled = { ...old, metadata: { ...old.metadata, labels: { a: 'b' } } };
    await rejection(checkEscalation(attrs(user('alice'), 'roles', relabelled, 'ns1', 'UPDATE', old), opts));
  });
});

describe('aggregationRule escalation (kube: cluster-admin only)', () => {
  const SELECT_DEFAULTS = { clusterRoleSelectors: [{ matchLabels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } }] };
  const MESSAGE = 'clusterroles.rbac.authorization.k8s.io "system:basic-user" is forbidden: must have cluster-admin privileges to use the aggregationRule';
  const basicUserRules: PolicyRule[] = [{ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] }];

  function aggSetup() {
    const index = new PolicyIndex();
    index.upsert('clusterroles', clusterRole('system:basic-user', basicUserRules));
    index.upsert('clusterroles', clusterRole('patcher', [{ verbs: ['get', 'patch'], apiGroups: [RBAC], resources: ['clusterroles'] }]));
    index.upsert('clusterroles', clusterRole('escalator', [{ verbs: ['escalate'], apiGroups: [RBAC], resources: ['clusterroles'] }]));
    index.upsert('clusterroles', clusterRole('all-resources', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]));
    index.upsert('clusterroles', clusterRole('all-urls', [{ verbs: ['*'], nonResourceURLs: ['*'] }]));
    index.upsert('clusterroles', clusterRole('aggregated', [], undefined, 'aggregate-to-x'));
    index.upsert('clusterrolebindings', clusterRoleBinding('basic', 'system:basic-user', [{ kind: 'Group', apiGroup: RBAC, name: 'system:authenticated' }]));
    index.upsert('clusterrolebindings', clusterRoleBinding('patchers', 'patcher', [U('mallory'), U('esc'), U('almost'), U('admin')]));
    index.upsert('clusterrolebindings', clusterRoleBinding('escalators', 'escalator', [U('esc')]));
    index.upsert('clusterrolebindings', clusterRoleBinding('almost', 'all-resources', [U('almost'), U('admin')]));
    index.upsert('clusterrolebindings', clusterRoleBinding('urls', 'all-urls', [U('admin'), U('urls-and-rbac')]));
    index.upsert('clusterroles', clusterRole('rbac-but-escalate', [{ verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'bind'], apiGroups: [RBAC], resources: ['*'] }]));
    index.upsert('clusterrolebindings', clusterRoleBinding('rbac-but-escalate', 'rbac-but-escalate', [U('urls-and-rbac')]));
    const authorizer = newRBACAuthorizer(new RuleResolver(index));
    return { authorizer, resolver: authorizer.resolver };
  }
  const basicUser = (aggregationRule?: unknown) => ({ ...clusterRole('system:basic-user', basicUserRules), ...(aggregationRule ? { aggregationRule } : {}) });

  it('refuses adding an aggregationRule on update (the probe: merge patch of system:basic-user)', async () => {
    const opts = aggSetup();
    const err = await rejection(checkEscalation(attrs(user('mallory'), 'clusterroles', basicUser(SELECT_DEFAULTS), '', 'UPDATE', basicUser()), opts));
    assert.equal(err.code, 403);
    assert.equal(err.status.reason, 'Forbidden');
    assert.equal(err.message, MESSAGE);
  });

  it('refuses creating a ClusterRole with an aggregationRule, even one with no rules', async () => {
    const opts = aggSetup();
    const obj = { ...clusterRole('gatherer', []), aggregationRule: { clusterRoleSelectors: [{}] } };
    const err = await rejection(checkEscalation(attrs(user('mallory'), 'clusterroles', obj, ''), opts));
    assert.equal(err.message, 'clusterroles.rbac.authorization.k8s.io "gatherer" is forbidden: must have cluster-admin privileges to use the aggregationRule');
  });

  it('refuses changing or removing an existing aggregationRule, but not other changes to the role', async () => {
    const opts = aggSetup();
    const old = clusterRole('aggregated', [], undefined, 'aggregate-to-x');
    const changed = { ...old, aggregationRule: SELECT_DEFAULTS };
    await rejection(checkEscalation(attrs(user('mallory'), 'clusterroles', changed, '', 'UPDATE', old), opts));
    const removed = clusterRole('aggregated', []);
    await rejection(checkEscalation(attrs(user('mallory'), 'clusterroles', removed, '', 'UPDATE', old), opts));
    const relabelled = { ...old, metadata: { ...old.metadata, labels: { team: 'a' } } };
    await checkEscalation(attrs(user('mallory'), 'clusterroles', relabelled, '', 'UPDATE', old), opts);
    // An aggregationRule with no selectors is absent (kube's hasAggregationRule).
    const empty = { ...basicUser(), aggregationRule: { clusterRoleSelectors: [] } };
    await checkEscalation(attrs(user('mallory'), 'clusterroles', empty, '', 'UPDATE', basicUser()), opts);
  });

  it('lets escalate on clusterroles, every permission and system:masters through', async () => {
    const opts = aggSetup();
    const update = (u: UserInfo) => checkEscalation(attrs(u, 'clusterroles', basicUser(SELECT_DEFAULTS), '', 'UPDATE', basicUser()), opts);
    await update(user('esc'));
    await update(user('admin'));
    await update(user('root', 'system:masters'));
    // `*` on every resource includes escalate on clusterroles.
    await update(user('almost'));
    // Every URL and every RBAC verb but escalate is not enough.
    const err = await rejection(update(user('urls-and-rbac')));
    assert.equal(err.message, MESSAGE);
  });
});

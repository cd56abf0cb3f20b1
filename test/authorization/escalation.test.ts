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
  index.upsert('clusterrolebindings', clusterRoleBinding('writers', 'rbac-writer', [U('alice'), U('bob'), U('carol')]));
  index.upsert('rolebindings', roleBinding('ns1', 'alice-reads', 'ClusterRole', 'widget-reader', [U('alice')]));
  index.upsert('rolebindings', roleBinding('ns1', 'bob-binds', 'ClusterRole', 'binder', [U('bob')]));
  index.upsert('rolebindings', roleBinding('ns1', 'carol-escalates', 'ClusterRole', 'escalator', [U('carol')]));
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

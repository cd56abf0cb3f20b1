/**
 * Writes of RBAC objects over HTTPS: escalation prevention (escalate and bind), kube's RBAC
 * validation and defaults, and the policy taking effect for later requests.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { policyObjects, RBAC, W } from './matrix.js';
import { startRBACServer, waitUntil, type RBACServer } from './rbacserver.js';

const R = `/apis/${RBAC}/v1`;
let rbac: RBACServer;

const role = (name: string, rules: unknown[]) => ({ apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name }, rules });
const binding = (kind: 'RoleBinding' | 'ClusterRoleBinding', name: string, roleKind: string, roleName: string, subjects: unknown[] = [{ kind: 'User', name: 'someone' }]) => ({
  apiVersion: `${RBAC}/v1`,
  kind,
  metadata: { name },
  roleRef: { apiGroup: RBAC, kind: roleKind, name: roleName },
  subjects,
});

before(async () => {
  rbac = await startRBACServer();
  const admin = rbac.as.admin!;
  for (const ns of ['ns1', 'ns2']) await admin('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } });
  for (const { path, body } of policyObjects()) assert.equal((await admin('POST', path, { body })).status, 201);
  await waitUntil(async () => (await rbac.as.frank!('GET', `${R}/clusterroles/empty`)).status === 200);
});

after(() => rbac?.close());

describe('RBAC escalation prevention', () => {
  it('refuses a Role granting what the writer does not hold, with kube\'s message', async () => {
    const reply = await rbac.as.frank!('POST', `${R}/namespaces/ns1/roles`, { body: role('deleter', [{ apiGroups: [W], resources: ['widgets'], verbs: ['get', 'delete'] }]) });
    assert.equal(reply.status, 403);
    assert.equal(reply.body.reason, 'Forbidden');
    assert.equal(
      reply.body.message,
      'roles.rbac.authorization.k8s.io "deleter" is forbidden: user "frank" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:["widgets.example.com"], Resources:["widgets"], Verbs:["get" "delete"]}',
    );
    assert.deepEqual(reply.body.details, { name: 'deleter', group: RBAC, kind: 'roles' });
    assert.equal((await rbac.as.admin!('GET', `${R}/namespaces/ns1/roles/deleter`)).status, 404);
  });

  it('lets a namespace admin delegate what they hold there, and nothing more', async () => {
    const ok = await rbac.as.carol!('POST', `${R}/namespaces/ns2/roles`, { body: role('widget-reader', [{ apiGroups: [W], resources: ['widgets'], verbs: ['get', 'list'] }]) });
    assert.equal(ok.status, 201, ok.text);
    const bound = await rbac.as.carol!('POST', `${R}/namespaces/ns2/rolebindings`, { body: binding('RoleBinding', 'erin-reads', 'Role', 'widget-reader', [{ kind: 'User', name: 'erin' }]) });
    assert.equal(bound.status, 201, bound.text);
    await waitUntil(async () => (await rbac.as.erin!('GET', '/apis/widgets.example.com/v1/namespaces/ns2/widgets')).status === 200, 'erin to read widgets in ns2');
    assert.equal((await rbac.as.erin!('GET', '/apis/widgets.example.com/v1/namespaces/ns1/widgets')).status, 403);
    // Namespaces are cluster-scoped: carol holds no delete on them.
    const escalates = await rbac.as.carol!('POST', `${R}/namespaces/ns2/roles`, { body: role('ns-deleter', [{ apiGroups: [''], resources: ['namespaces'], verbs: ['delete'] }]) });
    assert.equal(escalates.status, 403);
    assert.match(escalates.body.message, /not currently held:\n\{APIGroups:\[""\], Resources:\["namespaces"\], Verbs:\["delete"\]\}$/);
    // Binding cluster-admin in her namespace would grant more than she holds.
    const admin = await rbac.as.carol!('POST', `${R}/namespaces/ns2/rolebindings`, { body: binding('RoleBinding', 'erin-admin', 'ClusterRole', 'cluster-admin') });
    assert.equal(admin.status, 403);
    assert.match(admin.body.message, /^rolebindings\.rbac\.authorization\.k8s\.io "erin-admin" is forbidden: user "carol" .*not currently held:\n/);
  });

  it('lets the escalate and bind verbs through', async () => {
    const admin = rbac.as.admin!;
    const grant = async (name: string, rules: unknown[]) => {
      assert.equal((await admin('POST', `${R}/clusterroles`, { body: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name }, rules } })).status, 201);
      assert.equal((await admin('POST', `${R}/clusterrolebindings`, { body: binding('ClusterRoleBinding', name, 'ClusterRole', name, [{ kind: 'User', name: 'frank' }]) })).status, 201);
    };
    const bindView = () => rbac.as.frank!('POST', `${R}/clusterrolebindings`, { body: binding('ClusterRoleBinding', 'someone-views', 'ClusterRole', 'view') });
    assert.equal((await bindView()).status, 403);
    await grant('bind-view', [{ apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['view'] }]);
    await waitUntil(async () => (await bindView()).status === 201, 'frank to bind view');
    const bigRole = () => rbac.as.frank!('POST', `${R}/namespaces/ns1/roles`, { body: role('big', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]) });
    assert.equal((await bigRole()).status, 403);
    await grant('escalate-roles', [{ apiGroups: [RBAC], resources: ['roles'], verbs: ['escalate'] }]);
    await waitUntil(async () => (await bigRole()).status === 201, 'frank to escalate roles');
  });

  it('checks updates too, but not ones that only touch finalizers or owner references', async () => {
    const admin = rbac.as.admin!;
    // A ClusterRole: by now frank may escalate roles, not clusterroles.
    const path = `${R}/clusterroles/held-by-admin`;
    const body = { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'held-by-admin' }, rules: [{ apiGroups: [W], resources: ['widgets'], verbs: ['delete'] }] };
    assert.equal((await admin('POST', `${R}/clusterroles`, { body })).status, 201);
    const finalizer = await rbac.as.frank!('PATCH', path, { body: { metadata: { finalizers: ['example.com/keep'] } }, contentType: 'application/merge-patch+json' });
    assert.equal(finalizer.status, 200, finalizer.text);
    const label = await rbac.as.frank!('PATCH', path, { body: { metadata: { labels: { a: 'b' } } }, contentType: 'application/merge-patch+json' });
    assert.equal(label.status, 403);
    assert.match(label.body.message, /is attempting to grant RBAC permissions not currently held/);
  });
});

describe('RBAC validation and defaults', () => {
  const admin = () => rbac.as.admin!;

  it('defaults subject and roleRef API groups, and allows names with colons', async () => {
    const body = { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'system:x' }, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'u' }, { kind: 'ServiceAccount', name: 'sa' }] };
    const reply = await admin()('POST', `${R}/namespaces/ns1/rolebindings`, { body });
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.body.roleRef.apiGroup, RBAC);
    assert.deepEqual(reply.body.subjects, [{ kind: 'User', name: 'u', apiGroup: RBAC }, { kind: 'ServiceAccount', name: 'sa' }]);
  });

  it('rejects invalid rules, role references and subjects with kube\'s messages', async () => {
    const urls = await admin()('POST', `${R}/namespaces/ns1/roles`, { body: role('urls', [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }]) });
    assert.equal(urls.status, 422);
    assert.equal(urls.body.message, 'Role.rbac.authorization.k8s.io "urls" is invalid: rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs');
    const noVerbs = await admin()('POST', `${R}/clusterroles`, { body: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'nv' }, rules: [{ verbs: [], apiGroups: [''], resources: ['pods'] }] } });
    assert.equal(noVerbs.status, 422);
    assert.match(noVerbs.body.message, /rules\[0\]\.verbs: Required value: verbs must contain at least one value/);
    const badRef = await admin()('POST', `${R}/clusterrolebindings`, { body: binding('ClusterRoleBinding', 'bad', 'Role', 'x', [{ kind: 'ServiceAccount', name: 'sa' }, { kind: 'Robot', name: 'r' }]) });
    assert.equal(badRef.status, 422);
    assert.equal(
      badRef.body.message,
      'ClusterRoleBinding.rbac.authorization.k8s.io "bad" is invalid: [roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole", subjects[0].namespace: Required value, subjects[1].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"]',
    );
  });

  it('keeps roleRef immutable', async () => {
    assert.equal((await admin()('POST', `${R}/namespaces/ns1/rolebindings`, { body: binding('RoleBinding', 'fixed', 'ClusterRole', 'view') })).status, 201);
    const changed = await admin()('PATCH', `${R}/namespaces/ns1/rolebindings/fixed`, { body: { roleRef: { name: 'edit' } }, contentType: 'application/merge-patch+json' });
    assert.equal(changed.status, 422);
    assert.match(changed.body.message, /roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef$/);
  });
});

// A minimal protobuf writer for `k8s\0` + runtime.Unknown{typeMeta, raw} bodies, as kubectl sends.
const enc = new TextEncoder();
const varint = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...varint(n >>> 7)]);
const pbBytes = (field: number, data: number[]) => [...varint((field << 3) | 2), ...varint(data.length), ...data];
const pbStr = (field: number, s: string) => pbBytes(field, [...enc.encode(s)]);
const pbMsg = (field: number, ...parts: number[][]) => pbBytes(field, parts.flat());

/** A ClusterRole with no rules and an aggregationRule selecting matchLabels {key: value}, in protobuf. */
function protobufAggregatingClusterRole(name: string, key: string, value: string, resourceVersion?: string): Uint8Array {
  const meta = pbMsg(1, pbStr(1, name), resourceVersion ? pbStr(6, resourceVersion) : []);
  const selector = pbMsg(1, pbMsg(1, pbStr(1, key), pbStr(2, value)));
  const raw = [...meta, ...pbMsg(3, selector)];
  return Uint8Array.from([0x6b, 0x38, 0x73, 0x00, ...pbMsg(1, pbStr(1, `${RBAC}/v1`), pbStr(2, 'ClusterRole')), ...pbBytes(2, raw)]);
}

describe('aggregationRule needs cluster-admin on every write path (issue 12 item 1)', () => {
  const SELECT_DEFAULTS = { clusterRoleSelectors: [{ matchLabels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } }] };
  const forbidden = (name: string) => `clusterroles.rbac.authorization.k8s.io "${name}" is forbidden: must have cluster-admin privileges to use the aggregationRule`;
  const BASIC = `${R}/clusterroles/system:basic-user`;
  const PB = 'application/vnd.kubernetes.protobuf';

  async function assertRefused(reply: { status: number; body: { reason?: string; message?: string }; text: string }, name: string) {
    assert.equal(reply.status, 403, reply.text);
    assert.equal(reply.body.reason, 'Forbidden');
    assert.equal(reply.body.message, forbidden(name));
  }

  async function assertBasicUserUntouched() {
    const basic = await rbac.as.admin!('GET', BASIC);
    assert.equal(basic.status, 200);
    assert.equal(basic.body.aggregationRule, undefined, basic.text);
    // The probe's aftermath: an ordinary user still cannot list namespaces or bind cluster-admin.
    assert.equal((await rbac.as.erin!('GET', '/api/v1/namespaces')).status, 403);
  }

  it('refuses frank (every RBAC verb but escalate and bind) on create, update, every patch type, apply and protobuf', async () => {
    const frank = rbac.as.frank!;
    const current = await frank('GET', BASIC);
    assert.equal(current.status, 200, current.text);
    const withRule = { ...current.body, aggregationRule: SELECT_DEFAULTS };
    const merge = await frank('PATCH', BASIC, { body: { aggregationRule: SELECT_DEFAULTS }, contentType: 'application/merge-patch+json' });
    await assertRefused(merge, 'system:basic-user');
    const json = await frank('PATCH', BASIC, { body: [{ op: 'add', path: '/aggregationRule', value: SELECT_DEFAULTS }], contentType: 'application/json-patch+json' });
    await assertRefused(json, 'system:basic-user');
    // Strategic merge patch is refused with 415 for RBAC kinds today; once accepted, it must meet the same check.
    const strategic = await frank('PATCH', BASIC, { body: { aggregationRule: SELECT_DEFAULTS }, contentType: 'application/strategic-merge-patch+json' });
    assert.ok(strategic.status === 415 || strategic.status === 403, strategic.text);
    if (strategic.status === 403) assert.equal(strategic.body.message, forbidden('system:basic-user'));
    const applyBody = { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'system:basic-user' }, aggregationRule: SELECT_DEFAULTS };
    const apply = await frank('PATCH', `${BASIC}?fieldManager=mallory&force=true`, { body: applyBody, contentType: 'application/apply-patch+yaml' });
    await assertRefused(apply, 'system:basic-user');
    const put = await frank('PUT', BASIC, { body: withRule });
    await assertRefused(put, 'system:basic-user');
    const putPB = await frank('PUT', BASIC, { body: protobufAggregatingClusterRole('system:basic-user', 'kubernetes.io/bootstrapping', 'rbac-defaults', current.body.metadata.resourceVersion), contentType: PB });
    await assertRefused(putPB, 'system:basic-user');
    await assertBasicUserUntouched();

    const create = await frank('POST', `${R}/clusterroles`, { body: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'gatherer' }, aggregationRule: SELECT_DEFAULTS } });
    await assertRefused(create, 'gatherer');
    const createPB = await frank('POST', `${R}/clusterroles`, { body: protobufAggregatingClusterRole('gatherer', 'kubernetes.io/bootstrapping', 'rbac-defaults'), contentType: PB });
    await assertRefused(createPB, 'gatherer');
    const applyCreate = await frank('PATCH', `${R}/clusterroles/gatherer?fieldManager=mallory`, { body: { ...applyBody, metadata: { name: 'gatherer' } }, contentType: 'application/apply-patch+yaml' });
    await assertRefused(applyCreate, 'gatherer');
    // An empty selector gathers everything: the same rule.
    const everything = await frank('POST', `${R}/clusterroles`, { body: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'gatherer' }, aggregationRule: { clusterRoleSelectors: [{}] } } });
    await assertRefused(everything, 'gatherer');
    assert.equal((await rbac.as.admin!('GET', `${R}/clusterroles/gatherer`)).status, 404);
    // Dry run is checked the same way.
    await assertRefused(await frank('POST', `${R}/clusterroles?dryRun=All`, { body: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'gatherer' }, aggregationRule: SELECT_DEFAULTS } }), 'gatherer');
  });

  it('refuses removing or changing an aggregationRule, and checks rules and bindings on apply and JSON patch too', async () => {
    const frank = rbac.as.frank!;
    // admin aggregates to admin, edit and view; frank holds none of their rules.
    const drop = await frank('PATCH', `${R}/clusterroles/view`, { body: [{ op: 'remove', path: '/aggregationRule' }], contentType: 'application/json-patch+json' });
    assert.equal(drop.status, 403, drop.text);
    // Rules frank does not hold, by server-side apply.
    const rules = await frank('PATCH', `${R}/clusterroles/applied-rules?fieldManager=mallory`, {
      body: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'applied-rules' }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] },
      contentType: 'application/apply-patch+yaml',
    });
    assert.equal(rules.status, 403, rules.text);
    assert.match(rules.body.message, /is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\[""\], Resources:\["secrets"\], Verbs:\["get"\]\}$/);
    // Adding himself to a binding of a role he does not hold, by JSON patch and by apply.
    const addSelf = [{ op: 'add', path: '/subjects/-', value: { kind: 'User', apiGroup: RBAC, name: 'frank' } }];
    // (By now frank may bind view, not admin.)
    const patched = await frank('PATCH', `${R}/namespaces/ns2/rolebindings/carol-admin`, { body: addSelf, contentType: 'application/json-patch+json' });
    assert.equal(patched.status, 403, patched.text);
    assert.match(patched.body.message, /^rolebindings\.rbac\.authorization\.k8s\.io "carol-admin" is forbidden: user "frank" .*not currently held/);
    const applied = await frank('PATCH', `${R}/clusterrolebindings/frank-admin?fieldManager=mallory`, {
      body: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'frank-admin' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'cluster-admin' }, subjects: [{ kind: 'User', apiGroup: RBAC, name: 'frank' }] },
      contentType: 'application/apply-patch+yaml',
    });
    assert.equal(applied.status, 403, applied.text);
    assert.equal((await rbac.as.admin!('GET', `${R}/clusterrolebindings/frank-admin`)).status, 404);
  });

  it('lets escalate on clusterroles and system:masters set one', async () => {
    const admin = rbac.as.admin!;
    const rules = [{ apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['get', 'create', 'patch', 'escalate'] }];
    assert.equal((await admin('POST', `${R}/clusterroles`, { body: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'aggregator' }, rules } })).status, 201);
    assert.equal((await admin('POST', `${R}/clusterrolebindings`, { body: binding('ClusterRoleBinding', 'erin-aggregates', 'ClusterRole', 'aggregator', [{ kind: 'User', name: 'erin' }]) })).status, 201);
    const body = (name: string) => ({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/aggregate-to-gathered': 'true' } }] } });
    await waitUntil(async () => (await rbac.as.erin!('POST', `${R}/clusterroles`, { body: body('gathered-by-erin') })).status === 201, 'erin to escalate clusterroles');
    assert.equal((await admin('POST', `${R}/clusterroles`, { body: body('gathered-by-admin') })).status, 201);
  });
});

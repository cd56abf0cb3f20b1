/**
 * SelfSubjectAccessReview and SelfSubjectRulesReview over HTTPS: JSON and protobuf bodies, the
 * answers for the requesting user, validation, and create-only serving.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { policyObjects } from './matrix.js';
import { startRBACServer, waitUntil, type RBACServer } from './rbacserver.js';

const SSAR = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
const SSRR = '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews';
let rbac: RBACServer;

const review = (resourceAttributes: Record<string, string>) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes } });

// A minimal protobuf writer: kubectl sends `k8s\0` + runtime.Unknown{typeMeta, raw}.
const enc = new TextEncoder();
const varint = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...varint(n >>> 7)]);
const bytes = (field: number, data: number[]) => [...varint((field << 3) | 2), ...varint(data.length), ...data];
const str = (field: number, s: string) => bytes(field, [...enc.encode(s)]);
const msg = (field: number, ...parts: number[][]) => bytes(field, parts.flat());

function protobufReview(attrs: { namespace: string; verb: string; group: string; resource: string }): Uint8Array {
  const raw = msg(2, msg(1, str(1, attrs.namespace), str(2, attrs.verb), str(3, attrs.group), str(5, attrs.resource)));
  return Uint8Array.from([0x6b, 0x38, 0x73, 0x00, ...msg(1, str(1, 'authorization.k8s.io/v1'), str(2, 'SelfSubjectAccessReview')), ...bytes(2, raw)]);
}

before(async () => {
  rbac = await startRBACServer();
  const admin = rbac.as.admin!;
  for (const ns of ['ns1', 'ns2']) await admin('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } });
  for (const { path, body } of policyObjects()) assert.equal((await admin('POST', path, { body })).status, 201);
  await waitUntil(async () => (await rbac.as.frank!('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/empty')).status === 200);
});

after(() => rbac?.close());

describe('SelfSubjectAccessReview', () => {
  it('answers for the requesting user, with the RBAC reason', async () => {
    const yes = await rbac.as.alice!('POST', SSAR, { body: review({ namespace: 'ns1', verb: 'delete', group: 'widgets.example.com', resource: 'widgets' }) });
    assert.equal(yes.status, 201);
    assert.equal(yes.body.kind, 'SelfSubjectAccessReview');
    assert.deepEqual(yes.body.status, { allowed: true, reason: 'RBAC: allowed by RoleBinding "alice-edits/ns1" of Role "widget-editor" to User "alice"' });
    const no = await rbac.as.alice!('POST', SSAR, { body: review({ namespace: 'ns2', verb: 'delete', group: 'widgets.example.com', resource: 'widgets' }) });
    assert.deepEqual(no.body.status, { allowed: false });
    const sub = await rbac.as.dave!('POST', SSAR, { body: review({ namespace: 'ns1', verb: 'patch', group: 'widgets.example.com', resource: 'widgets', subresource: 'scale' }) });
    assert.equal(sub.body.status.allowed, true);
    const masters = await rbac.as.root!('POST', SSAR, { body: review({ verb: '*', group: '*', resource: '*' }) });
    assert.deepEqual(masters.body.status, { allowed: true });
  });

  it('answers non-resource questions', async () => {
    const body = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } } };
    const reply = await rbac.as.erin!('POST', SSAR, { body });
    assert.equal(reply.status, 201);
    assert.equal(reply.body.status.allowed, true);
    assert.match(reply.body.status.reason, /^RBAC: allowed by ClusterRoleBinding "system:(discovery|public-info-viewer)" of ClusterRole/);
  });

  it('decodes kubectl\'s protobuf body', async () => {
    const body = protobufReview({ namespace: 'ns2', verb: 'create', group: 'rbac.authorization.k8s.io', resource: 'roles' });
    const headers = { accept: 'application/vnd.kubernetes.protobuf,application/json' };
    const yes = await rbac.as.carol!('POST', SSAR, { body, contentType: 'application/vnd.kubernetes.protobuf', headers });
    assert.equal(yes.status, 201, yes.text);
    assert.equal(yes.body.spec.resourceAttributes.resource, 'roles');
    assert.equal(yes.body.status.allowed, true);
    const no = await rbac.as.bob!('POST', SSAR, { body, contentType: 'application/vnd.kubernetes.protobuf', headers });
    assert.equal(no.body.status.allowed, false);
  });

  it('needs exactly one of resourceAttributes and nonResourceAttributes (422)', async () => {
    const none = await rbac.as.alice!('POST', SSAR, { body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: {} } });
    assert.equal(none.status, 422);
    assert.equal(none.body.message, 'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified');
    const both = await rbac.as.alice!('POST', SSAR, { body: { spec: { resourceAttributes: { verb: 'get' }, nonResourceAttributes: { path: '/x', verb: 'get' } } } });
    assert.equal(both.status, 422);
    assert.equal(
      both.body.message,
      'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: &authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes',
    );
  });

  it('is create-only and stores nothing', async () => {
    assert.equal((await rbac.as.root!('GET', SSAR)).status, 405);
    assert.equal((await rbac.as.root!('GET', `${SSAR}/x`)).status, 405);
    assert.equal((await rbac.as.root!('DELETE', `${SSAR}/x`)).status, 405);
    const named = await rbac.as.root!('POST', SSAR, { body: { ...review({ verb: 'get', resource: 'widgets' }), metadata: { name: 'kept' } } });
    assert.equal(named.status, 201);
    assert.equal(named.body.metadata.resourceVersion, undefined);
    assert.equal(named.body.metadata.uid, undefined);
  });

  it('is allowed for every authenticated user (system:basic-user), and not for anonymous', async () => {
    assert.equal((await rbac.as.erin!('POST', SSAR, { body: review({ verb: 'get', resource: 'widgets' }) })).status, 201);
    assert.equal((await rbac.client({})('POST', SSAR, { body: review({ verb: 'get', resource: 'widgets' }) })).status, 401);
  });
});

describe('SelfSubjectRulesReview', () => {
  it('lists the rules that apply to the user in the namespace', async () => {
    const reply = await rbac.as.alice!('POST', SSRR, { body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'ns1' } } });
    assert.equal(reply.status, 201, reply.text);
    const { resourceRules, nonResourceRules, incomplete } = reply.body.status;
    assert.equal(incomplete, false);
    assert.deepEqual(
      resourceRules.filter((r: { apiGroups?: string[] }) => r.apiGroups?.includes('widgets.example.com')),
      [
        { verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'], apiGroups: ['widgets.example.com'], resources: ['widgets'] },
        { verbs: ['get', 'update', 'patch'], apiGroups: ['widgets.example.com'], resources: ['widgets/status'] },
      ],
    );
    assert.ok(resourceRules.some((r: { resources?: string[] }) => r.resources?.includes('selfsubjectaccessreviews')));
    assert.ok(nonResourceRules.some((r: { nonResourceURLs?: string[] }) => r.nonResourceURLs?.includes('/apis/*')));
    const elsewhere = await rbac.as.alice!('POST', SSRR, { body: { spec: { namespace: 'ns2' } } });
    assert.ok(!elsewhere.body.status.resourceRules.some((r: { apiGroups?: string[] }) => r.apiGroups?.includes('widgets.example.com')));
  });

  it('needs a namespace (400)', async () => {
    const reply = await rbac.as.alice!('POST', SSRR, { body: { spec: {} } });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.message, 'no namespace on request');
  });
});

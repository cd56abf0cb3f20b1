/**
 * The review APIs delegation relies on, over HTTPS against an in-process server: TokenReview
 * (the server's own token authenticators), SelfSubjectReview (`kubectl auth whoami` for token,
 * certificate and ServiceAccount users, kubectl 1.27 through v1beta1), SubjectAccessReview and LocalSubjectAccessReview, authorised as kube
 * authorises them (system:auth-delegator), and the bootstrap extension-apiserver-authentication-reader Role.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { execFile } from 'node:child_process';
import { policyObjects } from '../authorization/matrix.js';
import { startRBACServer, waitUntil, type RBACServer } from '../authorization/rbacserver.js';

const TR = '/apis/authentication.k8s.io/v1/tokenreviews';
const SSR = '/apis/authentication.k8s.io/v1/selfsubjectreviews';
const SAR = '/apis/authorization.k8s.io/v1/subjectaccessreviews';
const LSAR = (ns: string) => `/apis/authorization.k8s.io/v1/namespaces/${ns}/localsubjectaccessreviews`;
let rbac: RBACServer;
/** The server's audience by default (kube's --api-audiences defaults to the service account issuer). */
const ISSUER = 'https://kubernetes.default.svc.cluster.local';

const tokenReview = (token: string, audiences?: string[]) => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token, ...(audiences ? { audiences } : {}) } });
const sar = (kind: string, spec: Record<string, unknown>) => ({ apiVersion: 'authorization.k8s.io/v1', kind, spec });
const aliceDeletes = (namespace: string) => ({ namespace, verb: 'delete', group: 'widgets.example.com', resource: 'widgets' });

before(async () => {
  rbac = await startRBACServer();
  const admin = rbac.as.admin!;
  for (const ns of ['ns1', 'ns2']) await admin('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } });
  for (const { path, body } of policyObjects()) assert.equal((await admin('POST', path, { body })).status, 201);
  // frank may delegate: kube's system:auth-delegator, as an aggregated server's identity gets it.
  const binding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'frank-delegates' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:auth-delegator' },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'frank' }],
  };
  assert.equal((await admin('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', { body: binding })).status, 201);
  await waitUntil(async () => (await rbac.as.frank!('POST', TR, { body: tokenReview('x') })).status === 201);
});

after(() => rbac?.close());

describe('TokenReview', () => {
  it('authenticates a token with the server\'s own authenticators', async () => {
    const yes = await rbac.as.frank!('POST', TR, { body: tokenReview('token-bob') });
    assert.equal(yes.status, 201);
    assert.equal(yes.body.kind, 'TokenReview');
    assert.deepEqual(yes.body.status, { authenticated: true, user: { username: 'bob', uid: 'uid-2', groups: ['viewers', 'system:authenticated'] }, audiences: [ISSUER] });
    const no = await rbac.as.frank!('POST', TR, { body: tokenReview('not-a-token') });
    assert.equal(no.status, 201);
    // kube's shape: authenticated false is omitted, user is empty, and the bearer-token
    // authenticator's error says why.
    assert.deepEqual(no.body.status, { user: {}, error: 'invalid bearer token' });
  });

  it('accepts audience-agnostic (static) tokens only for the server\'s audiences, as kube', async () => {
    const reply = await rbac.as.frank!('POST', TR, { body: tokenReview('token-bob', ['aggregated', ISSUER]) });
    assert.equal(reply.body.status.authenticated, true);
    assert.deepEqual(reply.body.status.audiences, [ISSUER]);
    const other = await rbac.as.frank!('POST', TR, { body: tokenReview('token-bob', ['aggregated']) });
    // kube's WrapAudienceAgnosticToken says "not mine"; the bearer-token wrapper makes that its error.
    assert.deepEqual(other.body.status, { user: {}, error: 'invalid bearer token' });
  });

  it('decodes the protobuf body Go clients send', async () => {
    const enc = new TextEncoder();
    const varint = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...varint(n >>> 7)]);
    const bytes = (field: number, data: number[]) => [...varint((field << 3) | 2), ...varint(data.length), ...data];
    const str = (field: number, s: string) => bytes(field, [...enc.encode(s)]);
    const raw = bytes(2, [...str(1, 'token-bob'), ...str(2, ISSUER)]);
    const body = Uint8Array.from([0x6b, 0x38, 0x73, 0x00, ...bytes(1, [...str(1, 'authentication.k8s.io/v1'), ...str(2, 'TokenReview')]), ...bytes(2, raw)]);
    const reply = await rbac.as.frank!('POST', TR, { body, contentType: 'application/vnd.kubernetes.protobuf' });
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.body.status.user.username, 'bob');
    assert.deepEqual(reply.body.status.audiences, [ISSUER]);
  });

  it('requires a token', async () => {
    const reply = await rbac.as.frank!('POST', TR, { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: {} } });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.message, 'token is required for TokenReview in authentication');
  });

  it('is refused without create tokenreviews (system:auth-delegator)', async () => {
    const reply = await rbac.as.alice!('POST', TR, { body: tokenReview('token-bob') });
    assert.equal(reply.status, 403);
    assert.match(reply.body.message, /cannot create resource "tokenreviews" in API group "authentication.k8s.io" at the cluster scope/);
  });
});

describe('SelfSubjectReview', () => {
  it('answers with the requesting token or certificate user', async () => {
    const bob = await rbac.as.bob!('POST', SSR, { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
    assert.equal(bob.status, 201);
    assert.deepEqual(bob.body.status.userInfo, { username: 'bob', uid: 'uid-2', groups: ['viewers', 'system:authenticated'] });
    assert.match(bob.body.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const admin = await rbac.as.admin!('POST', SSR, { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
    assert.ok(admin.body.status.userInfo.groups.includes('system:masters'));
  });

  it('makes `kubectl auth whoami` work for certificate and token users', async () => {
    const kubeconfig = rbac.server.kubeconfigPath!;
    const cert = await kubectl(kubeconfig, ['auth', 'whoami', '-o', 'json']);
    assert.equal(cert.code, 0, cert.stderr);
    const certUser = JSON.parse(cert.stdout).status.userInfo;
    assert.ok(certUser.groups.includes('system:masters'));
    const tokenConfig = join(rbac.dataDir, 'kubeconfig-bob');
    writeFileSync(tokenConfig, await readKubeconfigWithToken(kubeconfig, 'token-bob'));
    const token = await kubectl(tokenConfig, ['auth', 'whoami']);
    assert.equal(token.code, 0, token.stderr);
    assert.match(token.stdout, /Username\s+bob/);
    assert.match(token.stdout, /Groups\s+\[viewers system:authenticated\]/);
  });

  it('answers kubectl 1.27, which asks authentication.k8s.io/v1beta1', async () => {
    const r = await kubectl(rbac.server.kubeconfigPath!, ['auth', 'whoami', '-o', 'json'], '/usr/lib/google-cloud-sdk/bin/kubectl.1.27');
    assert.equal(r.code, 0, r.stderr);
    const review = JSON.parse(r.stdout);
    assert.equal(review.apiVersion, 'authentication.k8s.io/v1beta1');
    assert.ok(review.status.userInfo.groups.includes('system:masters'));
  });
});

describe('kubectl auth whoami for a ServiceAccount user', () => {
  /** A token from `kubectl create token` (TokenRequest), in a kubeconfig of its own. */
  async function serviceAccountKubeconfig(): Promise<string> {
    const admin = rbac.server.kubeconfigPath!;
    const created = await rbac.as.admin!('POST', '/api/v1/namespaces/ns1/serviceaccounts', { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } } });
    assert.ok(created.status === 201 || created.status === 409, created.text);
    const token = await kubectl(admin, ['create', 'token', 'robot', '-n', 'ns1']);
    assert.equal(token.code, 0, token.stderr);
    const path = join(rbac.dataDir, 'kubeconfig-robot');
    writeFileSync(path, await readKubeconfigWithToken(admin, token.stdout.trim()));
    return path;
  }

  const SA_GROUPS = ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'];

  it('kubectl 1.28 and 1.32 (authentication.k8s.io/v1) show the ServiceAccount, its uid and its groups', async () => {
    const kubeconfig = await serviceAccountKubeconfig();
    const sa = await rbac.as.admin!('GET', '/api/v1/namespaces/ns1/serviceaccounts/robot');
    for (const binary of ['/usr/lib/google-cloud-sdk/bin/kubectl.1.28', 'kubectl']) {
      const r = await kubectl(kubeconfig, ['auth', 'whoami', '-o', 'json'], binary);
      assert.equal(r.code, 0, `${binary}: ${r.stderr}`);
      const review = JSON.parse(r.stdout);
      assert.equal(review.apiVersion, 'authentication.k8s.io/v1', binary);
      assert.equal(review.status.userInfo.username, 'system:serviceaccount:ns1:robot');
      assert.equal(review.status.userInfo.uid, sa.body.metadata.uid);
      assert.deepEqual(review.status.userInfo.groups, SA_GROUPS);
      // kube's ServiceAccount authenticator names the token's jti as the credential.
      assert.match(review.status.userInfo.extra['authentication.kubernetes.io/credential-id'][0], /^JTI=[0-9a-f-]{36}$/);
    }
    const table = await kubectl(kubeconfig, ['auth', 'whoami']);
    assert.match(table.stdout, /Username\s+system:serviceaccount:ns1:robot/);
    assert.match(table.stdout, /Groups\s+\[system:serviceaccounts system:serviceaccounts:ns1 system:authenticated\]/);
  });

  it('kubectl 1.27 (authentication.k8s.io/v1beta1) too', async () => {
    const kubeconfig = await serviceAccountKubeconfig();
    const r = await kubectl(kubeconfig, ['auth', 'whoami', '-o', 'json'], '/usr/lib/google-cloud-sdk/bin/kubectl.1.27');
    assert.equal(r.code, 0, r.stderr);
    const review = JSON.parse(r.stdout);
    assert.equal(review.apiVersion, 'authentication.k8s.io/v1beta1');
    assert.equal(review.status.userInfo.username, 'system:serviceaccount:ns1:robot');
    assert.deepEqual(review.status.userInfo.groups, SA_GROUPS);
  });
});

describe('SubjectAccessReview', () => {
  it('answers for the user and groups of the spec', async () => {
    const yes = await rbac.as.frank!('POST', SAR, { body: sar('SubjectAccessReview', { user: 'alice', resourceAttributes: aliceDeletes('ns1') }) });
    assert.equal(yes.status, 201);
    assert.deepEqual(yes.body.status, { allowed: true, reason: 'RBAC: allowed by RoleBinding "alice-edits/ns1" of Role "widget-editor" to User "alice"' });
    const no = await rbac.as.frank!('POST', SAR, { body: sar('SubjectAccessReview', { user: 'alice', resourceAttributes: aliceDeletes('ns2') }) });
    assert.deepEqual(no.body.status, { allowed: false });
    const group = await rbac.as.frank!('POST', SAR, { body: sar('SubjectAccessReview', { user: 'someone', groups: ['viewers'], resourceAttributes: { namespace: 'ns2', verb: 'list', group: 'widgets.example.com', resource: 'widgets' } }) });
    assert.equal(group.body.status.allowed, true);
    const nonResource = await rbac.as.frank!('POST', SAR, { body: sar('SubjectAccessReview', { user: 'x', groups: ['system:authenticated'], nonResourceAttributes: { path: '/healthz', verb: 'get' } }) });
    assert.equal(nonResource.body.status.allowed, true);
  });

  it('validates as kube: a user or groups, and exactly one attribute set', async () => {
    const reply = await rbac.as.frank!('POST', SAR, { body: sar('SubjectAccessReview', { resourceAttributes: aliceDeletes('ns1') }) });
    assert.equal(reply.status, 422);
    assert.equal(reply.body.reason, 'Invalid');
    assert.deepEqual(reply.body.details.causes, [{ reason: 'FieldValueInvalid', message: 'Invalid value: "": at least one of user or group must be specified', field: 'spec.user' }]);
  });

  it('is refused without create subjectaccessreviews', async () => {
    const reply = await rbac.as.alice!('POST', SAR, { body: sar('SubjectAccessReview', { user: 'alice', resourceAttributes: aliceDeletes('ns1') }) });
    assert.equal(reply.status, 403);
  });
});

describe('LocalSubjectAccessReview', () => {
  it('answers in the namespace it is posted to, defaulting the spec\'s', async () => {
    const { namespace: _n, ...attrs } = aliceDeletes('ns1');
    const reply = await rbac.as.root!('POST', LSAR('ns1'), { body: sar('LocalSubjectAccessReview', { user: 'alice', resourceAttributes: attrs }) });
    assert.equal(reply.status, 201);
    assert.equal(reply.body.metadata.namespace, 'ns1');
    assert.equal(reply.body.status.allowed, true);
  });

  it('refuses another namespace in the spec, and non-resource attributes', async () => {
    const other = await rbac.as.root!('POST', LSAR('ns1'), { body: sar('LocalSubjectAccessReview', { user: 'alice', resourceAttributes: aliceDeletes('ns2') }) });
    assert.equal(other.status, 400);
    assert.equal(other.body.message, 'spec.resourceAttributes.namespace must match namespace: ns1');
    const nonResource = await rbac.as.root!('POST', LSAR('ns1'), { body: sar('LocalSubjectAccessReview', { user: 'alice', nonResourceAttributes: { path: '/x', verb: 'get' } }) });
    assert.equal(nonResource.status, 422);
    assert.match(nonResource.body.message, /spec.nonResourceAttributes: Invalid value: .*disallowed on this kind of request/);
  });
});

describe('bootstrap policy for delegation', () => {
  it('has system:auth-delegator and kube-system/extension-apiserver-authentication-reader', async () => {
    const role = await rbac.as.admin!('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/system:auth-delegator');
    assert.deepEqual(role.body.rules, [
      { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
      { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
    ]);
    const reader = await rbac.as.admin!('GET', '/apis/rbac.authorization.k8s.io/v1/namespaces/kube-system/roles/extension-apiserver-authentication-reader');
    assert.equal(reader.status, 200);
    assert.deepEqual(reader.body.rules, [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['extension-apiserver-authentication'], verbs: ['get', 'list', 'watch'] }]);
  });
});

/** The server's kubeconfig with the admin certificate replaced by a bearer token. */
async function readKubeconfigWithToken(kubeconfig: string, token: string): Promise<string> {
  const r = await kubectl(kubeconfig, ['config', 'view', '--raw', '--minify', '-o', 'json']);
  const config = JSON.parse(r.stdout);
  config.users[0].user = { token };
  return JSON.stringify(config);
}

/** kubectl, asynchronously: the server under test runs in this process and must keep answering. */
function kubectl(kubeconfig: string, args: string[], binary = 'kubectl'): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(binary, args, { env: { ...process.env, KUBECONFIG: kubeconfig }, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr: stderr || (err && !stderr ? err.message : '') });
    });
  });
}

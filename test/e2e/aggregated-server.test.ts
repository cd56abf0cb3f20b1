/**
 * kgen as an aggregated API server, end to end with real kubectl and two kgen servers:
 *
 * - A, the front (in process): RBAC, users from a static token file, an APIService for
 *   wardle.example.com/v1alpha1 through a selector-less Service and its Endpoints.
 * - B, aggregated (`kgen serve --authentication-kubeconfig … --authorization-kubeconfig …`, a real
 *   process on its own SQLite): serves only the wardle group, trusts A's front-proxy CA and
 *   delegates authentication (TokenReview) and authorization (SubjectAccessReview) to A, as
 *   the ServiceAccount `wardle/apiserver` (what the install manifests create) with a token from
 *   A's TokenRequest API (`kubectl create token`); its only rights are system:auth-delegator and
 *   the extension-apiserver-authentication-reader Role.
 *
 * Through A, kubectl lists, creates and watches B's flunders as the token user. What A's RBAC
 * refuses is refused twice over: by A itself before proxying (as kube-apiserver does), and by B,
 * whose 403 for what the front proxy forwards is A's SubjectAccessReview answer (B has no policy
 * of its own: granting at A changes B's answer). B refuses direct requests without the front
 * proxy's certificate or a token A vouches for.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { formatDiagnostic, generate } from '../../generator/index.js';
import { newCA, newSignedCertificate } from '../../runtime/controlplane/certs.js';
import { startServer, type RunningServer } from '../../runtime/controlplane/index.js';
import { FIXTURE_DIR } from '../server/testserver.js';
import { startKgen, type KgenServer } from './harness.js';

const dir = join(tmpdir(), `kgen-aggregated-${process.pid}`);
const WARDLE = fileURLToPath(new URL('../fixtures/aggregated-apis/', import.meta.url));

interface Result {
  stdout: string;
  stderr: string;
  code: number;
}

function kubectl(kubeconfig: string, args: string[], input?: string): Promise<Result> {
  return new Promise((resolve) => {
    const child = execFile('kubectl', args, { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: dir }, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ stdout, stderr, code: err ? (typeof err.code === 'number' ? err.code : 1) : 0 });
    });
    if (input !== undefined) child.stdin!.end(input);
  });
}

async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.fail(`timed out waiting until ${what}`);
}

/** A direct HTTPS request to B, with whatever credentials a test gives. */
function direct(url: string, ca: string, opts: { token?: string; cert?: string; key?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'application/json', ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const req = httpsRequest(url, { ca, cert: opts.cert, key: opts.key, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

function kubeconfigFor(server: string, ca: string, token: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster: { server, 'certificate-authority-data': Buffer.from(ca).toString('base64') } }],
    users: [{ name: 'u', user: { token } }],
    contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
    'current-context': 'c',
  });
}

describe('kgen as an aggregated API server (delegated authentication and authorization)', () => {
  let front: RunningServer;
  let backend: KgenServer | undefined;
  let backendURL: string;
  let backendCA: string;
  let alice: string;
  let delegatorToken: string;
  let bob: string;
  const admin = (args: string[], input?: string) => kubectl(front.kubeconfigPath!, args, input);

  before(async () => {
    mkdirSync(dir, { recursive: true });
    const wardle = join(dir, 'wardle-generated');
    const gen = generate({ apisDir: WARDLE, outDir: wardle });
    assert.ok(gen.ok, gen.diagnostics.map((d) => formatDiagnostic(d)).join('\n'));
    const tokens = join(dir, 'tokens.csv');
    writeFileSync(tokens, 'alice-token,alice,uid-alice,"devs"\nbob-token,bob,uid-bob\n');
    front = await startServer({
      generatedDir: FIXTURE_DIR,
      storage: 'memory:',
      dataDir: join(dir, 'front'),
      port: 0,
      tokenAuthFile: tokens,
      controllers: false,
      aggregator: { availabilityIntervalMs: 300, discoveryTimeoutMs: 2_000 },
      log: process.env.KGEN_TEST_LOG ? (line) => console.error(line) : undefined,
    });
    // B's identity at A: a ServiceAccount with only the delegation rights (what the install manifests bind).
    const policy = [
      'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: wardle',
      'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: apiserver\n  namespace: wardle',
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: wardle:system:auth-delegator\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: system:auth-delegator\nsubjects:\n- kind: ServiceAccount\n  name: apiserver\n  namespace: wardle',
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: wardle-auth-reader\n  namespace: kube-system\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: extension-apiserver-authentication-reader\nsubjects:\n- kind: ServiceAccount\n  name: apiserver\n  namespace: wardle',
      // alice may work with flunders in default, and nowhere else.
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: flunder-editor\n  namespace: default\nrules:\n- apiGroups: ["wardle.example.com"]\n  resources: ["flunders"]\n  verbs: ["get", "list", "watch", "create"]',
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: flunder-reader\n  namespace: kube-public\nrules:\n- apiGroups: ["wardle.example.com"]\n  resources: ["flunders"]\n  verbs: ["list"]',
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: alice-flunders\n  namespace: default\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: flunder-editor\nsubjects:\n- apiGroup: rbac.authorization.k8s.io\n  kind: User\n  name: alice',
    ].join('\n---\n');
    const created = await admin(['create', '-f', '-'], policy);
    assert.equal(created.code, 0, created.stderr);

    // B: its serving certificate names the Service, as the aggregator verifies it.
    const ca = newCA('wardle-ca');
    backendCA = ca.cert;
    const serving = newSignedCertificate(ca, { commonName: 'wardle', usage: 'server', hosts: ['wardle.default.svc', '127.0.0.1', 'localhost'] });
    writeFileSync(join(dir, 'b.crt'), serving.cert);
    writeFileSync(join(dir, 'b.key'), serving.key);
    writeFileSync(join(dir, 'front-proxy-ca.crt'), front.frontProxy.ca!.cert);
    const delegation = join(dir, 'delegation.kubeconfig');
    const saToken = await admin(['create', 'token', 'apiserver', '-n', 'wardle', '--duration=1h']);
    assert.equal(saToken.code, 0, saToken.stderr);
    delegatorToken = saToken.stdout.trim();
    writeFileSync(delegation, kubeconfigFor(front.url, front.credentials!.servingCA!, delegatorToken));
    const who = await kubectl(delegation, ['auth', 'whoami', '-o', 'json']);
    assert.equal(JSON.parse(who.stdout).status.userInfo.username, 'system:serviceaccount:wardle:apiserver', who.stderr);
    // Only the delegation rights: it may create reviews and read the authentication ConfigMap, nothing else.
    const canList = await kubectl(delegation, ['auth', 'can-i', '--list']);
    assert.equal(canList.code, 0, canList.stderr);
    assert.match(canList.stdout, /tokenreviews\.authentication\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]/);
    assert.match(canList.stdout, /subjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]/);
    assert.doesNotMatch(canList.stdout, /flunders|configmaps|\*\.\*/);
    const backendData = join(dir, 'backend');
    backend = await startKgen({
      dataDir: backendData,
      args: [
        'serve', wardle, '--port', '0', '--data-dir', backendData, '--storage', 'sqlite:',
        '--authentication-kubeconfig', delegation,
        '--authorization-kubeconfig', delegation,
        // Its cache of A's refusals (10 s by default, which test/controlplane/delegated-auth.test.ts
        // checks): 1 s, so that the grant below is seen without waiting out ten seconds.
        '--authorization-webhook-cache-unauthorized-ttl', '1s',
        '--requestheader-client-ca-file', join(dir, 'front-proxy-ca.crt'),
        '--requestheader-allowed-names', 'front-proxy-client',
        '--tls-cert-file', join(dir, 'b.crt'),
        '--tls-private-key-file', join(dir, 'b.key'),
      ],
    });
    backendURL = backend.url;
    const port = new URL(backendURL).port;
    const registration = [
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: wardle\n  namespace: default\nspec:\n  ports:\n  - name: https\n    port: 443\n    targetPort: 6443',
      `apiVersion: v1\nkind: Endpoints\nmetadata:\n  name: wardle\n  namespace: default\nsubsets:\n- addresses:\n  - ip: 127.0.0.1\n  ports:\n  - name: https\n    port: ${port}`,
      `apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata:\n  name: v1alpha1.wardle.example.com\nspec:\n  group: wardle.example.com\n  version: v1alpha1\n  groupPriorityMinimum: 1000\n  versionPriority: 15\n  caBundle: ${Buffer.from(backendCA).toString('base64')}\n  service:\n    namespace: default\n    name: wardle\n    port: 443`,
    ].join('\n---\n');
    const registered = await admin(['create', '-f', '-'], registration);
    assert.equal(registered.code, 0, registered.stderr);
    const waited = await admin(['wait', '--for=condition=Available', 'apiservice/v1alpha1.wardle.example.com', '--timeout=60s']);
    assert.equal(waited.code, 0, `${waited.stderr}\n${backend.output()}`);
    alice = join(dir, 'alice.kubeconfig');
    writeFileSync(alice, kubeconfigFor(front.url, front.credentials!.servingCA!, 'alice-token'));
    bob = join(dir, 'bob.kubeconfig');
    writeFileSync(bob, kubeconfigFor(front.url, front.credentials!.servingCA!, 'bob-token'));
  });

  after(async () => {
    await backend?.stop();
    await front?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves only its own group, plus discovery, OpenAPI and health, and writes no kubeconfig', async () => {
    const ca = backendCA;
    const proxy = { cert: front.frontProxy.client.cert, key: front.frontProxy.client.key, headers: { 'x-remote-user': 'kgen-admin', 'x-remote-group': 'system:masters' } };
    const groups = await direct(`${backendURL}/apis`, ca, proxy);
    assert.equal(groups.status, 200);
    assert.deepEqual(groups.body.groups.map((g: { name: string }) => g.name), ['wardle.example.com']);
    assert.equal((await direct(`${backendURL}/api/v1/namespaces`, ca, proxy)).status, 404);
    assert.equal((await direct(`${backendURL}/apis/rbac.authorization.k8s.io/v1/clusterroles`, ca, proxy)).status, 404);
    assert.equal((await direct(`${backendURL}/openapi/v3/apis/wardle.example.com/v1alpha1`, ca, proxy)).status, 200);
    // Health is always allowed (--authorization-always-allow-paths), without credentials.
    assert.equal((await direct(`${backendURL}/readyz`, ca)).status, 200);
    assert.throws(() => readFileSync(join(backend!.dataDir, 'kubeconfig')), /ENOENT/);
  });

  it('lists and creates B\'s kinds through A with the user\'s identity', async () => {
    const created = await kubectl(alice, ['create', '-f', '-'], 'apiVersion: wardle.example.com/v1alpha1\nkind: Flunder\nmetadata:\n  name: first\n  namespace: default\nspec:\n  reference: nothing\n');
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /flunder.wardle.example.com\/first created/);
    const list = await kubectl(alice, ['get', 'flunders', '-n', 'default']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^NAME\s+REFERENCE\s+AGE\nfirst\s+nothing\s+/);
    // B stored the user A authenticated (managedFields name kubectl; the audit-free check: B's object).
    const got = JSON.parse((await kubectl(alice, ['get', 'flunder', 'first', '-n', 'default', '-o', 'json'])).stdout);
    assert.equal(got.spec.reference, 'nothing');
    const whoami = await kubectl(alice, ['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}']);
    assert.equal(whoami.stdout, 'alice');
  });

  it('is refused where A\'s RBAC refuses: by A through the proxy, by B with A\'s SubjectAccessReview', async () => {
    // As kube-apiserver, A authorises the request itself before proxying it.
    const elsewhere = await kubectl(alice, ['get', 'flunders', '-n', 'kube-public']);
    assert.notEqual(elsewhere.code, 0);
    assert.match(elsewhere.stderr, /Error from server \(Forbidden\): flunders\.wardle\.example\.com is forbidden: User "alice" cannot list resource "flunders" in API group "wardle\.example\.com" in the namespace "kube-public"/);
    const nobody = await kubectl(bob, ['get', 'flunders', '-n', 'default']);
    assert.match(nobody.stderr, /Error from server \(Forbidden\): flunders\.wardle\.example\.com is forbidden: User "bob" cannot list resource "flunders"/);
    // What the front proxy forwards, B authorises by asking A: it has no policy of its own.
    const proxied = (user: string, ns: string) =>
      direct(`${backendURL}/apis/wardle.example.com/v1alpha1/namespaces/${ns}/flunders`, backendCA, {
        cert: front.frontProxy.client.cert,
        key: front.frontProxy.client.key,
        headers: { 'x-remote-user': user, 'x-remote-group': 'system:authenticated' },
      });
    assert.equal((await proxied('alice', 'default')).status, 200);
    const refused = await proxied('alice', 'kube-public');
    assert.equal(refused.status, 403);
    assert.equal(refused.body.kind, 'Status');
    assert.equal(refused.body.message, 'flunders.wardle.example.com is forbidden: User "alice" cannot list resource "flunders" in API group "wardle.example.com" in the namespace "kube-public"');
    // Once A's RBAC allows it, B follows (after its cache of the refusal, 1 s here, at most).
    const granted = await admin(['create', 'rolebinding', 'alice-public', '-n', 'kube-public', '--role=flunder-reader', '--user=alice']);
    assert.equal(granted.code, 0, granted.stderr);
    await eventually('B lets alice list flunders in kube-public', async () => (await proxied('alice', 'kube-public')).status === 200, 30_000);
    // kubectl as the token user, through A, now too.
    const listed = await kubectl(alice, ['get', 'flunders', '-n', 'kube-public']);
    assert.equal(listed.code, 0, listed.stderr);
  });

  it('watches B\'s kinds through the proxy', async () => {
    const watch = spawn('kubectl', ['get', 'flunders', '-n', 'default', '--watch', '-o', 'name'], { env: { ...process.env, KUBECONFIG: alice, HOME: dir } });
    let out = '';
    watch.stdout.on('data', (d) => (out += d));
    watch.stderr.on('data', (d) => (out += d));
    try {
      await eventually('the watch lists the existing flunder', async () => out.includes('flunder.wardle.example.com/first'));
      const created = await kubectl(alice, ['create', '-f', '-'], 'apiVersion: wardle.example.com/v1alpha1\nkind: Flunder\nmetadata:\n  name: watched\n  namespace: default\nspec: {}\n');
      assert.equal(created.code, 0, created.stderr);
      await eventually('the watch sees the new flunder', async () => out.includes('flunder.wardle.example.com/watched'));
    } finally {
      watch.kill('SIGTERM');
    }
  });

  it('refuses direct requests without the front proxy\'s certificate or a token A vouches for', async () => {
    const path = `${backendURL}/apis/wardle.example.com/v1alpha1/namespaces/default/flunders`;
    const none = await direct(path, backendCA, { headers: { 'x-remote-user': 'kgen-admin', 'x-remote-group': 'system:masters' } });
    assert.equal(none.status, 401);
    const forged = await direct(path, backendCA, { token: 'not-a-token', headers: { 'x-remote-user': 'kgen-admin' } });
    assert.equal(forged.status, 401);
    // A client certificate from another CA does not make X-Remote-* headers believable.
    const other = newCA('other');
    const cert = newSignedCertificate(other, { commonName: 'front-proxy-client', usage: 'client' });
    const wrongCA = await direct(path, backendCA, { cert: cert.cert, key: cert.key, headers: { 'x-remote-user': 'kgen-admin', 'x-remote-group': 'system:masters' } });
    assert.equal(wrongCA.status, 401);
    // A token A vouches for works directly, authorised by A.
    const direct200 = await direct(path, backendCA, { token: 'alice-token' });
    assert.equal(direct200.status, 200);
    assert.deepEqual(direct200.body.items.map((i: { metadata: { name: string } }) => i.metadata.name).sort(), ['first', 'watched']);
    const directDenied = await direct(`${backendURL}/apis/wardle.example.com/v1alpha1/namespaces/kube-system/flunders`, backendCA, { token: 'alice-token' });
    assert.equal(directDenied.status, 403);
    // The delegation identity itself has no rights on B's kinds.
    const delegator = await direct(path, backendCA, { token: delegatorToken });
    assert.equal(delegator.status, 403);
  });
});

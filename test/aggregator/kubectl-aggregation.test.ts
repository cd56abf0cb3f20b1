/**
 * The aggregator end to end with real kubectl: two kgen servers over HTTPS with real
 * certificates. On the front server an APIService (with a selector-less Service and its
 * Endpoints, as one points kube at an external server) routes ops.example.org/v1beta1 to the
 * backend, whose serving certificate names `kgen-b.default.svc` and which trusts the front's
 * front-proxy CA (--requestheader-client-ca-file). kubectl through the front lists the backend's
 * objects, sees them in api-resources and explains them; the backend sees (and authorizes) the
 * user; stopping the backend makes the APIService unavailable and requests 503.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { ensureFrontProxy } from '../../runtime/controlplane/front-proxy.js';
import { newCA, newSignedCertificate } from '../../runtime/controlplane/certs.js';
import { startServer, type RunningServer } from '../../runtime/controlplane/index.js';
import { FIXTURE_DIR } from '../server/testserver.js';
import { forgetKubectlDiscovery } from '../support/kubectl-cache.js';
import { checkSwagger2 } from '../generator/openapi-check.js';

const run = promisify(execFile);
/** The repository's generated APIs, which hold ops.example.org/v1beta1 (the fixture's do not). */
const BACKEND_APIS = fileURLToPath(new URL('../../generated/', import.meta.url));

interface Result {
  stdout: string;
  stderr: string;
  code: number;
}

async function kubectl(kubeconfig: string, home: string, args: string[], input?: string): Promise<Result> {
  const child = run('kubectl', args, { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: home }, timeout: 30_000 });
  if (input !== undefined) {
    child.child.stdin!.end(input);
  }
  try {
    const { stdout, stderr } = await child;
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; code?: number };
    return { stdout: e.stdout ?? '', stderr: e.stderr ?? '', code: typeof e.code === 'number' ? e.code : 1 };
  }
}

async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.fail(`timed out waiting until ${what}`);
}

describe('APIService aggregation through kubectl', () => {
  const dir = join(tmpdir(), `kgen-aggregator-${process.pid}`);
  const frontDir = join(dir, 'front');
  const backendDir = join(dir, 'backend');
  let front: RunningServer;
  let backend: RunningServer | undefined;
  let backendPort: number;
  let backendCA: string;
  const auditLog = join(dir, 'backend-audit.log');
  const k = (args: string[], input?: string) => kubectl(front.kubeconfigPath!, dir, args, input);
  const kb = (args: string[], input?: string) => kubectl(backend!.kubeconfigPath!, dir, [`--certificate-authority=${join(dir, 'b-ca.crt')}`, ...args], input);

  before(async () => {
    mkdirSync(backendDir, { recursive: true });
    // The front's front-proxy CA, made first so the backend can trust it.
    const frontProxy = ensureFrontProxy(frontDir);
    const caFile = join(dir, 'front-proxy-ca.crt');
    writeFileSync(caFile, frontProxy.ca!.cert);
    // The backend's serving certificate names the Service, as kube's proxy verifies it.
    const ca = newCA('backend-ca');
    backendCA = ca.cert;
    const serving = newSignedCertificate(ca, { commonName: 'kgen-b', usage: 'server', hosts: ['kgen-b.default.svc', '127.0.0.1', 'localhost'] });
    writeFileSync(join(dir, 'b.crt'), serving.cert);
    writeFileSync(join(dir, 'b.key'), serving.key);
    writeFileSync(join(dir, 'b-ca.crt'), ca.cert);
    const policy = join(dir, 'audit-policy.yaml');
    writeFileSync(policy, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n');
    backend = await startServer({
      generatedDir: BACKEND_APIS,
      storage: 'memory:',
      dataDir: backendDir,
      port: 0,
      tls: { certFile: join(dir, 'b.crt'), keyFile: join(dir, 'b.key') },
      frontProxy: { requestheaderClientCAFile: caFile, requestheaderAllowedNames: ['front-proxy-client'] },
      audit: { logPath: auditLog, policyFile: policy },
      controllers: false,
    });
    backendPort = backend.port;
    front = await startServer({
      generatedDir: FIXTURE_DIR,
      storage: 'memory:',
      dataDir: frontDir,
      port: 0,
      controllers: false,
      aggregator: { availabilityIntervalMs: 300, discoveryTimeoutMs: 2_000 },
      log: process.env.KGEN_TEST_LOG ? (line) => console.error(line) : undefined,
    });
    forgetKubectlDiscovery(front.url);
  });

  after(async () => {
    await front?.close();
    await backend?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('routes a group/version to the backend once its APIService is Available', async () => {
    const policy = 'apiVersion: ops.example.org/v1beta1\nkind: Policy\nmetadata:\n  name: strict\nspec:\n  maxReplicas: 5\n  enforcement: Deny\n';
    const created = await kb(['create', '-f', '-'], policy);
    assert.equal(created.code, 0, created.stderr);

    const manifests = [
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: kgen-b\n  namespace: default\nspec:\n  ports:\n  - name: https\n    port: 443\n    targetPort: 6443',
      `apiVersion: v1\nkind: Endpoints\nmetadata:\n  name: kgen-b\n  namespace: default\nsubsets:\n- addresses:\n  - ip: 127.0.0.1\n  ports:\n  - name: https\n    port: ${backendPort}`,
      `apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata:\n  name: v1beta1.ops.example.org\nspec:\n  group: ops.example.org\n  version: v1beta1\n  groupPriorityMinimum: 2000\n  versionPriority: 15\n  caBundle: ${Buffer.from(backendCA).toString('base64')}\n  service:\n    namespace: default\n    name: kgen-b\n    port: 443`,
    ].join('\n---\n');
    const applied = await k(['create', '-f', '-'], manifests);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stdout, /service\/kgen-b created/);
    assert.match(applied.stdout, /apiservice.apiregistration.k8s.io\/v1beta1.ops.example.org created/);

    if (process.env.KGEN_TEST_LOG) console.error((await k(['get', 'apiservice', '-o', 'yaml'])).stdout);
    const waited = await k(['wait', '--for=condition=Available', 'apiservice/v1beta1.ops.example.org', '--timeout=30s']);
    assert.equal(waited.code, 0, waited.stderr);
    const json = JSON.parse((await k(['get', 'apiservice', 'v1beta1.ops.example.org', '-o', 'json'])).stdout);
    const available = json.status.conditions.find((c: { type: string }) => c.type === 'Available');
    assert.deepEqual({ status: available.status, reason: available.reason, message: available.message }, { status: 'True', reason: 'Passed', message: 'all checks passed' });

    const list = await k(['get', 'policies']);
    assert.equal(list.code, 0, list.stderr);
    const rows = list.stdout.trim().split('\n').map((l) => l.trim().split(/\s+/));
    assert.deepEqual(rows[0], ['NAME', 'ENFORCEMENT', 'MAXREPLICAS', 'AGE']);
    assert.deepEqual(rows[1]!.slice(0, 3), ['strict', 'Deny', '5']);
  });

  it('lists the remote resources in api-resources and explains them from the backend OpenAPI', async () => {
    await eventually('the remote group is in aggregated discovery', async () => {
      const r = await k(['api-resources', '--api-group=ops.example.org', '--no-headers']);
      return r.code === 0 && /^policies\s+ops\.example\.org\/v1beta1\s+false\s+Policy/m.test(r.stdout);
    });
    const versions = await k(['api-versions']);
    assert.match(versions.stdout, /^ops\.example\.org\/v1beta1$/m);
    const explain = await k(['explain', 'policies.spec']);
    assert.equal(explain.code, 0, explain.stderr);
    assert.match(explain.stdout, /GROUP:\s+ops\.example\.org/);
    assert.match(explain.stdout, /maxReplicas\s+<integer>/);
    // The merged /openapi/v2: the backend's paths refer to shared parameters the front declares once.
    const v2 = await k(['get', '--raw', '/openapi/v2']);
    assert.equal(v2.code, 0, v2.stderr);
    const doc = JSON.parse(v2.stdout);
    assert.deepEqual(checkSwagger2(doc), []);
    const item = doc.paths['/apis/ops.example.org/v1beta1/policies/{name}'];
    assert.equal(item.parameters[0].name, 'name');
    assert.ok(item.delete.parameters.some((p: { $ref?: string }) => p.$ref === '#/parameters/body-2Y1dVQaQ'));
    assert.ok(doc.paths['/apis/ops.example.org/v1beta1/policies'].get.parameters.every((p: { $ref?: string }) => p.$ref?.startsWith('#/parameters/')));
    const v2explain = await k(['explain', 'policies.spec', '--output=plaintext-openapiv2']);
    assert.equal(v2explain.code, 0, v2explain.stderr);
    assert.match(v2explain.stdout, /maxReplicas\s+<integer>/);
  });

  it('sends the user to the backend, which authorizes it with its own RBAC', async () => {
    const created = await k(['create', '-f', '-'], 'apiVersion: ops.example.org/v1beta1\nkind: Policy\nmetadata:\n  name: lenient\nspec:\n  maxReplicas: 9\n');
    assert.equal(created.code, 0, created.stderr);
    assert.equal((await kb(['get', 'policy', 'lenient', '-o', 'jsonpath={.spec.enforcement}'])).stdout, 'Warn');
    // The backend's audit log names the front's user, not the front proxy.
    await eventually('the backend audited the create', async () => {
      const lines = readFileSync(auditLog, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      return lines.some((e) => e.verb === 'create' && e.objectRef?.name === 'lenient' && e.user.username === 'kgen-admin' && e.user.groups.includes('system:masters'));
    });
    // alice may do anything on the front, nothing on the backend.
    const bound = await k(['create', 'clusterrolebinding', 'alice-admin', '--clusterrole=cluster-admin', '--user=alice']);
    assert.equal(bound.code, 0, bound.stderr);
    const denied = await k(['get', 'policies', '--as=alice', '--as-group=devs']);
    assert.notEqual(denied.code, 0);
    assert.match(denied.stderr, /Error from server \(Forbidden\): policies\.ops\.example\.org is forbidden: User "alice" cannot list resource "policies" in API group "ops\.example\.org" at the cluster scope/);
  });

  it('marks the APIService unavailable when the backend stops, and answers 503', async () => {
    await backend!.close();
    backend = undefined;
    await eventually('the APIService is unavailable', async () => {
      const r = await k(['get', 'apiservice', 'v1beta1.ops.example.org', '-o', 'jsonpath={.status.conditions[0].status}/{.status.conditions[0].reason}']);
      return r.stdout === 'False/FailedDiscoveryCheck';
    });
    const message = (await k(['get', 'apiservice', 'v1beta1.ops.example.org', '-o', 'jsonpath={.status.conditions[0].message}'])).stdout;
    assert.match(message, new RegExp(`^failing or missing response from https://127\\.0\\.0\\.1:${backendPort}/apis/ops\\.example\\.org/v1beta1: `));
    const r = await k(['get', 'policies']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /Error from server \(ServiceUnavailable\): the server is currently unable to handle the request \(get policies\.ops\.example\.org\)/);
  });
});

/**
 * Client-side apply, a client-side change, then `kubectl apply --server-side` of the first
 * configuration, with kubectl 1.27, 1.32 (the PATH dispatcher) and 1.33, against `kgen serve`.
 *
 * kubectl (1.26 and later) sends the server-side apply FIRST, and only when it succeeds upgrades
 * the managed fields (client-go's csaupgrade: a JSON patch of metadata.managedFields) and applies
 * again, which removes what client-side apply had set and the configuration no longer has
 * (k8s.io/kubectl pkg/cmd/apply/apply.go, applyOneObject and migrateToSSAIfNecessary). The first
 * apply removes nothing: `kubectl` has applied nothing before, and kube's lastAppliedManager only
 * acts on conflicts. So, as on kube-apiserver:
 * - two optional fields of a Widget switch back: the first apply holds both, the re-apply after
 *   the upgrade leaves the applied one, owned by `kubectl` (Apply) beside `kubectl-last-applied`;
 * - the same for a Deployment's container env;
 * - a Deployment's readiness probe switched from tcpSocket to httpGet and back is refused at the
 *   first apply (both handlers set: kube's validateHandler), the object and its managers stay as
 *   they were, and no upgrade is attempted; a client-side apply switches it back, and a server-side
 *   apply then upgrades cleanly.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO, removeDir, startKgen, type KgenServer, type RunResult } from './harness.js';

const VERSIONS: [string, string][] = [
  ['1.27', '/usr/lib/google-cloud-sdk/bin/kubectl.1.27'],
  ['1.32', 'kubectl'],
  ['1.33', '/usr/lib/google-cloud-sdk/bin/kubectl.1.33'],
];

function run(binary: string, kubeconfig: string, args: string[], input?: string): RunResult {
  if (binary.startsWith('/') && !existsSync(binary)) throw new Error(`kubectl is missing at ${binary}`);
  const r = spawnSync(binary, args, { input, encoding: 'utf8', timeout: 60_000, env: { ...process.env, KUBECONFIG: kubeconfig } });
  if (r.error) throw new Error(`${binary} could not be run: ${r.error.message}`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const deployment = (ns: string, container: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ${ns}}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: c
        image: nginx
${container}`;
const TCP = '        readinessProbe:\n          tcpSocket: {port: 80}\n';
const HTTP = '        readinessProbe:\n          httpGet: {path: /, port: 80}\n';
const envDeployment = (ns: string, name: string, value: string) => deployment(ns, `        env: [{name: ${name}, value: "${value}"}]\n`).replace('name: web,', 'name: env,');
const widget = (ns: string, field: string) => `apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: ${ns}}\nspec: {${field}}\n`;

interface Entry {
  manager: string;
  operation: string;
  fieldsV1: Record<string, unknown>;
}

describe('client-side apply, then apply --server-side, with kubectl 1.27, 1.32 and 1.33', () => {
  let server: KgenServer;

  before(async () => {
    server = await startKgen({ generatedDir: join(REPO, 'generated'), storage: 'memory:' });
  });
  after(async () => {
    await server.stop();
    removeDir(server.dataDir);
  });

  for (const [version, binary] of VERSIONS) {
    describe(`kubectl ${version}`, () => {
      const ns = `csa-${version.replace('.', '-')}`;
      const k = (args: string[], input?: string) => run(binary, server.kubeconfig, args, input);
      const ok = (args: string[], input?: string) => {
        const r = k(args, input);
        assert.equal(r.code, 0, `kubectl ${version} ${args.join(' ')}: ${r.stderr}`);
        return r.stdout;
      };
      const get = (resource: string) => JSON.parse(ok(['get', resource, '-n', ns, '-o', 'json', '--show-managed-fields']));
      /** The stored Deployment over HTTP (managedFields included): kubectl's get is proved by the Widget's. */
      const stored = async (name: string) => {
        const r = await server.fetch(`${server.url}/apis/apps/v1/namespaces/${ns}/deployments/${name}`);
        assert.equal(r.status, 200, name);
        return JSON.parse(await r.text());
      };
      const managers = (obj: { metadata: { managedFields: Entry[] } }) => obj.metadata.managedFields.map((e) => `${e.manager}/${e.operation}`).sort();
      const entry = (obj: { metadata: { managedFields: Entry[] } }, manager: string) => obj.metadata.managedFields.find((e) => e.manager === manager)!;

      before(() => {
        ok(['create', 'namespace', ns]);
      });

      it('a Widget switched from rpm to port and back ends with rpm alone, owned by kubectl', () => {
        ok(['apply', '-f', '-'], widget(ns, 'rpm: 10'));
        ok(['apply', '-f', '-'], widget(ns, 'port: 8080'));
        assert.equal(ok(['apply', '--server-side', '-f', '-'], widget(ns, 'rpm: 10')), 'widget.widgets.example.com/w serverside-applied\n');
        const w = get('widget/w');
        assert.deepEqual(w.spec, { color: 'red', replicas: 1, rpm: 10 });
        assert.deepEqual(managers(w), ['kubectl-last-applied/Apply', 'kubectl/Apply']);
        assert.deepEqual(entry(w, 'kubectl').fieldsV1, { 'f:spec': { 'f:rpm': {} } });
        assert.deepEqual(entry(w, 'kubectl-last-applied').fieldsV1, { 'f:metadata': { 'f:annotations': { 'f:kubectl.kubernetes.io/last-applied-configuration': {} } } });
        assert.deepEqual(JSON.parse(w.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).spec, { rpm: 10 });
      });

          it('a Deployment whose env was switched client-side gets the first env back', async () => {
        ok(['apply', '-f', '-'], envDeployment(ns, 'A', '1'));
        ok(['apply', '-f', '-'], envDeployment(ns, 'B', '2'));
        assert.equal(ok(['apply', '--server-side', '-f', '-'], envDeployment(ns, 'A', '1')), 'deployment.apps/env serverside-applied\n');
        const d = await stored('env');
        assert.deepEqual(d.spec.template.spec.containers[0].env, [{ name: 'A', value: '1' }]);
        assert.deepEqual(managers(d), ['kubectl-last-applied/Apply', 'kubectl/Apply']);
        const container = ((entry(d, 'kubectl').fieldsV1['f:spec'] as Json)['f:template'] as Json)['f:spec'] as Json;
        const c = (container['f:containers'] as Json)['k:{"name":"c"}'] as Json;
        assert.deepEqual(Object.keys(c).sort(), ['.', 'f:env', 'f:image', 'f:name']);
        assert.deepEqual(Object.keys(c['f:env'] as Json), ['k:{"name":"A"}']);
      });

      it('a readiness probe switched client-side is refused at the first server-side apply, as by kube', async () => {
        ok(['apply', '-f', '-'], deployment(ns, TCP));
        ok(['apply', '-f', '-'], deployment(ns, HTTP));
        const before = await stored('web');
        const r = k(['apply', '--server-side', '-f', '-'], deployment(ns, TCP));
        assert.equal(r.code, 1, r.stdout);
        assert.match(r.stderr, /Deployment "web" is invalid: spec\.template\.spec\.containers\[0\]\.readinessProbe\.tcpSocket: Forbidden: may not specify more than 1 handler type/);
        const after = await stored('web');
        assert.deepEqual(after.spec.template.spec.containers[0].readinessProbe, {
          failureThreshold: 3,
          httpGet: { path: '/', port: 80, scheme: 'HTTP' },
          periodSeconds: 10,
          successThreshold: 1,
          timeoutSeconds: 1,
        });
        assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion);
        assert.deepEqual(managers(after), ['kubectl-client-side-apply/Update']);

        // kube's way out: switch back client-side, then the server-side apply upgrades.
        ok(['apply', '-f', '-'], deployment(ns, TCP));
        ok(['apply', '--server-side', '-f', '-'], deployment(ns, TCP));
        const d = await stored('web');
        const probe = d.spec.template.spec.containers[0].readinessProbe;
        assert.deepEqual(probe, { failureThreshold: 3, periodSeconds: 10, successThreshold: 1, tcpSocket: { port: 80 }, timeoutSeconds: 1 });
        assert.deepEqual(managers(d), ['kubectl-last-applied/Apply', 'kubectl/Apply']);
      });
    });
  }
});

type Json = Record<string, unknown>;

/**
 * Apply, diff and strategic merge of a Deployment's IntOrString and Quantity fields, which kgen
 * publishes as references to intstr.IntOrString and resource.Quantity (as kube does), with
 * kubectl 1.27 and 1.28 (client-side apply builds its strategic merge patch from `/openapi/v2`)
 * and 1.33 (from `/openapi/v3`): maxSurge goes from "25%" to 1, resource requests change, a
 * server-side apply takes the fields over, and a strategic merge patch of one container keeps its
 * requests.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { kubectlBinary, REPO, removeDir, startKgen, type KgenServer, type RunResult } from './harness.js';

const VERSIONS = ['1.27', '1.28', '1.33'];

const deployment = (ns: string, maxSurge: string | number, cpu: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ${ns}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: ${JSON.stringify(maxSurge)}, maxUnavailable: 0}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: c
        image: nginx
        resources: {requests: {cpu: ${cpu}, memory: 64Mi}}
`;

describe('kubectl apply, diff and patch of IntOrString and Quantity fields', () => {
  let server: KgenServer;
  before(async () => {
    server = await startKgen({ generatedDir: join(REPO, 'generated'), storage: 'memory:' });
  });
  after(async () => {
    await server?.stop();
    if (server) removeDir(server.dataDir);
  });

  for (const v of VERSIONS) {
    describe(`kubectl ${v}`, () => {
      const ns = `ios${v.replace('.', '')}`;
      const k = (args: string[], input?: string): RunResult => {
        const path = kubectlBinary(v);
        const r = spawnSync(path, args, { input, encoding: 'utf8', timeout: 60_000, env: { ...process.env, KUBECONFIG: server.kubeconfig } });
        if (r.error) throw r.error;
        return { code: r.status, stdout: r.stdout, stderr: r.stderr };
      };
      const ok = (args: string[], input?: string) => {
        const r = k(args, input);
        assert.equal(r.code, 0, `kubectl ${v} ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
        return r.stdout;
      };
      const live = () => JSON.parse(ok(['get', 'deployment', 'web', '-n', ns, '-o', 'json']));
      /** The stored Deployment over HTTP, once kubectl's `get -o json` of it has been seen. */
      const stored = async () => {
        const r = await server.fetch(`${server.url}/apis/apps/v1/namespaces/${ns}/deployments/web`);
        assert.equal(r.status, 200);
        return JSON.parse(await r.text());
      };

      it('client-side apply takes maxSurge from "25%" to 1 and changes a request', async () => {
        ok(['create', 'namespace', ns]);
        assert.match(ok(['apply', '-f', '-'], deployment(ns, '25%', '100m')), /deployment.apps\/web created/);
        assert.equal(live().spec.strategy.rollingUpdate.maxSurge, '25%');
        assert.match(ok(['apply', '-f', '-'], deployment(ns, 1, '250m')), /deployment.apps\/web configured/);
        const d = await stored();
        assert.deepEqual(d.spec.strategy.rollingUpdate, { maxSurge: 1, maxUnavailable: 0 });
        assert.deepEqual(d.spec.template.spec.containers[0].resources, { requests: { cpu: '250m', memory: '64Mi' } });
        assert.match(ok(['apply', '-f', '-'], deployment(ns, 1, '250m')), /deployment.apps\/web unchanged/);
      });

      it('diff shows a changed maxSurge and nothing for the same object', () => {
        const changed = k(['diff', '-f', '-'], deployment(ns, '50%', '250m'));
        assert.equal(changed.code, 1, changed.stderr);
        assert.match(changed.stdout, /-\s+maxSurge: 1\n\+\s+maxSurge: 50%/);
        const same = k(['diff', '-f', '-'], deployment(ns, 1, '250m'));
        assert.equal(same.code, 0, same.stderr + same.stdout);
      });

      it('server-side apply after the client-side one sets maxSurge and the request', async () => {
        assert.match(ok(['apply', '--server-side', '-f', '-'], deployment(ns, '30%', '300m')), /deployment.apps\/web serverside-applied/);
        const d = await stored();
        assert.equal(d.spec.strategy.rollingUpdate.maxSurge, '30%');
        assert.equal(d.spec.template.spec.containers[0].resources.requests.cpu, '300m');
      });

      it('a strategic merge patch of one container keeps its requests', async () => {
        ok(['patch', 'deployment', 'web', '-n', ns, '-p', '{"spec":{"strategy":{"rollingUpdate":{"maxSurge":2}},"template":{"spec":{"containers":[{"name":"c","resources":{"limits":{"memory":"128Mi"}}}]}}}}']);
        const d = await stored();
        assert.deepEqual(d.spec.strategy.rollingUpdate, { maxSurge: 2, maxUnavailable: 0 });
        assert.deepEqual(d.spec.template.spec.containers[0].resources, { limits: { memory: '128Mi' }, requests: { cpu: '300m', memory: '64Mi' } });
      });
    });
  }
});

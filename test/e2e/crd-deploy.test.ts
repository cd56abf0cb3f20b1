/**
 * The generated CRD manifests deploy: `kubectl apply -f generated/crds/` on an API server that
 * serves none of the bundled kinds (a kgen server with only its built-ins and one unrelated
 * group, standing in for a cluster), after which the resources are served from the CRDs alone and
 * the generated typed client works against them: typed create/get/list, the status subresource,
 * printer columns in kubectl, and the CEL rules written as `@kgen:validation`.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Clientset } from '../../generated/client/index.js';
import { isInvalid } from '@kgen/client';
import { generate } from '../../generator/index.js';
import { kubectl, kubectlOk, removeDir, REPO, startKgen, table, type KgenServer } from './harness.js';

const UNRELATED_KIND = `
/**
 * Gadget is an unrelated kind, so the "cluster" has an API of its own.
 * @kgen:resource
 */
export interface Gadget {
  spec: { size?: string };
}
`;

describe('generated CRD manifests on a server without the compiled kinds', () => {
  // Inside the repository, so the generated code's `kgen/...` imports resolve (as test/server/testserver.ts).
  mkdirSync(join(REPO, 'test', '.tmp'), { recursive: true });
  const work = mkdtempSync(join(REPO, 'test', '.tmp', 'crd-deploy-'));
  let server: KgenServer;
  let kubeconfig: string;
  let client: Clientset;
  const k = (...args: string[]) => kubectlOk(kubeconfig, args);

  before(async () => {
    const apis = join(work, 'apis');
    mkdirSync(join(apis, 'gadgets.cluster.test', 'v1'), { recursive: true });
    writeFileSync(join(apis, 'gadgets.cluster.test', 'v1', 'gadget.ts'), UNRELATED_KIND);
    const result = await generate({ apisDir: apis, outDir: join(work, 'generated') });
    assert.ok(result.ok, JSON.stringify(result.diagnostics));
    // A separate process: kubectl runs synchronously here.
    server = await startKgen({ generatedDir: join(work, 'generated'), storage: 'memory:', dataDir: join(work, 'data') });
    kubeconfig = server.kubeconfig;
    client = Clientset.fromKubeconfig(kubeconfig);
  });
  after(async () => {
    client?.rest.close();
    await server?.stop();
    removeDir(work);
  });

  it('does not serve the bundled kinds before the CRDs are applied', () => {
    const res = kubectl(kubeconfig, ['get', 'widgets.widgets.example.com']);
    assert.notEqual(res.code, 0);
    assert.match(res.stderr, /the server doesn.t have a resource type "widgets"/);
  });

  it('kubectl applies every generated CRD and they become Established', () => {
    const out = k('apply', '-f', join(REPO, 'generated', 'crds'));
    for (const name of ['policies.ops.example.org', 'runbooks.ops.example.org', 'widgetclasses.widgets.example.com', 'widgets.widgets.example.com']) {
      assert.match(out, new RegExp(`customresourcedefinition.apiextensions.k8s.io/${name.replace(/\./g, '\\.')} created`));
    }
    k('wait', '--for=condition=Established', '--timeout=30s', 'crd', '--all');
  });

  it('the generated typed client creates, reads, lists and updates status there', async () => {
    const widgets = client.widgetsExampleComV1.widgets('default');
    const created = await widgets.create({ metadata: { name: 'w1' }, spec: { replicas: 3, color: 'red' } });
    assert.equal(created.kind, 'Widget');
    assert.equal(created.spec.replicas, 3);
    assert.ok(created.metadata.uid);
    const got = await widgets.get('w1');
    assert.equal(got.spec.color, 'red');
    const list = await widgets.list();
    assert.deepEqual(
      list.items.map((w) => w.metadata.name),
      ['w1'],
    );
    const withStatus = await widgets.patchStatus('w1', { status: { phase: 'Spinning', replicas: 3 } }, 'merge');
    assert.equal(withStatus.status?.phase, 'Spinning');
    const classes = client.widgetsExampleComV1.widgetclasses();
    await classes.create({ metadata: { name: 'fast' }, provisioner: 'example.com/fast' });
    assert.equal((await classes.get('fast')).provisioner, 'example.com/fast');
  });

  it('kubectl prints the CRD printer columns', () => {
    assert.deepEqual(table(k('get', 'widgets', '-n', 'default'))[0], ['NAME', 'REPLICAS', 'COLOR']);
    const rows = table(k('get', 'widgets', '-n', 'default', '-o', 'wide'));
    assert.deepEqual(rows[0], ['NAME', 'REPLICAS', 'COLOR', 'PHASE']);
    assert.equal(rows[1]![0], 'w1');
    assert.equal(rows[1]![1], '3');
    assert.equal(rows[1]![2], 'red');
    assert.equal(rows[1]![3], 'Spinning');
  });

  it('enforces the CEL rules carried by the CRDs', async () => {
    const classes = client.widgetsExampleComV1.widgetclasses();
    await assert.rejects(classes.update({ ...(await classes.get('fast')), provisioner: 'example.com/slow' }), (err) => {
      assert.ok(isInvalid(err), String(err));
      assert.match(String((err as Error).message), /Value is immutable/);
      return true;
    });
  });
});

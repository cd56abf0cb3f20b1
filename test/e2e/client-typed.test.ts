/**
 * The generated Clientset beyond plain verbs, against a kgen server on generated/: loaded from the
 * kubeconfig the server wrote, typed status and scale calls (patchStatus, applyStatus, getScale,
 * updateScale, patchScale), and the typed shared informer factory (`clientset.informers()`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { Clientset } from '../../generated/client/index.js';
import type { Widget, WidgetClass } from '../../generated/models/widgets.example.com/v1.js';
import { isConflict, type Lister, type SharedIndexInformer } from '@kgen/client';
import { startServer, type RunningServer } from '../../runtime/controlplane/index.js';
import { REPO, removeDir, tempDir } from './harness.js';
import { until } from '../client/helpers.js';

describe('generated typed client: status, scale, kubeconfig and informers', () => {
  let server: RunningServer;
  let client: Clientset;
  const dataDir = tempDir('client-typed');

  before(async () => {
    server = await startServer({ generatedDir: join(REPO, 'generated'), storage: 'memory:', dataDir, port: 0, log: () => {} });
    client = Clientset.fromKubeconfig(server.kubeconfigPath, undefined, { qps: 50, burst: 100 });
  });
  after(async () => {
    client.rest.close();
    await server.close();
    removeDir(dataDir);
  });

  const widgets = () => client.widgetsExampleComV1.widgets('default');

  it('loads the server, and the overrides, from the kubeconfig', () => {
    assert.equal(client.rest.config.server, server.url);
    assert.equal(client.rest.config.qps, 50);
    assert.equal(client.rest.config.burst, 100);
  });

  it('patches and applies status through the status subresource only', async () => {
    await widgets().create({ metadata: { name: 'st' }, spec: { replicas: 2 } });
    const merged = await widgets().patchStatus('st', { status: { phase: 'Spinning', replicas: 2 }, spec: { replicas: 50 } }, 'merge');
    assert.equal(merged.status?.phase, 'Spinning');
    assert.equal(merged.spec.replicas, 2, 'a status patch ignores spec');
    const jsonPatched = await widgets().patchStatus('st', [{ op: 'replace', path: '/status/phase', value: 'Stopped' }], 'json');
    assert.equal(jsonPatched.status?.phase, 'Stopped');

    const desired: Widget = { metadata: { name: 'st', namespace: 'default' }, spec: {}, status: { phase: 'Pending', replicas: 2 } };
    await assert.rejects(widgets().applyStatus(desired, { fieldManager: 'status-controller' }), (err) => isConflict(err), 'kgen-client owns status.phase');
    const applied = await widgets().applyStatus(desired, { fieldManager: 'status-controller', force: true });
    assert.equal(applied.status?.phase, 'Pending');
    assert.equal(applied.kind, 'Widget', 'apply fills in the type meta');
    assert.ok(applied.metadata.managedFields?.some((m) => m.manager === 'status-controller' && m.subresource === 'status' && m.operation === 'Apply'));
  });

  it('reads, updates and patches the typed autoscaling/v1 Scale', async () => {
    const scale = await widgets().getScale('st');
    assert.equal(scale.kind, 'Scale');
    assert.equal(scale.apiVersion, 'autoscaling/v1');
    assert.equal(scale.spec.replicas, 2);
    assert.equal(scale.status?.replicas, 2);

    const updated = await widgets().updateScale('st', { ...scale, spec: { replicas: 4 } });
    assert.equal(updated.spec.replicas, 4);
    await assert.rejects(widgets().updateScale('st', { ...scale, spec: { replicas: 5 } }), (err) => isConflict(err), 'a stale Scale conflicts');

    const patched = await widgets().patchScale('st', { spec: { replicas: 6 } }, 'merge');
    assert.equal(patched.spec.replicas, 6);
    const jsonPatched = await widgets().patchScale('st', [{ op: 'replace', path: '/spec/replicas', value: 7 }], 'json');
    assert.equal(jsonPatched.spec.replicas, 7);
    assert.equal((await widgets().get('st')).spec.replicas, 7);
  });

  it('shares typed informers and listers per resource and namespace', async () => {
    await client.widgetsExampleComV1.widgetclasses().create({ metadata: { name: 'slow' }, provisioner: 'spinner.example.com' });
    const factory = client.informers({ backoff: { initialMs: 10, maxMs: 100 } });
    const widgetInformer: SharedIndexInformer<Widget> = factory.widgetsExampleComV1.widgets('default').informer();
    assert.equal(factory.widgetsExampleComV1.widgets('default').informer(), widgetInformer, 'one informer per resource and namespace');
    assert.notEqual(factory.widgetsExampleComV1.widgets().informer(), widgetInformer);
    const classes: Lister<WidgetClass> = factory.widgetsExampleComV1.widgetclasses().lister();
    const seen: string[] = [];
    widgetInformer.addEventHandler({ onAdd: (w) => seen.push(w.metadata.name!), onUpdate: (_, w) => seen.push(`${w.metadata.name}@${w.spec.replicas}`) });

    factory.start();
    await factory.waitForCacheSync();
    assert.deepEqual(seen, ['st']);
    assert.equal(classes.get('slow')?.provisioner, 'spinner.example.com');
    const lister = factory.widgetsExampleComV1.widgets('default').lister();
    assert.equal(lister.get('st')?.spec.replicas, 7);

    await widgets().mergePatch('st', { spec: { replicas: 8 } });
    await until(() => seen.length === 2, 'the update');
    assert.deepEqual(seen, ['st', 'st@8']);
    assert.equal(lister.namespace('default').get('st')?.spec.replicas, 8);
    await factory.shutdown();
  });
});

/**
 * @kubernetes/client-node 1.4.0 against `kgen serve`: the same scenarios as the kubectl workflow
 * through KubernetesObjectApi (which discovers the resource from /apis/<g>/<v>), Watch,
 * makeInformer (ListWatch) and CustomObjectsApi, with kube-apiserver's answers as the reference.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { REPO, kubectlOk, removeDir, startKgen, type KgenServer } from './harness.js';
import { apiError, loadKubeConfig, until } from './client-node-helpers.js';

interface Widget extends k8s.KubernetesObject {
  spec: { replicas?: number; color?: string };
  status?: { phase?: string; replicas?: number };
}

const API_VERSION = 'widgets.example.com/v1';
const GROUP = 'widgets.example.com';

function widget(name: string, namespace: string, spec: Widget['spec'], labels?: Record<string, string>): Widget {
  return { apiVersion: API_VERSION, kind: 'Widget', metadata: { name, namespace, ...(labels ? { labels } : {}) }, spec };
}

const ref = (name: string, namespace: string) => ({ apiVersion: API_VERSION, kind: 'Widget', metadata: { name, namespace } });

describe('@kubernetes/client-node against kgen serve', () => {
  let server: KgenServer;
  let kc: k8s.KubeConfig;
  let objects: k8s.KubernetesObjectApi;
  let custom: k8s.CustomObjectsApi;

  before(async () => {
    server = await startKgen({ generatedDir: join(REPO, 'generated'), storage: 'memory:' });
    for (const ns of ['objapi', 'watched', 'informed', 'custom']) kubectlOk(server.kubeconfig, ['create', 'namespace', ns]);
    kc = loadKubeConfig(server.kubeconfig);
    objects = k8s.KubernetesObjectApi.makeApiClient(kc);
    custom = kc.makeApiClient(k8s.CustomObjectsApi);
  });
  after(async () => {
    await server.stop();
    removeDir(server.dataDir);
  });

  describe('KubernetesObjectApi', () => {
    it('create, read and list', async () => {
      const created = await objects.create(widget('o1', 'objapi', { replicas: 2 }, { team: 'a' }));
      assert.equal(created.kind, 'Widget');
      assert.equal(created.apiVersion, API_VERSION);
      assert.match(created.metadata!.uid!, /^[0-9a-f-]{36}$/);
      assert.equal(typeof created.metadata!.resourceVersion, 'string');
      assert.deepEqual(created.spec, { replicas: 2, color: 'red' }, 'color is defaulted');
      await objects.create(widget('o2', 'objapi', { replicas: 3, color: 'blue' }, { team: 'b' }));
      await objects.create(widget('o3', 'objapi', { replicas: 4, color: 'blue' }));

      const read = await objects.read<Widget>(ref('o1', 'objapi'));
      assert.equal(read.metadata!.name, 'o1');
      assert.equal(read.spec.replicas, 2);

      const list = await objects.list<Widget>(API_VERSION, 'Widget', 'objapi');
      assert.equal(list.kind, 'WidgetList');
      assert.deepEqual(list.items.map((i) => i.metadata!.name), ['o1', 'o2', 'o3']);
      assert.match(list.metadata!.resourceVersion!, /^\d+$/);

      const byLabel = await objects.list<Widget>(API_VERSION, 'Widget', 'objapi', undefined, undefined, undefined, undefined, 'team');
      assert.deepEqual(byLabel.items.map((i) => i.metadata!.name), ['o1', 'o2']);
      const byField = await objects.list<Widget>(API_VERSION, 'Widget', 'objapi', undefined, undefined, undefined, 'spec.color=blue');
      assert.deepEqual(byField.items.map((i) => i.metadata!.name), ['o2', 'o3']);

      // Its list decodes metadata as ObjectMeta, so `continue` is dropped (as against kube): only the limit shows.
      const page = await objects.list<Widget>(API_VERSION, 'Widget', 'objapi', undefined, undefined, undefined, undefined, undefined, 2);
      assert.deepEqual(page.items.map((i) => i.metadata!.name), ['o1', 'o2']);

      const missing = await apiError(() => objects.read(ref('nope', 'objapi')));
      assert.equal(missing.code, 404);
      assert.equal(missing.status.reason, 'NotFound');
      assert.equal(missing.status.message, 'widgets.widgets.example.com "nope" not found');
    });

    it('patch with PatchStrategy.MergePatch, and the default strategic patch on a compiled kind', async () => {
      const patched = await objects.patch<Widget>(
        { ...ref('o1', 'objapi'), spec: { replicas: 5 } } as Widget,
        undefined,
        undefined,
        undefined,
        undefined,
        k8s.PatchStrategy.MergePatch,
      );
      assert.deepEqual(patched.spec, { replicas: 5, color: 'red' });
      assert.equal(patched.metadata!.generation, 2);

      const strategic = await objects.patch<Widget>({ ...ref('o1', 'objapi'), spec: { replicas: 6 } } as Widget);
      assert.deepEqual(strategic.spec, { replicas: 6, color: 'red' });
      await objects.patch<Widget>({ ...ref('o1', 'objapi'), spec: { replicas: 5 } } as Widget, undefined, undefined, undefined, undefined, k8s.PatchStrategy.MergePatch);
    });

    it('server-side apply with PatchStrategy.ServerSideApply creates and updates', async () => {
      const applied = await objects.patch<Widget>(widget('o4', 'objapi', { replicas: 1 }), undefined, undefined, 'client-node', true, k8s.PatchStrategy.ServerSideApply);
      assert.equal(applied.spec.replicas, 1);
      assert.deepEqual(applied.metadata!.managedFields?.map((m) => [m.manager, m.operation]), [['client-node', 'Apply']]);
      const again = await objects.patch<Widget>(widget('o4', 'objapi', { replicas: 7 }), undefined, undefined, 'client-node', true, k8s.PatchStrategy.ServerSideApply);
      assert.equal(again.spec.replicas, 7);
    });

    it('replace, with a stale resourceVersion a 409', async () => {
      const current = await objects.read<Widget>(ref('o2', 'objapi'));
      const replaced = await objects.replace<Widget>({ ...current, spec: { replicas: 9, color: 'green' } });
      assert.deepEqual(replaced.spec, { replicas: 9, color: 'green' });
      assert.notEqual(replaced.metadata!.resourceVersion, current.metadata!.resourceVersion);

      const stale = await apiError(() => objects.replace<Widget>({ ...current, spec: { replicas: 1 } }));
      assert.equal(stale.code, 409);
      assert.equal(stale.status.reason, 'Conflict');
      assert.equal(
        stale.status.message,
        'Operation cannot be fulfilled on widgets.widgets.example.com "o2": the object has been modified; please apply your changes to the latest version and try again',
      );
    });

    it('delete answers a Success Status (as kube does for custom resources), then read is a 404', async () => {
      const uid = (await objects.read(ref('o3', 'objapi'))).metadata!.uid;
      const status = await objects.delete(ref('o3', 'objapi'));
      assert.equal(status.kind, 'Status');
      assert.equal(status.status, 'Success');
      assert.deepEqual({ ...status.details }, { name: 'o3', group: GROUP, kind: 'widgets', uid });
      const gone = await apiError(() => objects.read(ref('o3', 'objapi')));
      assert.equal(gone.code, 404);
      const again = await apiError(() => objects.delete(ref('o3', 'objapi')));
      assert.equal(again.code, 404);
      assert.equal(again.status.kind, 'Status');
      assert.equal(again.status.status, 'Failure');
    });
  });

  it('Watch sees ADDED, MODIFIED and DELETED, with the objects as they were', async () => {
    const events: { type: string; name: string; replicas?: number }[] = [];
    let doneErr: unknown = 'not done';
    const watch = new k8s.Watch(kc);
    const controller = await watch.watch(
      '/apis/widgets.example.com/v1/namespaces/watched/widgets',
      { allowWatchBookmarks: true },
      (type, obj: Widget) => events.push({ type, name: obj.metadata!.name!, replicas: obj.spec?.replicas }),
      (err) => (doneErr = err),
    );
    try {
      await objects.create(widget('wa', 'watched', { replicas: 1 }));
      await objects.patch(
        { ...ref('wa', 'watched'), spec: { replicas: 2 } } as Widget,
        undefined,
        undefined,
        undefined,
        undefined,
        k8s.PatchStrategy.MergePatch,
      );
      await objects.delete(ref('wa', 'watched'));
      await until(() => events.some((e) => e.type === 'DELETED'), () => JSON.stringify(events));
      assert.deepEqual(
        events.filter((e) => e.type !== 'BOOKMARK'),
        [
          { type: 'ADDED', name: 'wa', replicas: 1 },
          { type: 'MODIFIED', name: 'wa', replicas: 2 },
          { type: 'DELETED', name: 'wa', replicas: 2 },
        ],
      );
    } finally {
      controller.abort();
    }
    await until(() => doneErr !== 'not done', () => 'done was not called after abort');
  });

  it('Watch from resourceVersion=0 starts with ADDED for what exists; a single object via metadata.name', async () => {
    await objects.create(widget('wb', 'watched', { replicas: 3 }));
    await objects.create(widget('wc', 'watched', { replicas: 4 }));
    const events: string[] = [];
    const watch = new k8s.Watch(kc);
    const controller = await watch.watch(
      '/apis/widgets.example.com/v1/namespaces/watched/widgets',
      { resourceVersion: '0', fieldSelector: 'metadata.name=wc' },
      (type, obj: Widget) => events.push(`${type} ${obj.metadata!.name} ${obj.spec.replicas}`),
      () => {},
    );
    try {
      await until(() => events.length >= 1, () => JSON.stringify(events));
      await objects.patch({ ...ref('wb', 'watched'), spec: { replicas: 30 } } as Widget, undefined, undefined, undefined, undefined, k8s.PatchStrategy.MergePatch);
      await objects.patch({ ...ref('wc', 'watched'), spec: { replicas: 40 } } as Widget, undefined, undefined, undefined, undefined, k8s.PatchStrategy.MergePatch);
      await until(() => events.length >= 2, () => JSON.stringify(events));
      assert.deepEqual(events, ['ADDED wc 4', 'MODIFIED wc 40']);
    } finally {
      controller.abort();
    }
  });

  it('makeInformer: add/update/delete callbacks and a cache that lists the objects', async () => {
    await objects.create(widget('i1', 'informed', { replicas: 1 }));
    const informer = k8s.makeInformer<Widget>(kc, '/apis/widgets.example.com/v1/namespaces/informed/widgets', () =>
      objects.list<Widget>(API_VERSION, 'Widget', 'informed'),
    );
    const seen: string[] = [];
    const errors: unknown[] = [];
    informer.on(k8s.ADD, (o) => seen.push(`add ${o.metadata!.name} ${o.spec.replicas}`));
    informer.on(k8s.UPDATE, (o) => seen.push(`update ${o.metadata!.name} ${o.spec.replicas}`));
    informer.on(k8s.DELETE, (o) => seen.push(`delete ${o.metadata!.name}`));
    informer.on(k8s.ERROR, (err) => errors.push(err));
    await informer.start();
    try {
      await until(() => seen.includes('add i1 1'), () => JSON.stringify(seen));
      await objects.create(widget('i2', 'informed', { replicas: 2 }));
      await objects.patch({ ...ref('i1', 'informed'), spec: { replicas: 10 } } as Widget, undefined, undefined, undefined, undefined, k8s.PatchStrategy.MergePatch);
      await until(() => seen.includes('update i1 10') && seen.includes('add i2 2'), () => JSON.stringify(seen));
      assert.deepEqual(
        informer.list('informed').map((o) => `${o.metadata!.name} ${o.spec.replicas}`).sort(),
        ['i1 10', 'i2 2'],
      );
      assert.equal(informer.get('i2', 'informed')?.spec.replicas, 2);

      await objects.delete(ref('i2', 'informed'));
      await until(() => seen.includes('delete i2'), () => JSON.stringify(seen));
      assert.deepEqual(seen, ['add i1 1', 'add i2 2', 'update i1 10', 'delete i2']);
      assert.deepEqual(informer.list().map((o) => o.metadata!.name), ['i1']);
      assert.equal(informer.get('i2', 'informed'), undefined);
      assert.deepEqual(errors, []);
    } finally {
      await informer.stop();
    }
  });

  it('delete with a finalizer returns the terminating object; removing the finalizer deletes it', async () => {
    const at = { group: GROUP, version: 'v1', namespace: 'objapi', plural: 'widgets' };
    await objects.create({ ...widget('fin', 'objapi', { replicas: 1 }), metadata: { name: 'fin', namespace: 'objapi', finalizers: ['example.com/hold'] } });
    const terminating = await objects.delete(ref('fin', 'objapi'));
    assert.equal(terminating.kind, 'Widget', 'a deletion that waits on finalizers answers with the object');
    const read = await objects.read<Widget>(ref('fin', 'objapi'));
    assert.match(String(read.metadata!.deletionTimestamp), /\d{4}/);
    assert.deepEqual(read.metadata!.finalizers, ['example.com/hold']);
    await custom.patchNamespacedCustomObject({ ...at, name: 'fin', body: [{ op: 'remove', path: '/metadata/finalizers' }] });
    assert.equal((await apiError(() => objects.read(ref('fin', 'objapi')))).code, 404);
  });

  it('deleting a namespace deletes the widgets in it, then the namespace', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'doomed' } } });
    await objects.create(widget('d1', 'doomed', {}));
    await objects.create(widget('d2', 'doomed', {}));
    // Typed as V1Status, but kube answers a namespace DELETE with the Terminating namespace.
    const ns = (await core.deleteNamespace({ name: 'doomed' })) as unknown as k8s.V1Namespace;
    assert.equal(ns.kind, 'Namespace');
    assert.equal(ns.status?.phase, 'Terminating');
    const status = () => core.readNamespace({ name: 'doomed' }).then((n) => n.status?.phase ?? '', (e: k8s.ApiException<unknown>) => e.code);
    let last: string | number = '';
    await until(async () => (last = await status()) === 404, () => `namespace doomed is still there: ${last}`, 15_000);
    const left = await objects.list<Widget>(API_VERSION, 'Widget', 'doomed');
    assert.deepEqual(left.items, []);
  });

  it('CustomObjectsApi: create, get, list, patch (JSON and merge), status, scale, replace and delete', async () => {
    const at = { group: GROUP, version: 'v1', namespace: 'custom', plural: 'widgets' };
    const created = await custom.createNamespacedCustomObject({ ...at, body: widget('c1', 'custom', { replicas: 2 }) });
    assert.equal(created.metadata.name, 'c1');
    assert.equal(created.spec.color, 'red');

    const got = await custom.getNamespacedCustomObject({ ...at, name: 'c1' });
    assert.equal(got.metadata.uid, created.metadata.uid);
    const list = await custom.listNamespacedCustomObject({ ...at });
    assert.equal(list.kind, 'WidgetList');
    assert.deepEqual(list.items.map((i: Widget) => i.metadata!.name), ['c1']);
    await custom.createNamespacedCustomObject({ ...at, body: widget('c0', 'custom', { replicas: 1 }) });
    const page1 = await custom.listNamespacedCustomObject({ ...at, limit: 1 });
    assert.deepEqual(page1.items.map((i: Widget) => i.metadata!.name), ['c0']);
    assert.equal(typeof page1.metadata.continue, 'string');
    const page2 = await custom.listNamespacedCustomObject({ ...at, limit: 1, _continue: page1.metadata.continue });
    assert.deepEqual(page2.items.map((i: Widget) => i.metadata!.name), ['c1']);
    assert.equal(page2.metadata.continue, undefined);
    await custom.deleteNamespacedCustomObject({ ...at, name: 'c0' });

    const all = await custom.listClusterCustomObject({ group: GROUP, version: 'v1', plural: 'widgets' });
    assert.ok(all.items.some((i: Widget) => i.metadata!.namespace === 'custom' && i.metadata!.name === 'c1'));

    // CustomObjectsApi sends a JSON patch by default; merge patch through a Content-Type header option.
    const jsonPatched = await custom.patchNamespacedCustomObject({ ...at, name: 'c1', body: [{ op: 'replace', path: '/spec/replicas', value: 3 }] });
    assert.equal(jsonPatched.spec.replicas, 3);
    const merged = await custom.patchNamespacedCustomObject(
      { ...at, name: 'c1', body: { spec: { color: 'blue' } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    assert.deepEqual(merged.spec, { replicas: 3, color: 'blue' });

    const withStatus = await custom.patchNamespacedCustomObjectStatus(
      { ...at, name: 'c1', body: { status: { phase: 'Spinning' }, spec: { replicas: 99 } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    assert.equal(withStatus.status.phase, 'Spinning');
    assert.equal(withStatus.spec.replicas, 3, 'a write to /status ignores spec');

    const scale = await custom.getNamespacedCustomObjectScale({ ...at, name: 'c1' });
    assert.equal(scale.kind, 'Scale');
    assert.equal(scale.apiVersion, 'autoscaling/v1');
    assert.equal(scale.spec.replicas, 3);
    const scaled = await custom.patchNamespacedCustomObjectScale(
      { ...at, name: 'c1', body: { spec: { replicas: 6 } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    assert.equal(scaled.spec.replicas, 6);

    const current = await custom.getNamespacedCustomObject({ ...at, name: 'c1' });
    assert.equal(current.spec.replicas, 6);
    const replaced = await custom.replaceNamespacedCustomObject({ ...at, name: 'c1', body: { ...current, spec: { replicas: 1 } } });
    assert.deepEqual(replaced.spec, { replicas: 1, color: 'red' }, 'replace defaults the fields it drops');

    const invalid = await apiError(() => custom.createNamespacedCustomObject({ ...at, body: widget('c2', 'custom', { replicas: 500 }) }));
    assert.equal(invalid.code, 422);
    assert.equal(invalid.status.reason, 'Invalid');
    assert.deepEqual(invalid.status.details?.causes?.map((c) => c.field), ['spec.replicas']);

    await custom.deleteNamespacedCustomObject({ ...at, name: 'c1' });
    const gone = await apiError(() => custom.getNamespacedCustomObject({ ...at, name: 'c1' }));
    assert.equal(gone.code, 404);
  });
});

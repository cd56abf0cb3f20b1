/**
 * The generated typed client (generated/client) against a running kgen server: every verb, a
 * conflict on a stale resourceVersion, and a 422 on a schema violation, all fully typed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { Clientset } from '../../generated/client/index.js';
import type { Widget } from '../../generated/models/widgets.example.com/v1.js';
import { StatusError, isConflict, isInvalid, isNotFound } from '@kgen/client';
import { startServer, type RunningServer } from '../../runtime/controlplane/index.js';
import { REPO, removeDir, tempDir } from './harness.js';

describe('generated typed client', () => {
  let server: RunningServer;
  let client: Clientset;
  const dataDir = tempDir('typed-client');

  before(async () => {
    server = await startServer({ generatedDir: join(REPO, 'generated'), storage: 'memory:', dataDir, port: 0, log: () => {}, insecureDevMode: true });
    client = new Clientset({ server: server.url, qps: 0 });
  });
  after(async () => {
    await server.close();
    removeDir(dataDir);
  });

  const widgets = () => client.widgetsExampleComV1.widgets('default');

  it('creates, gets and lists', async () => {
    const created: Widget = await widgets().create({ metadata: { name: 'tc1' }, spec: { replicas: 2, color: 'green' } });
    assert.equal(created.kind, 'Widget');
    assert.equal(created.apiVersion, 'widgets.example.com/v1');
    assert.match(created.metadata.uid!, /^[0-9a-f-]{36}$/);
    assert.equal(created.metadata.generation, 1);
    assert.equal(typeof created.metadata.resourceVersion, 'string');

    const got = await widgets().get('tc1');
    assert.equal(got.spec.replicas, 2);
    assert.equal(got.spec.color, 'green');

    const list = await widgets().list();
    assert.equal(list.kind, 'WidgetList');
    assert.deepEqual(list.items.map((w) => w.metadata.name), ['tc1']);
    assert.equal(typeof list.metadata.resourceVersion, 'string');
  });

  it('applies schema defaults on create', async () => {
    const w = await widgets().create({ metadata: { name: 'tc-defaults' }, spec: {} });
    assert.equal(w.spec.replicas, 1);
    assert.equal(w.spec.color, 'red');
  });

  it('updates, bumping generation on spec changes only', async () => {
    const current = await widgets().get('tc1');
    const updated = await widgets().update({ ...current, spec: { ...current.spec, replicas: 4 } });
    assert.equal(updated.spec.replicas, 4);
    assert.equal(updated.metadata.generation, 2);
    assert.notEqual(updated.metadata.resourceVersion, current.metadata.resourceVersion);

    const labelled = await widgets().update({ ...updated, metadata: { ...updated.metadata, labels: { team: 'a' } } });
    assert.equal(labelled.metadata.generation, 2);
  });

  it('updates status through the status subresource only', async () => {
    const current = await widgets().get('tc1');
    const withStatus = await widgets().updateStatus({ ...current, spec: { ...current.spec, replicas: 99 }, status: { replicas: 4, phase: 'Spinning' } });
    assert.equal(withStatus.status?.phase, 'Spinning');
    assert.equal(withStatus.spec.replicas, 4, 'a status write ignores spec');
    assert.equal(withStatus.metadata.generation, current.metadata.generation);

    const mainWrite = await widgets().update({ ...withStatus, status: { phase: 'Stopped' } });
    assert.equal(mainWrite.status?.phase, 'Spinning', 'a main-resource write ignores status');
  });

  it('patches with merge and JSON patch', async () => {
    const merged = await widgets().mergePatch('tc1', { spec: { color: 'blue' } });
    assert.equal(merged.spec.color, 'blue');
    const patched = await widgets().jsonPatch('tc1', [{ op: 'replace', path: '/spec/replicas', value: 7 }]);
    assert.equal(patched.spec.replicas, 7);
  });

  it('reports a conflict on a stale resourceVersion', async () => {
    const current = await widgets().get('tc1');
    await widgets().mergePatch('tc1', { spec: { replicas: 8 } });
    await assert.rejects(widgets().update({ ...current, spec: { ...current.spec, replicas: 9 } }), (err: unknown) => {
      assert.ok(isConflict(err));
      assert.match((err as StatusError).message, /the object has been modified; please apply your changes to the latest version and try again/);
      return true;
    });
  });

  it('reports a 422 with a cause per field on a schema violation', async () => {
    await assert.rejects(
      widgets().create({ metadata: { name: 'tc-bad' }, spec: { replicas: 500, parts: [{ name: 'Bad Name', count: 0 }] } }),
      (err: unknown) => {
        assert.ok(isInvalid(err));
        const status = (err as StatusError).status;
        assert.equal(status.code, 422);
        const fields = (status.details?.causes ?? []).map((c) => c.field).sort();
        assert.deepEqual(fields, ['spec.parts[0].count', 'spec.parts[0].name', 'spec.replicas']);
        return true;
      },
    );
  });

  it('deletes, then get is NotFound', async () => {
    await widgets().delete('tc1');
    await assert.rejects(widgets().get('tc1'), (err: unknown) => isNotFound(err));
  });

  it('works for cluster-scoped kinds and the core group', async () => {
    const wc = await client.widgetsExampleComV1.widgetclasses().create({ metadata: { name: 'fast' }, provisioner: 'spinner.example.com' });
    assert.equal(wc.retention, '24h');
    const ns = await client.coreV1.namespaces().get('default');
    assert.equal(ns.status?.phase, 'Active');
  });
});

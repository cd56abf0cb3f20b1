/**
 * What a write through `…/status` keeps besides status, kind by kind, as kube's status
 * strategies: a custom resource keeps nothing else; Namespace, Service and PersistentVolumeClaim
 * reset only spec, a Deployment also its labels, so their annotations (and labels, but a
 * Deployment's) change with the status write, and the status manager owns what it changed
 * (kube's GetResetFields).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, WIDGETS, type TestServer } from './testserver.js';

const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const SERVICES = '/api/v1/namespaces/default/services';

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { tier: 'front' }, annotations: { note: 'one' } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  },
};

interface Managed {
  manager: string;
  operation: string;
  subresource?: string;
  fieldsV1: Record<string, unknown>;
}

function managerEntry(obj: { metadata: { managedFields?: Managed[] } }, manager: string): Managed | undefined {
  return obj.metadata.managedFields?.find((m) => m.manager === manager);
}

describe('status writes of built-in kinds keep what kube keeps', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false });
  });
  after(() => t.close());

  it('Deployment: annotations change, labels and spec stay, generation does not move', async () => {
    const created = await t.request('POST', DEPLOYMENTS, { body: deployment });
    assert.equal(created.status, 201, created.text);
    const live = created.body;
    const sent = structuredClone(live);
    sent.metadata.annotations = { note: 'two', added: 'yes' };
    sent.metadata.labels = { tier: 'back' };
    sent.spec.replicas = 5;
    sent.status = { observedGeneration: 1, replicas: 2 };
    const put = await t.request('PUT', `${DEPLOYMENTS}/web/status?fieldManager=status-writer`, { body: sent });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body.metadata.annotations, { note: 'two', added: 'yes' });
    assert.deepEqual(put.body.metadata.labels, { tier: 'front' });
    assert.equal(put.body.spec.replicas, 2);
    assert.deepEqual(put.body.status, { observedGeneration: 1, replicas: 2 });
    assert.equal(put.body.metadata.generation, live.metadata.generation);
    const entry = managerEntry(put.body, 'status-writer');
    assert.equal(entry?.subresource, 'status');
    const meta = entry?.fieldsV1['f:metadata'] as Record<string, unknown>;
    assert.deepEqual(Object.keys(meta).sort(), ['f:annotations']);
    assert.deepEqual(Object.keys(meta['f:annotations'] as object).sort(), ['f:added', 'f:note']);
    assert.equal(entry?.fieldsV1['f:spec'], undefined);
    const got = await t.request('GET', `${DEPLOYMENTS}/web`);
    assert.deepEqual(got.body.metadata.annotations, { note: 'two', added: 'yes' });
    assert.deepEqual(got.body.metadata.labels, { tier: 'front' });
  });

  it('Deployment: server-side apply to status owns the annotations it applies, not the labels', async () => {
    const applied = await t.request('PATCH', `${DEPLOYMENTS}/web/status?fieldManager=applier&force=true`, {
      body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', annotations: { applied: 'a' }, labels: { tier: 'x' } }, status: { replicas: 2, observedGeneration: 1 } },
      contentType: 'application/apply-patch+yaml',
    });
    assert.equal(applied.status, 200, applied.text);
    assert.equal(applied.body.metadata.annotations.applied, 'a');
    assert.deepEqual(applied.body.metadata.labels, { tier: 'front' });
    const meta = managerEntry(applied.body, 'applier')?.fieldsV1['f:metadata'] as Record<string, unknown>;
    assert.deepEqual(Object.keys(meta).sort(), ['f:annotations']);
  });

  it('Service and Namespace: labels and annotations change through status, spec stays', async () => {
    const svc = await t.request('POST', SERVICES, { body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' }, spec: { ports: [{ port: 80 }] } } });
    assert.equal(svc.status, 201, svc.text);
    const patched = await t.request('PATCH', `${SERVICES}/svc/status`, {
      body: { metadata: { labels: { l: 'v' }, annotations: { a: 'b' } }, spec: { ports: [{ port: 81 }] }, status: { loadBalancer: {} } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body.metadata.labels, { l: 'v' });
    assert.deepEqual(patched.body.metadata.annotations, { a: 'b' });
    assert.equal(patched.body.spec.ports[0].port, 80);

    const ns = await t.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } } });
    assert.equal(ns.status, 201, ns.text);
    const nsPatched = await t.request('PATCH', '/api/v1/namespaces/team/status', {
      body: { metadata: { labels: { owner: 'me' } }, spec: { finalizers: [] } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(nsPatched.status, 200, nsPatched.text);
    assert.equal(nsPatched.body.metadata.labels.owner, 'me');
    assert.deepEqual(nsPatched.body.spec, ns.body.spec);
  });

  it('a custom resource keeps only its status, as kube\'s customresource status strategy', async () => {
    const w = await t.request('POST', WIDGETS, { body: { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'w', annotations: { a: '1' } }, spec: { replicas: 1 } } });
    assert.equal(w.status, 201, w.text);
    const patched = await t.request('PATCH', `${WIDGETS}/w/status`, {
      body: { metadata: { labels: { l: 'v' }, annotations: { a: '2' } }, status: { phase: 'Ready' } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.metadata.labels, undefined);
    assert.deepEqual(patched.body.metadata.annotations, { a: '1' });
    assert.equal(patched.body.status.phase, 'Ready');
  });
});

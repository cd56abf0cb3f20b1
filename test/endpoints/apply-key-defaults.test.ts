/**
 * Server-side apply keys a `map` list's item by all its key fields, a missing one by its schema
 * default (structured-merge-diff's keyedAssociativeListItemToPathElement): a port applied
 * without `protocol` is `k:{"containerPort":80,"protocol":"TCP"}`, the item defaulting stores,
 * so ownership meets between an apply and a later update that names the protocol.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../server/testserver.js';

const APPLY = 'application/apply-patch+yaml';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const SERVICES = '/api/v1/namespaces/default/services';
const PORT80 = 'k:{"containerPort":80,"protocol":"TCP"}';

type Entry = { manager: string; operation: string; time?: string; fieldsV1: Record<string, any> };

function deployment(name: string, port: Record<string, unknown>) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'x', ports: [port] }] } },
    },
  };
}

/** The FieldsV1 of manager's entry under the container's ports. */
function portsOf(obj: { metadata: { managedFields: Entry[] } }, manager: string): Record<string, unknown> | undefined {
  const entry = obj.metadata.managedFields.find((e) => e.manager === manager);
  return entry?.fieldsV1['f:spec']?.['f:template']?.['f:spec']?.['f:containers']?.['k:{"name":"c"}']?.['f:ports'];
}

describe('server-side apply: map-list keys with defaults', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it('keys a port applied without protocol by the default, so a later update by another manager shares the item', async () => {
    const url = `${DEPLOYMENTS}/kd1`;
    const created = await t.request('PATCH', `${url}?fieldManager=a`, { body: deployment('kd1', { containerPort: 80 }), contentType: APPLY });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.spec.template.spec.containers[0].ports, [{ containerPort: 80, protocol: 'TCP' }]);
    assert.deepEqual(portsOf(created.body, 'a'), { [PORT80]: { '.': {}, 'f:containerPort': {} } });

    // Applying the same configuration again is a no-op: the stored port is the applied item.
    const again = await t.request('PATCH', `${url}?fieldManager=a`, { body: deployment('kd1', { containerPort: 80 }), contentType: APPLY });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.metadata.resourceVersion, created.body.metadata.resourceVersion);
    assert.deepEqual(again.body.spec.template.spec.containers[0].ports, [{ containerPort: 80, protocol: 'TCP' }]);

    // Another manager updates the same port, naming its protocol, and adds a hostPort.
    const live = again.body;
    live.spec.template.spec.containers[0].ports = [{ containerPort: 80, protocol: 'TCP', hostPort: 8080 }];
    const updated = await t.request('PUT', `${url}?fieldManager=b`, { body: live });
    assert.equal(updated.status, 200, updated.text);
    assert.deepEqual(portsOf(updated.body, 'a'), { [PORT80]: { '.': {}, 'f:containerPort': {} } }, 'the applier keeps the item');
    assert.deepEqual(portsOf(updated.body, 'b'), { [PORT80]: { 'f:hostPort': {} } });

    // The applier changing that hostPort conflicts with b, on the item named with its default.
    const conflict = await t.request('PATCH', `${url}?fieldManager=a`, { body: deployment('kd1', { containerPort: 80, hostPort: 9090 }), contentType: APPLY });
    assert.equal(conflict.status, 409, conflict.text);
    const field = '.spec.template.spec.containers[name="c"].ports[containerPort=80,protocol="TCP"].hostPort';
    assert.equal(conflict.body.message, `Apply failed with 1 conflict: conflict with "b" using apps/v1: ${field}`);
    assert.deepEqual(conflict.body.details.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "b" using apps/v1', field }]);

    // Forced, the applier takes hostPort; the port stays one item.
    const forced = await t.request('PATCH', `${url}?fieldManager=a&force=true`, { body: deployment('kd1', { containerPort: 80, hostPort: 9090 }), contentType: APPLY });
    assert.equal(forced.status, 200, forced.text);
    assert.deepEqual(forced.body.spec.template.spec.containers[0].ports, [{ containerPort: 80, protocol: 'TCP', hostPort: 9090 }]);
    assert.deepEqual(portsOf(forced.body, 'a'), { [PORT80]: { '.': {}, 'f:containerPort': {}, 'f:hostPort': {} } });
    assert.equal(portsOf(forced.body, 'b'), undefined);

    // Dropping the port from the configuration removes it: the applier owned the item.
    const dropped = await t.request('PATCH', `${url}?fieldManager=a`, {
      body: { ...deployment('kd1', {}), spec: { ...deployment('kd1', {}).spec, template: { metadata: { labels: { app: 'kd1' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } } },
      contentType: APPLY,
    });
    assert.equal(dropped.status, 200, dropped.text);
    assert.equal(dropped.body.spec.template.spec.containers[0].ports, undefined);
  });

  it('keys a Service port by port and the default protocol; an explicit UDP port is another item', async () => {
    const service = (ports: Record<string, unknown>[]) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'kd2' }, spec: { ports } });
    const r = await t.request('PATCH', `${SERVICES}/kd2?fieldManager=a`, { body: service([{ name: 'dns', port: 53 }, { name: 'dns-udp', port: 53, protocol: 'UDP' }]), contentType: APPLY });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.spec.ports.map((p: { protocol: string }) => p.protocol), ['TCP', 'UDP']);
    const entry = (r.body.metadata.managedFields as Entry[]).find((e) => e.manager === 'a')!;
    assert.deepEqual(Object.keys(entry.fieldsV1['f:spec']['f:ports']), ['k:{"port":53,"protocol":"TCP"}', 'k:{"port":53,"protocol":"UDP"}']);
    assert.deepEqual(entry.fieldsV1['f:spec']['f:ports']['k:{"port":53,"protocol":"TCP"}'], { '.': {}, 'f:name': {}, 'f:port': {} });
    assert.deepEqual(entry.fieldsV1['f:spec']['f:ports']['k:{"port":53,"protocol":"UDP"}'], { '.': {}, 'f:name': {}, 'f:port': {}, 'f:protocol': {} });
  });

  it('reads managedFields recorded the old way (k:{"containerPort":80}) as the defaulted item, keeping ownership', async () => {
    const url = `${DEPLOYMENTS}/kd3`;
    const created = await t.request('PATCH', `${url}?fieldManager=a`, { body: deployment('kd3', { containerPort: 80 }), contentType: APPLY });
    assert.equal(created.status, 201, created.text);
    // A client sends back managedFields in the form kgen recorded before (as a GET of an object
    // stored then returns them), with b owning the port's hostPort.
    const live = created.body;
    const old = 'k:{"containerPort":80}';
    const a = (live.metadata.managedFields as Entry[])[0]!;
    const container = a.fieldsV1['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"c"}'];
    container['f:ports'] = { [old]: { '.': {}, 'f:containerPort': {} } };
    live.metadata.managedFields.push({
      manager: 'b',
      operation: 'Update',
      apiVersion: 'apps/v1',
      time: a.time,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { 'f:ports': { [old]: { 'f:hostPort': {} } } } } } } } },
    });
    live.spec.template.spec.containers[0].ports = [{ containerPort: 80, protocol: 'TCP', hostPort: 8080 }];
    const updated = await t.request('PUT', `${url}?fieldManager=b`, { body: live });
    assert.equal(updated.status, 200, updated.text);
    assert.deepEqual(portsOf(updated.body, 'a'), { [PORT80]: { '.': {}, 'f:containerPort': {} } });
    assert.deepEqual(portsOf(updated.body, 'b'), { [PORT80]: { 'f:hostPort': {} } });
    // Ownership read from the old form holds: b's hostPort conflicts with the applier.
    const conflict = await t.request('PATCH', `${url}?fieldManager=a`, { body: deployment('kd3', { containerPort: 80, hostPort: 9090 }), contentType: APPLY });
    assert.equal(conflict.status, 409, conflict.text);
    assert.match(conflict.body.message, /conflict with "b" using apps\/v1: \.spec\.template\.spec\.containers\[name="c"\]\.ports\[containerPort=80,protocol="TCP"\]\.hostPort$/);
  });
});

/**
 * The control-plane kinds' controllers and API behaviour in one server: every namespace gets its
 * `default` ServiceAccount (and gets it back when deleted), namespace deletion removes ConfigMaps,
 * Secrets, ServiceAccounts, Events and Leases, Events expire after --event-ttl, and Events are
 * selected by kube's field labels and printed as kube's event table.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, TABLE_ACCEPT, type TestServer } from '../server/testserver.js';

const until = async (what: string, check: () => Promise<boolean>, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
};

function event(name: string, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name },
    involvedObject: { kind: 'Widget', apiVersion: 'widgets.example.com/v1', namespace: 'default', name: 'w1', uid: 'u-1' },
    reason: 'Spun',
    message: 'spun up  ',
    type: 'Normal',
    source: { component: 'widget-controller' },
    ...extra,
  };
}

describe('control-plane kinds', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ eventTTLMs: 1500 });
    await t.server.controllers!.synced;
  });
  after(() => t.close());

  it('gives every namespace a default ServiceAccount, and gives it back when deleted', async () => {
    await until('default/default', async () => (await t.request('GET', '/api/v1/namespaces/default/serviceaccounts/default')).status === 200);
    assert.equal((await t.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } } })).status, 201);
    await until('team-a/default', async () => (await t.request('GET', '/api/v1/namespaces/team-a/serviceaccounts/default')).status === 200);
    const uid = (await t.request('GET', '/api/v1/namespaces/team-a/serviceaccounts/default')).body.metadata.uid;
    assert.equal((await t.request('DELETE', '/api/v1/namespaces/team-a/serviceaccounts/default')).status, 200);
    await until('a new team-a/default', async () => {
      const res = await t.request('GET', '/api/v1/namespaces/team-a/serviceaccounts/default');
      return res.status === 200 && res.body.metadata.uid !== uid;
    });
  });

  it('removes ConfigMaps, Secrets, ServiceAccounts, Events and Leases with their namespace', async () => {
    const ns = 'doomed';
    assert.equal((await t.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } })).status, 201);
    const paths = [
      [`/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }],
      [`/api/v1/namespaces/${ns}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } }],
      [`/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa' } }],
      // An Event names an object of its own namespace (kube's legacyValidateEvent).
      [`/api/v1/namespaces/${ns}/events`, event('e', { metadata: { name: 'e' }, involvedObject: { kind: 'Widget', apiVersion: 'widgets.example.com/v1', namespace: ns, name: 'w1', uid: 'u-1' } })],
      [`/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { holderIdentity: 'me' } }],
    ] as const;
    for (const [path, body] of paths) assert.equal((await t.request('POST', path, { body })).status, 201, path);
    assert.equal((await t.request('DELETE', `/api/v1/namespaces/${ns}`)).status, 200);
    await until('the namespace to go', async () => (await t.request('GET', `/api/v1/namespaces/${ns}`)).status === 404);
    for (const [path] of paths) assert.deepEqual((await t.request('GET', path)).body.items, [], path);
  });

  it('selects Events by involvedObject, reason, type and source, and prints kube\'s event table', async () => {
    assert.equal((await t.request('POST', '/api/v1/namespaces/default/events', { body: event('e1', { count: 3, firstTimestamp: new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z/, 'Z') }) })).status, 201);
    assert.equal((await t.request('POST', '/api/v1/namespaces/default/events', { body: event('e2', { involvedObject: { kind: 'Widget', name: 'w2', namespace: 'default' }, type: 'Warning', reason: 'Broke' }) })).status, 201);
    const select = async (selector: string) =>
      ((await t.request('GET', `/api/v1/namespaces/default/events?fieldSelector=${encodeURIComponent(selector)}`)).body.items as { metadata: { name: string } }[]).map((e) => e.metadata.name).sort();
    assert.deepEqual(await select('involvedObject.kind=Widget,involvedObject.name=w1,involvedObject.namespace=default,involvedObject.uid=u-1'), ['e1']);
    assert.deepEqual(await select('reason=Broke'), ['e2']);
    assert.deepEqual(await select('type=Warning'), ['e2']);
    assert.deepEqual(await select('source=widget-controller'), ['e1', 'e2']);
    assert.deepEqual(await select('source!=widget-controller'), []);
    const bad = await t.request('GET', '/api/v1/namespaces/default/events?fieldSelector=spec.x%3Dy');
    assert.equal(bad.status, 400);
    const table = (await t.request('GET', '/api/v1/namespaces/default/events?fieldSelector=metadata.name%3De1', { accept: TABLE_ACCEPT })).body;
    assert.deepEqual(table.columnDefinitions.map((c: { name: string }) => c.name), ['Last Seen', 'Type', 'Reason', 'Object', 'Subobject', 'Source', 'Message', 'First Seen', 'Count', 'Name']);
    const [lastSeen, type, reason, object, , source, message, firstSeen, count, name] = table.rows[0].cells;
    assert.deepEqual([type, reason, object, source, message, count, name], ['Normal', 'Spun', 'widget/w1', 'widget-controller', 'spun up', 3, 'e1']);
    assert.match(firstSeen, /^6\ds$/);
    assert.equal(lastSeen, firstSeen);
  });

  it('prints ConfigMaps and Secrets with their key counts', async () => {
    await t.request('POST', '/api/v1/namespaces/default/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'counted' }, data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } } });
    const cm = (await t.request('GET', '/api/v1/namespaces/default/configmaps/counted', { accept: TABLE_ACCEPT })).body;
    assert.deepEqual(cm.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Data', 'Age']);
    assert.deepEqual(cm.rows[0].cells.slice(0, 2), ['counted', 3]);
    await t.request('POST', '/api/v1/namespaces/default/secrets', { body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'counted' }, stringData: { a: '1' } } });
    const secret = (await t.request('GET', '/api/v1/namespaces/default/secrets/counted', { accept: TABLE_ACCEPT })).body;
    assert.deepEqual(secret.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Type', 'Data', 'Age']);
    assert.deepEqual(secret.rows[0].cells.slice(0, 3), ['counted', 'Opaque', 1]);
  });

  it('expires Events after the event TTL from their last write', async () => {
    const old = new Date(Date.now() - 10_000).toISOString();
    assert.equal((await t.request('POST', '/api/v1/namespaces/default/events', { body: event('stale', { lastTimestamp: old }) })).status, 201);
    await until('the event to expire', async () => (await t.request('GET', '/api/v1/namespaces/default/events/stale')).status === 404, 10_000);
    assert.equal((await t.request('POST', '/api/v1/namespaces/default/events', { body: event('fresh') })).status, 201);
    assert.equal((await t.request('GET', '/api/v1/namespaces/default/events/fresh')).status, 200);
  });
});

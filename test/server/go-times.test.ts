/**
 * A built-in kind's metav1.Time and MicroTime fields on the JSON path: kube decodes them into Go
 * time and writes them back in UTC, a Time at seconds (`…00.123Z` → `…00Z`, `+02:00` → `Z`), a
 * MicroTime with six fraction digits. Which fields those are comes from the kind's definition
 * (date-time strings of its protobuf table; `@kgen:protobuf N microtime`). Custom resources keep
 * the string as sent, as apiextensions-apiserver does.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './testserver.js';
import { compileSchemaValidator } from '../../runtime/validation/index.js';

describe('metav1.Time and MicroTime of built-in kinds are written as kube writes them', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false });
  });
  after(() => t.close());

  it('core/v1 Event: Time at seconds in UTC, MicroTime at microseconds, on create and update', async () => {
    const event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e1' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' },
      reason: 'Test',
      firstTimestamp: '2024-01-01T02:00:00.999+02:00',
      lastTimestamp: '2024-01-01T00:00:05Z',
      eventTime: '2024-01-01T01:00:00.123456789+01:00',
      reportingComponent: 'test',
      reportingInstance: 'test-1',
      action: 'Testing',
    };
    const r = await t.request('POST', '/api/v1/namespaces/default/events', { body: event });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.firstTimestamp, '2024-01-01T00:00:00Z');
    assert.equal(r.body.lastTimestamp, '2024-01-01T00:00:05Z');
    assert.equal(r.body.eventTime, '2024-01-01T00:00:00.123456Z');
    const got = await t.request('GET', '/api/v1/namespaces/default/events/e1');
    assert.equal(got.body.firstTimestamp, '2024-01-01T00:00:00Z', 'stored so, not only answered so');
    const u = await t.request('PUT', '/api/v1/namespaces/default/events/e1', {
      body: { ...got.body, lastTimestamp: '2024-06-30T23:59:59.5-00:30' },
    });
    assert.equal(u.status, 200, u.text);
    assert.equal(u.body.lastTimestamp, '2024-07-01T00:29:59Z');
  });

  it('coordination.k8s.io Lease: renewTime (a MicroTime) gets six digits; text that is no time is left to validation', async () => {
    const lease = (renewTime: string) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: `l${renewTime.length}` }, spec: { holderIdentity: 'a', renewTime } });
    const r = await t.request('POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', { body: lease('2024-01-01T00:00:00.5Z') });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.spec.renewTime, '2024-01-01T00:00:00.500000Z');
    const bad = await t.request('POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', { body: lease('yesterday') });
    assert.equal(bad.status, 422, bad.text);
    assert.match(bad.body.message, /spec\.renewTime in body must be of type date-time: "yesterday"/);
  });

  it('a schema without the Go facts (a custom resource) keeps the string as sent', () => {
    const schemas = { T: { type: 'object', properties: { at: { type: 'string', format: 'date-time' } } } };
    const obj = { at: '2024-01-01T02:00:00.5+02:00' };
    compileSchemaValidator(schemas as never, 'T').applyDefaults(obj);
    assert.equal(obj.at, '2024-01-01T02:00:00.5+02:00');
    const typed = { at: '2024-01-01T02:00:00.5+02:00' };
    compileSchemaValidator(schemas as never, 'T', { T: { at: 1 } }).applyDefaults(typed);
    assert.equal(typed.at, '2024-01-01T00:00:00Z');
  });
});

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
      eventTime: '2024-01-01T01:00:00.123456+01:00',
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

  it('coordination.k8s.io Lease: renewTime (a MicroTime) must have six digits, and text that is no time is the decoder\'s 400', async () => {
    const lease = (renewTime: string) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: `l${renewTime.length}` }, spec: { holderIdentity: 'a', renewTime } });
    const leases = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
    const r = await t.request('POST', leases, { body: lease('2024-01-01T01:00:00.500000+01:00') });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.spec.renewTime, '2024-01-01T00:00:00.500000Z');
    const prefix = 'Lease in version "v1" cannot be handled as a Lease: parsing time';
    for (const [text, message] of [
      ['2024-01-01T00:00:00.5Z', `${prefix} "2024-01-01T00:00:00.5Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".5Z" as ".000000"`],
      ['2024-01-01T00:00:00.1234567Z', `${prefix} "2024-01-01T00:00:00.1234567Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "7Z" as "Z07:00"`],
      ['2024-01-01T00:00:00Z', `${prefix} "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"`],
      ['yesterday', `${prefix} "yesterday" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "yesterday" as "2006"`],
    ]) {
      const bad = await t.request('POST', leases, { body: lease(text!) });
      assert.equal(bad.status, 400, bad.text);
      assert.equal(bad.body.reason, 'BadRequest');
      assert.equal(bad.body.message, message);
    }
  });

  it('core/v1 Event: Time text Go cannot read is the decoder\'s 400, in metadata too', async () => {
    const event = (extra: Record<string, unknown>, metadata: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'e2', ...metadata }, involvedObject: { kind: 'Pod', name: 'p' }, ...extra });
    const events = '/api/v1/namespaces/default/events';
    const prefix = 'Event in version "v1" cannot be handled as a Event: parsing time';
    for (const [body, message] of [
      [event({ lastTimestamp: 'yesterday' }), `${prefix} "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`],
      [event({ firstTimestamp: '2024-13-01T00:00:00Z' }), `${prefix} "2024-13-01T00:00:00Z": month out of range`],
      [event({ firstTimestamp: '2023-02-29T00:00:00Z' }), `${prefix} "2023-02-29T00:00:00Z": day out of range`],
      [event({ firstTimestamp: '2024-01-01 00:00:00Z' }), `${prefix} "2024-01-01 00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 00:00:00Z" as "T"`],
      [event({ firstTimestamp: '2024-01-01T00:00:00+0100' }), `${prefix} "2024-01-01T00:00:00+0100" as "2006-01-02T15:04:05Z07:00": cannot parse "+0100" as "Z07:00"`],
      [event({ firstTimestamp: '2024-01-01T00:00:00Zjunk' }), `${prefix} "2024-01-01T00:00:00Zjunk": extra text: "junk"`],
      [event({}, { creationTimestamp: '2024-01-01' }), `${prefix} "2024-01-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"`],
    ] as const) {
      const bad = await t.request('POST', events, { body });
      assert.equal(bad.status, 400, bad.text);
      assert.equal(bad.body.message, message);
    }
    // Go reads (and drops) a fraction the RFC3339 layout does not name.
    const ok = await t.request('POST', events, { body: event({ firstTimestamp: '2024-01-01T00:00:00.123456789Z' }) });
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.body.firstTimestamp, '2024-01-01T00:00:00Z');
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

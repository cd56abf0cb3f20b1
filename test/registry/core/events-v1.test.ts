/**
 * core/v1 Event and events.k8s.io/v1 Event are one storage seen through two APIs, as in kube:
 * an Event written through either is read, listed, watched and updated through the other, with
 * kube's field mapping (involvedObject ⇄ regarding, message ⇄ note, …) and one resourceVersion.
 * Both APIs keep kube's legacyValidateEvent: an Event without eventTime names an object of its own
 * namespace (or, about a cluster-scoped object, lives in `default`); one with eventTime about a
 * cluster-scoped object lives in `default` or `kube-system`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, TABLE_ACCEPT, type TestServer } from '../../server/testserver.js';
import { openWatchStream } from '../../support/watch-stream.js';

const CORE = '/api/v1/namespaces/default/events';
const V1 = '/apis/events.k8s.io/v1/namespaces/default/events';

describe('events.k8s.io/v1 over core/v1 Events', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it('reads a core Event as events.k8s.io/v1 and the other way round', async () => {
    const core = await t.request('POST', CORE, {
      body: { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e1' }, involvedObject: { kind: 'Widget', name: 'w1', namespace: 'default' }, reason: 'Spun', message: 'hello', type: 'Normal', source: { component: 'c' }, count: 2, reportingComponent: 'ctrl' },
    });
    assert.equal(core.status, 201, core.text);
    const asV1 = await t.request('GET', `${V1}/e1`);
    assert.equal(asV1.status, 200, asV1.text);
    assert.equal(asV1.body.apiVersion, 'events.k8s.io/v1');
    assert.deepEqual([asV1.body.regarding.name, asV1.body.note, asV1.body.deprecatedSource.component, asV1.body.deprecatedCount, asV1.body.reportingController], ['w1', 'hello', 'c', 2, 'ctrl']);
    assert.equal(asV1.body.metadata.resourceVersion, core.body.metadata.resourceVersion);

    const v1 = await t.request('POST', V1, {
      body: { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e2' }, eventTime: '2026-01-01T00:00:00.000000Z', regarding: { kind: 'Widget', name: 'w2', namespace: 'default' }, reason: 'Broke', note: 'oops', type: 'Warning', action: 'Spin', reportingController: 'ctrl', reportingInstance: 'i1' },
    });
    assert.equal(v1.status, 201, v1.text);
    const asCore = await t.request('GET', `${CORE}/e2`);
    assert.equal(asCore.body.apiVersion, 'v1');
    assert.deepEqual([asCore.body.involvedObject.name, asCore.body.message, asCore.body.reportingComponent, asCore.body.action], ['w2', 'oops', 'ctrl', 'Spin']);
    const coreSelected = await t.request('GET', `${CORE}?fieldSelector=${encodeURIComponent('involvedObject.name=w2')}`);
    assert.deepEqual(coreSelected.body.items.map((e: { metadata: { name: string } }) => e.metadata.name), ['e2']);
    const v1Selected = await t.request('GET', `${V1}?fieldSelector=${encodeURIComponent('regarding.name=w1')}`);
    assert.deepEqual(v1Selected.body.items.map((e: { metadata: { name: string } }) => e.metadata.name), ['e1']);
    // Printed as kube prints them, through either API.
    const table = (await t.request('GET', `${V1}/e2`, { accept: TABLE_ACCEPT })).body;
    assert.deepEqual(table.columnDefinitions.map((c: { name: string }) => c.name).slice(0, 4), ['Last Seen', 'Type', 'Reason', 'Object']);
    assert.deepEqual(table.rows[0].cells.slice(1, 7), ['Warning', 'Broke', 'widget/w2', '', 'ctrl, i1', 'oops']);
  });

  it('a watch through events.k8s.io/v1 sees Events written through core/v1, converted', async () => {
    const list = await t.request('GET', V1);
    const watch = await openWatchStream(t.url, `${V1}?watch=true&resourceVersion=${list.body.metadata.resourceVersion}`);
    try {
      const created = await t.request('POST', CORE, { body: { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e3' }, involvedObject: { kind: 'Widget', name: 'w3' }, message: 'watched' } });
      assert.equal(created.status, 201, created.text);
      const event = await watch.next();
      assert.equal(event?.type, 'ADDED');
      assert.deepEqual([event!.object.apiVersion, event!.object.metadata.name, event!.object.note, event!.object.regarding.name], ['events.k8s.io/v1', 'e3', 'watched', 'w3']);
      assert.equal(event!.object.metadata.resourceVersion, created.body.metadata.resourceVersion);
    } finally {
      watch.close();
    }
    assert.equal((await t.request('DELETE', `${CORE}/e3`)).status, 200);
  });

  it('updates through one API are seen by the other, and deletes through either remove the one object', async () => {
    // Through core/v1 (events.k8s.io/v1 would refuse it: its updates may not change these fields).
    const patched = await t.request('PATCH', `${CORE}/e1`, { body: { count: 5, message: 'again' }, contentType: 'application/merge-patch+json' });
    assert.equal(patched.status, 200, patched.text);
    const v1 = await t.request('GET', `${V1}/e1`);
    assert.deepEqual([v1.body.deprecatedCount, v1.body.note], [5, 'again']);
    assert.equal(v1.body.metadata.resourceVersion, patched.body.metadata.resourceVersion);
    assert.equal((await t.request('DELETE', `${CORE}/e2`)).status, 200);
    assert.equal((await t.request('GET', `${V1}/e2`)).status, 404);
    const all = await t.request('GET', V1);
    assert.deepEqual(all.body.items.map((e: { metadata: { name: string } }) => e.metadata.name), ['e1']);
  });

  it("kube's ValidateEventCreate: legacy rules through both APIs, strict ones through events.k8s.io/v1 (422, kube's causes)", async () => {
    const causes = (r: { body: { details?: { causes?: { field: string; message: string }[] } } }) => (r.body.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
    // events.k8s.io/v1: nothing but regarding and a bad type.
    const bare = await t.request('POST', V1, { body: { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'strict1' }, regarding: { kind: 'Pod', name: 'p', namespace: 'default' }, type: 'Odd', deprecatedCount: 3, deprecatedSource: { component: 'c' } } });
    assert.equal(bare.status, 422, bare.text);
    assert.equal(bare.body.reason, 'Invalid');
    for (const cause of ['eventTime: Required value', 'type: Invalid value: "": has invalid value: Odd', 'count: Invalid value: "": needs to be unset', 'source: Invalid value: "": needs to be unset']) {
      assert.ok(causes(bare).includes(cause), `${cause} in ${JSON.stringify(causes(bare))}`);
    }
    // With eventTime (either API): the reporting fields are required and bounded; core/v1's reportingComponent is reportingController.
    const long = 'x'.repeat(129);
    const coreTimed = await t.request('POST', CORE, {
      body: { apiVersion: 'v1', kind: 'Event', metadata: { name: 'legacy1' }, eventTime: '2026-01-01T00:00:00.000000Z', involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: long, message: 'n'.repeat(1025), reportingComponent: 'bad name!', reportingInstance: long },
    });
    assert.equal(coreTimed.status, 422, coreTimed.text);
    const expected = [
      'reportingController: Invalid value: "bad name!": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
      'reportingInstance: Invalid value: "": can have at most 128 characters',
      'action: Required value',
      'reason: Invalid value: "": can have at most 128 characters',
      'message: Invalid value: "": can have at most 1024 characters',
    ];
    assert.deepEqual(causes(coreTimed), expected);
    // Series: at least 2, with lastObservedTime.
    const series = await t.request('POST', V1, {
      body: { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'series1' }, eventTime: '2026-01-01T00:00:00.000000Z', regarding: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: 'R', action: 'A', type: 'Normal', reportingController: 'ctrl', reportingInstance: 'i', series: { count: 1 } },
    });
    assert.equal(series.status, 422, series.text);
    // In kube's order (validateV1EventSeries), though kgen's schema check also finds the second.
    assert.deepEqual(causes(series), ['series.count: Invalid value: "": should be at least 2', 'series.lastObservedTime: Required value']);
  });

  it("kube's ValidateEventUpdate: through events.k8s.io/v1 an Event's fields are immutable; through core/v1 they are not", async () => {
    const body = { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'imm1' }, eventTime: '2026-01-01T00:00:00.000000Z', regarding: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: 'R', note: 'n', action: 'A', type: 'Normal', reportingController: 'ctrl', reportingInstance: 'i' };
    assert.equal((await t.request('POST', V1, { body })).status, 201);
    const changed = await t.request('PATCH', `${V1}/imm1`, { body: { note: 'other', type: 'Warning', series: { count: 2, lastObservedTime: '2026-01-01T00:01:00.000000Z' } }, contentType: 'application/merge-patch+json' });
    assert.equal(changed.status, 422, changed.text);
    assert.deepEqual(
      changed.body.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`),
      ['message: Invalid value: "other": field is immutable', 'type: Invalid value: "Warning": field is immutable'],
    );
    // A series alone may be added.
    const grown = await t.request('PATCH', `${V1}/imm1`, { body: { series: { count: 2, lastObservedTime: '2026-01-01T00:01:00.000000Z' } }, contentType: 'application/merge-patch+json' });
    assert.equal(grown.status, 200, grown.text);
    const legacy = await t.request('PATCH', `${CORE}/imm1`, { body: { message: 'other' }, contentType: 'application/merge-patch+json' });
    assert.equal(legacy.status, 200, legacy.text);
  });

  it("an Event's namespace and its object's agree, as kube's legacyValidateEvent (on create and update, through either API)", async () => {
    for (const ns of ['ev-a', 'ev-b']) assert.equal((await t.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } })).status, 201);
    const core = (ns: string) => `/api/v1/namespaces/${ns}/events`;
    const v1 = (ns: string) => `/apis/events.k8s.io/v1/namespaces/${ns}/events`;
    const coreEvent = (name: string, involvedObject: object) => ({ apiVersion: 'v1', kind: 'Event', metadata: { name }, involvedObject, reason: 'R', message: 'm' });
    const v1Event = (name: string, regarding: object) => ({ apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name }, eventTime: '2026-01-01T00:00:00.000000Z', regarding, reason: 'R', action: 'A', type: 'Normal', reportingController: 'ctrl', reportingInstance: 'i1' });
    const refused = async (path: string, body: object, value: string) => {
      const r = await t.request('POST', path, { body });
      assert.equal(r.status, 422, `${path}: ${r.text}`);
      assert.match(r.body.message, new RegExp(`involvedObject\\.namespace: Invalid value: "${value}": does not match event\\.namespace`));
    };
    // An Event in ev-a about a Pod of ev-b, or about a cluster-scoped object, is refused.
    await refused(core('ev-a'), coreEvent('x1', { kind: 'Pod', namespace: 'ev-b', name: 'p' }), 'ev-b');
    await refused(core('ev-a'), coreEvent('x2', { kind: 'Node', name: 'n' }), '');
    await refused(v1('ev-a'), v1Event('x3', { kind: 'Node', name: 'n' }), '');
    // Accepted: its own namespace's object; a cluster-scoped object from default (and kube-system with eventTime).
    assert.equal((await t.request('POST', core('ev-a'), { body: coreEvent('ok1', { kind: 'Pod', namespace: 'ev-a', name: 'p' }) })).status, 201);
    assert.equal((await t.request('POST', core('default'), { body: coreEvent('ok2', { kind: 'Node', name: 'n' }) })).status, 201);
    assert.equal((await t.request('POST', v1('kube-system'), { body: v1Event('ok3', { kind: 'Node', name: 'n' }) })).status, 201);
    // With eventTime kube checks only the cluster-scoped case: regarding another namespace is accepted.
    assert.equal((await t.request('POST', v1('ev-a'), { body: v1Event('ok4', { kind: 'Pod', namespace: 'ev-b', name: 'p' }) })).status, 201);
    // An update that moves the object to another namespace is refused, through either API.
    const moved = await t.request('PATCH', `${core('ev-a')}/ok1`, { body: { involvedObject: { namespace: 'ev-b' } }, contentType: 'application/merge-patch+json' });
    assert.equal(moved.status, 422, moved.text);
    const movedV1 = await t.request('PATCH', `${v1('ev-a')}/ok1`, { body: { regarding: { namespace: 'ev-b' } }, contentType: 'application/merge-patch+json' });
    assert.equal(movedV1.status, 422, movedV1.text);
    assert.equal((await t.request('GET', `${core('ev-a')}/ok1`)).body.involvedObject.namespace, 'ev-a');
  });
});

/** Table and PartialObjectMetadata output, and the Age format. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { humanDuration, translateTimestampSince } from '../../runtime/endpoints/duration.js';
import { negotiateOutput } from '../../runtime/endpoints/negotiation.js';
import { startTestServer, TABLE_ACCEPT, widget, WIDGETS, type TestServer } from '../server/testserver.js';

describe('HumanDuration', () => {
  it('formats like k8s.io/apimachinery/pkg/util/duration', () => {
    const s = 1000;
    const cases: [number, string][] = [
      [-5 * s, '<invalid>'],
      [-1 * s, '0s'],
      [0, '0s'],
      [45 * s, '45s'],
      [119 * s, '119s'],
      [120 * s, '2m'],
      [(5 * 60 + 10) * s, '5m10s'],
      [10 * 60 * s, '10m'],
      [179 * 60 * s, '179m'],
      [3 * 3600 * s, '3h'],
      [(3 * 3600 + 20 * 60) * s, '3h20m'],
      [9 * 3600 * s, '9h'],
      [47 * 3600 * s, '47h'],
      [3 * 86400 * s, '3d'],
      [(3 * 86400 + 4 * 3600) * s, '3d4h'],
      [30 * 86400 * s, '30d'],
      [2 * 365 * 86400 * s, '2y'],
      [(2 * 365 + 10) * 86400 * s, '2y10d'],
      [9 * 365 * 86400 * s, '9y'],
    ];
    for (const [ms, want] of cases) assert.equal(humanDuration(ms), want, `${ms}ms`);
    assert.equal(translateTimestampSince('2026-01-01T00:00:00Z', Date.parse('2026-01-01T00:05:00Z')), '5m');
    assert.equal(translateTimestampSince(undefined), '<unknown>');
  });
});

describe('negotiation', () => {
  it('picks Table, PartialObjectMetadata[List] or the object in the client\'s order', () => {
    assert.deepEqual(negotiateOutput(TABLE_ACCEPT, { transform: true, list: true }), { as: 'Table', format: 'json', version: 'v1' });
    assert.deepEqual(negotiateOutput(TABLE_ACCEPT, { transform: false, list: false }), { as: 'Object', format: 'json' });
    assert.deepEqual(negotiateOutput(undefined, { transform: true, list: true }), { as: 'Object', format: 'json' });
    assert.deepEqual(negotiateOutput('application/yaml', { transform: true, list: false }), { as: 'Object', format: 'yaml' });
    const meta = 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
    assert.equal(negotiateOutput(meta, { transform: true, list: true }).as, 'PartialObjectMetadataList');
    assert.equal(negotiateOutput(meta, { transform: true, list: false }).as, 'Object');
    assert.throws(() => negotiateOutput('application/vnd.kubernetes.protobuf', { transform: true, list: true }), /only the following media types/);
  });
});

describe('Table output', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    await t.request('POST', WIDGETS, { body: widget('t1', { replicas: 3, color: 'red' }, { metadata: { labels: { app: 'x' } } }) });
    await t.request('PATCH', `${WIDGETS}/t1/status`, {
      body: { status: { conditions: [{ type: 'Ready', status: 'True' }] } },
      contentType: 'application/merge-patch+json',
    });
    await t.request('POST', WIDGETS, { body: widget('t2', { replicas: 1 }) });
  });
  after(() => t.close());

  it('lists as a meta.k8s.io/v1 Table: Name, printer columns, Age', async () => {
    const r = await t.request('GET', WIDGETS, { accept: TABLE_ACCEPT });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'application/json');
    assert.equal(r.body.kind, 'Table');
    assert.equal(r.body.apiVersion, 'meta.k8s.io/v1');
    assert.equal(typeof r.body.metadata.resourceVersion, 'string');
    const cols = r.body.columnDefinitions.map((c: { name: string; type: string; format: string; priority: number }) => [c.name, c.type, c.format, c.priority]);
    assert.deepEqual(cols, [
      ['Name', 'string', 'name', 0],
      ['Replicas', 'integer', '', 0],
      ['Color', 'string', '', 0],
      ['Ready', 'string', '', 1],
      ['Age', 'date', '', 0],
    ]);
    assert.equal(r.body.columnDefinitions[1].description, 'Desired number of spinners');
    const [row1, row2] = r.body.rows;
    assert.deepEqual(row1.cells.slice(0, 4), ['t1', 3, 'red', 'True']);
    assert.match(row1.cells[4], /^\d+s$/);
    assert.deepEqual(row2.cells.slice(0, 4), ['t2', 1, null, null]);
    assert.equal(row1.object.kind, 'PartialObjectMetadata');
    assert.equal(row1.object.apiVersion, 'meta.k8s.io/v1');
    assert.deepEqual(row1.object.metadata.labels, { app: 'x' });
    assert.equal(row1.object.spec, undefined);
  });

  it('includes the whole object with includeObject=Object and none with includeObject=None', async () => {
    const full = await t.request('GET', `${WIDGETS}?includeObject=Object`, { accept: TABLE_ACCEPT });
    assert.equal(full.body.rows[0].object.kind, 'Widget');
    assert.equal(full.body.rows[0].object.spec.replicas, 3);
    const none = await t.request('GET', `${WIDGETS}?includeObject=None`, { accept: TABLE_ACCEPT });
    assert.equal(none.body.rows[0].object, undefined);
    assert.equal((await t.request('GET', `${WIDGETS}?includeObject=Some`, { accept: TABLE_ACCEPT })).status, 400);
  });

  it('renders a single object as a one-row Table', async () => {
    const r = await t.request('GET', `${WIDGETS}/t1`, { accept: TABLE_ACCEPT });
    assert.equal(r.body.kind, 'Table');
    assert.equal(r.body.rows.length, 1);
    assert.equal(r.body.rows[0].cells[0], 't1');
  });

  it('serves PartialObjectMetadata and PartialObjectMetadataList', async () => {
    const one = await t.request('GET', `${WIDGETS}/t1`, { accept: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io' });
    assert.equal(one.body.kind, 'PartialObjectMetadata');
    assert.equal(one.body.apiVersion, 'meta.k8s.io/v1');
    assert.equal(one.body.metadata.name, 't1');
    assert.equal(one.body.spec, undefined);
    const list = await t.request('GET', WIDGETS, { accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io' });
    assert.equal(list.body.kind, 'PartialObjectMetadataList');
    assert.deepEqual(list.body.items.map((i: { kind: string }) => i.kind), ['PartialObjectMetadata', 'PartialObjectMetadata']);
  });

  it('answers 406 when nothing acceptable is offered, and does not return a Table for writes', async () => {
    const r = await t.request('GET', WIDGETS, { accept: 'application/vnd.kubernetes.protobuf' });
    assert.equal(r.status, 406);
    assert.equal(r.body.reason, 'NotAcceptable');
    const created = await t.request('POST', WIDGETS, { body: widget('t3'), accept: TABLE_ACCEPT });
    assert.equal(created.body.kind, 'Widget');
  });

  it('writes YAML when asked', async () => {
    const r = await t.request('GET', `${WIDGETS}/t1`, { accept: 'application/yaml' });
    assert.equal(r.headers.get('content-type'), 'application/yaml');
    assert.match(r.text, /^apiVersion: widgets\.example\.com\/v1\nkind: Widget\n/);
  });
});

/** PATCH: merge, JSON and strategic patches, their failures, and field validation on writes. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, widget, WIDGETS, type TestServer } from '../server/testserver.js';

const MERGE = 'application/merge-patch+json';
const JSONPATCH = 'application/json-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';

describe('PATCH', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    await t.request('POST', WIDGETS, { body: widget('p', { replicas: 1, color: 'red' }, { metadata: { labels: { a: '1', b: '2' } } }) });
  });
  after(() => t.close());

  it('applies an RFC 7396 merge patch (null deletes)', async () => {
    const r = await t.request('PATCH', `${WIDGETS}/p`, { body: { metadata: { labels: { b: null, c: '3' } }, spec: { color: 'blue' } }, contentType: MERGE });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.metadata.labels, { a: '1', c: '3' });
    assert.deepEqual(r.body.spec, { replicas: 1, color: 'blue' });
    assert.equal(r.body.metadata.generation, 2);
  });

  it('applies an RFC 6902 JSON patch, with test operations', async () => {
    const ops = [
      { op: 'test', path: '/spec/replicas', value: 1 },
      { op: 'replace', path: '/spec/replicas', value: 5 },
      { op: 'add', path: '/metadata/annotations', value: { note: 'x' } },
    ];
    const r = await t.request('PATCH', `${WIDGETS}/p`, { body: ops, contentType: JSONPATCH });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.spec.replicas, 5);
    assert.deepEqual(r.body.metadata.annotations, { note: 'x' });
  });

  it('answers a JSON patch that does not apply with 422, a malformed one with 400', async () => {
    const failedTest = await t.request('PATCH', `${WIDGETS}/p`, { body: [{ op: 'test', path: '/spec/replicas', value: 99 }], contentType: JSONPATCH });
    assert.equal(failedTest.status, 422, failedTest.text);
    assert.equal(failedTest.body.reason, 'Invalid');
    assert.equal(failedTest.body.status, 'Failure');
    assert.match(failedTest.body.details.causes[0].message, /Test operation failed/);
    const badPath = await t.request('PATCH', `${WIDGETS}/p`, { body: [{ op: 'replace', path: '/spec/nope/deeper', value: 1 }], contentType: JSONPATCH });
    assert.equal(badPath.status, 422, badPath.text);
    const badOp = await t.request('PATCH', `${WIDGETS}/p`, { body: [{ op: 'frobnicate', path: '/spec' }], contentType: JSONPATCH });
    assert.equal(badOp.status, 422, badOp.text);
    const notArray = await t.request('PATCH', `${WIDGETS}/p`, { body: { op: 'add' }, contentType: JSONPATCH });
    assert.equal(notArray.status, 400);
    assert.equal(notArray.body.reason, 'BadRequest');
    const notJSON = await t.request('PATCH', `${WIDGETS}/p`, { body: '[{', contentType: JSONPATCH });
    assert.equal(notJSON.status, 400);
    const mergeNotObject = await t.request('PATCH', `${WIDGETS}/p`, { body: '[1]', contentType: MERGE });
    assert.equal(mergeNotObject.status, 400);
  });

  it('validates the patched object (422) and keeps name and kind fixed (400)', async () => {
    const invalid = await t.request('PATCH', `${WIDGETS}/p`, { body: { spec: { replicas: 1000 } }, contentType: MERGE });
    assert.equal(invalid.status, 422);
    assert.equal(invalid.body.details.causes[0].field, 'spec.replicas');
    const rename = await t.request('PATCH', `${WIDGETS}/p`, { body: { metadata: { name: 'q' } }, contentType: MERGE });
    assert.equal(rename.status, 400);
    assert.match(rename.body.message, /does not match the name on the URL/);
    const rekind = await t.request('PATCH', `${WIDGETS}/p`, { body: { kind: 'Gadget' }, contentType: MERGE });
    assert.equal(rekind.status, 400);
  });

  it('treats a resourceVersion in the patch as a precondition', async () => {
    const stale = await t.request('PATCH', `${WIDGETS}/p`, { body: { metadata: { resourceVersion: '1' }, spec: { replicas: 2 } }, contentType: MERGE });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.reason, 'Conflict');
    assert.equal((await t.request('PATCH', `${WIDGETS}/missing`, { body: {}, contentType: MERGE })).status, 404);
  });

  it('refuses unknown patch types with kube\'s 415 message (strategic merge: test/endpoints/patch-strategic.test.ts)', async () => {
    const bogus = await t.request('PATCH', `${WIDGETS}/p`, { body: { spec: { replicas: 2 } }, contentType: 'application/x-bogus-patch+json' });
    assert.equal(bogus.status, 415);
    assert.equal(bogus.body.reason, 'UnsupportedMediaType');
    assert.equal(
      bogus.body.message,
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
    );
  });

  it('accepts strategic merge patch for core kinds', async () => {
    await t.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'smp' } } });
    const r = await t.request('PATCH', '/api/v1/namespaces/smp', {
      body: { metadata: { labels: { team: 'a' }, '$setElementOrder/finalizers': [] } },
      contentType: STRATEGIC,
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.metadata.labels.team, 'a');
    assert.equal(r.body.metadata.labels['kubernetes.io/metadata.name'], 'smp');
  });

  it('supports dryRun on patch', async () => {
    const before = (await t.request('GET', `${WIDGETS}/p`)).body;
    const dry = await t.request('PATCH', `${WIDGETS}/p?dryRun=All`, { body: { spec: { replicas: 9 } }, contentType: MERGE });
    assert.equal(dry.status, 200);
    assert.equal(dry.body.spec.replicas, 9);
    assert.deepEqual((await t.request('GET', `${WIDGETS}/p`)).body, before);
  });
});

describe('fieldValidation', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());
  const withUnknown = (name: string) => widget(name, { replicas: 1, foo: 1, bar: { x: 1 } });

  it('Strict rejects unknown fields with 400 and kube\'s strict decoding message', async () => {
    const r = await t.request('POST', `${WIDGETS}?fieldValidation=Strict`, { body: withUnknown('s') });
    assert.equal(r.status, 400);
    assert.equal(r.body.reason, 'BadRequest');
    assert.equal(
      r.body.message,
      'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.bar", unknown field "spec.foo"',
    );
    await t.request('POST', WIDGETS, { body: widget('s2') });
    const p = await t.request('PATCH', `${WIDGETS}/s2?fieldValidation=Strict`, { body: { spec: { foo: 1 } }, contentType: MERGE });
    assert.equal(p.status, 400);
    assert.match(p.body.message, /strict decoding error: unknown field "spec\.foo"/);
  });

  it('Warn (the default) prunes and answers with Warning headers', async () => {
    for (const [name, query] of [['w', '?fieldValidation=Warn'], ['w-default', '']] as const) {
      const r = await t.request('POST', `${WIDGETS}${query}`, { body: withUnknown(name) });
      assert.equal(r.status, 201);
      assert.equal(r.headers.get('warning'), '299 - "unknown field \\"spec.bar\\"", 299 - "unknown field \\"spec.foo\\""');
      assert.deepEqual(r.body.spec, { replicas: 1 });
      assert.deepEqual((await t.request('GET', `${WIDGETS}/${name}`)).body.spec, { replicas: 1 });
    }
  });

  it('Ignore prunes silently', async () => {
    const r = await t.request('POST', `${WIDGETS}?fieldValidation=Ignore`, { body: withUnknown('i') });
    assert.equal(r.status, 201);
    assert.equal(r.headers.get('warning'), null);
    assert.deepEqual(r.body.spec, { replicas: 1 });
  });

  it('rejects an unknown directive', async () => {
    const r = await t.request('POST', `${WIDGETS}?fieldValidation=Loose`, { body: widget('x') });
    assert.equal(r.status, 422);
    assert.match(r.body.message, /fieldValidation: Unsupported value: "Loose"/);
  });
});

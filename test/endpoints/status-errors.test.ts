/**
 * client-go's typed error details, as k8s.io/apimachinery/pkg/api/errors and the apiserver's
 * handlers build them: the ResourceVersionTooLarge cause (504, Retry-After 1) that reflectors and
 * IsTooLargeResourceVersionError look for, and the messages for bodies of the wrong kind.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isTooLargeResourceVersion } from '../../packages/client/src/reflector.js';
import type { Status } from '../../runtime/api/meta.js';
import { newInternalError, StatusError } from '../../runtime/api/status.js';
import { startTestServer, widget, WIDGETS, type TestServer } from '../server/testserver.js';

const NS = '/api/v1/namespaces';
const FIND_KIND = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

describe('Status details and messages', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    assert.equal((await t.request('POST', WIDGETS, { body: widget('w1') })).status, 201);
  });
  after(() => t.close());

  it('a list beyond the current resourceVersion is 504 with the ResourceVersionTooLarge cause', async () => {
    const list = await t.request('GET', WIDGETS);
    const future = Number(list.body.metadata.resourceVersion) + 50;
    const r = await t.request('GET', `${WIDGETS}?resourceVersion=${future}&resourceVersionMatch=NotOlderThan`);
    assert.equal(r.status, 504);
    assert.equal(r.headers.get('retry-after'), '1');
    assert.deepEqual(r.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Timeout: Too large resource version: ${future}, current: ${list.body.metadata.resourceVersion}`,
      reason: 'Timeout',
      details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
      code: 504,
    });
    assert.ok(isTooLargeResourceVersion(new StatusError(r.body as Status)), "the client's check finds the cause");
  });

  it('an internal error carries its text as the single cause, as kube NewInternalError', () => {
    assert.deepEqual(newInternalError('kaput').status, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Internal error occurred: kaput',
      reason: 'InternalError',
      details: { causes: [{ message: 'kaput' }] },
      code: 500,
    });
  });

  it('a body that is not an object: the object provided is unrecognized (must be of type Namespace)', async () => {
    const r = await t.request('POST', NS, { body: '[]' });
    assert.equal(r.status, 400);
    assert.equal(r.body.reason, 'BadRequest');
    assert.equal(r.body.message, `the object provided is unrecognized (must be of type Namespace): couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type ${FIND_KIND} (5b5d)`);
    const str = await t.request('POST', WIDGETS, { body: '"a widget, honestly"' });
    assert.match(str.body.message, /^the object provided is unrecognized \(must be of type Widget\): couldn't get version\/kind; json parse error: json: cannot unmarshal string into Go value of type struct .* \(2261207769646765742c20686f6e6573746c7922\)$/);
  });

  it('a body of another kind: kube decoder message for compiled kinds', async () => {
    const r = await t.request('POST', NS, { body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' } } });
    assert.equal(r.status, 400);
    assert.equal(r.body.message, 'Service in version "v1" cannot be handled as a Namespace: no kind "Service" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"');
    const put = await t.request('PUT', `${WIDGETS}/w1`, { body: { ...widget('w1'), kind: 'Gadget' } });
    assert.equal(put.status, 400);
    assert.match(put.body.message, /^Gadget in version "v1" cannot be handled as a Widget: /);
  });
});

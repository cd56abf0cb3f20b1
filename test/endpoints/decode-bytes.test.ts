/**
 * A []byte field (a Secret's data, a ConfigMap's binaryData, a webhook's or an APIService's
 * caBundle) whose text is not padded standard base64: encoding/json's literalStore keeps
 * base64.StdEncoding.Decode's error, `illegal base64 data at input byte N`, so kube answers as for
 * any decode error: create and update the decoder's 400 (transformDecodeError), merge, JSON and
 * strategic merge patches the patchers' 422 on `patch`, apply the structured-merge manager's
 * conversion error (kube: 500, kgen: 400 with kube's text). Before: the schema's 422 (format byte).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { base64DecodeError } from '../../runtime/validation/go-base64.js';
import { expectBadRequest, startTestServer, type TestServer } from '../server/testserver.js';

const NS = '/api/v1/namespaces/default';
const secret = (name: string, data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, data });
const handled = (kind: string) => `${kind} in version "v1" cannot be handled as a ${kind}: `;

describe('base64DecodeError: Go\'s base64.StdEncoding.Decode offsets', () => {
  it('names the byte decodeQuantum stops at', () => {
    const cases: [string, number | undefined][] = [
      ['YWJj', undefined],
      ['YQ==', undefined],
      ['YWI=', undefined],
      ['YW\nJj\r\n', undefined],
      ['', undefined],
      ['abc', 0],
      ['abcde', 4],
      ['ab=d', 2],
      ['a===', 1],
      ['ab=', 3],
      ['ab==x', 4],
      ['abcd!', 4],
      ['abcdefg?', 7],
      ['é', 0],
      ['YWJjé', 4],
    ];
    for (const [text, at] of cases) assert.equal(base64DecodeError(text), at === undefined ? undefined : `illegal base64 data at input byte ${at}`, JSON.stringify(text));
  });
});

describe('a []byte field that is not base64', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false });
    const r = await t.request('POST', `${NS}/secrets`, { body: secret('s', { a: 'YWJj' }) });
    assert.equal(r.status, 201, r.text);
  });
  after(() => t.close());

  it("create and update: the decoder's 400", async () => {
    await expectBadRequest(t, 'POST', `${NS}/secrets`, `${handled('Secret')}illegal base64 data at input byte 0`, secret('n', { a: 'abc' }));
    await expectBadRequest(t, 'PUT', `${NS}/secrets/s`, `${handled('Secret')}illegal base64 data at input byte 1`, secret('s', { a: 'a!bc' }));
    await expectBadRequest(t, 'POST', `${NS}/configmaps`, `${handled('ConfigMap')}illegal base64 data at input byte 3`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, binaryData: { a: 'ab=' } });
    const hook = { name: 'a.b.c', clientConfig: { url: 'https://x.example', caBundle: 'x' }, sideEffects: 'None', admissionReviewVersions: ['v1'] };
    await expectBadRequest(
      t,
      'POST',
      '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
      'ValidatingWebhookConfiguration in version "v1" cannot be handled as a ValidatingWebhookConfiguration: illegal base64 data at input byte 0',
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'v' }, webhooks: [hook] },
    );
  });

  it("merge, JSON and strategic merge patches: the patchers' 422 on `patch`", async () => {
    const patches: [string, unknown, (value: string) => void][] = [
      ['application/merge-patch+json', { data: { b: 'abc' } }, (v) => assert.equal(JSON.parse(v).data.b, 'abc')],
      ['application/json-patch+json', [{ op: 'add', path: '/data/b', value: 'abc' }], (v) => assert.equal(JSON.parse(v).data.b, 'abc')],
      ['application/strategic-merge-patch+json', { data: { b: 'abc' } }, (v) => assert.equal(v, 'map[data:map[b:abc]]')],
    ];
    for (const [contentType, body, value] of patches) {
      const r = await t.request('PATCH', `${NS}/secrets/s`, { body, contentType });
      assert.equal(r.status, 422, r.text);
      assert.equal(r.body.reason, 'Invalid');
      const [cause] = r.body.details.causes;
      assert.equal(cause.field, 'patch');
      assert.equal(cause.reason, 'FieldValueInvalid');
      const m = /^Invalid value: ("(?:[^"\\]|\\.)*"): (.*)$/s.exec(cause.message);
      assert.ok(m, cause.message);
      value(JSON.parse(m[1]!) as string);
      assert.equal(m[2], 'illegal base64 data at input byte 0', contentType);
    }
  });

  it("apply, to an existing object and creating one: the field manager's conversion error", async () => {
    for (const name of ['s', 'new']) {
      const r = await t.request('PATCH', `${NS}/secrets/${name}?fieldManager=m`, { body: secret(name, { b: 'abc' }), contentType: 'application/apply-patch+yaml' });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.reason, 'BadRequest');
      assert.equal(r.body.message, `failed to convert new object (default/${name}; /v1, Kind=Secret) to proper version: illegal base64 data at input byte 0`);
    }
  });

  it('nothing was written', async () => {
    const r = await t.request('GET', `${NS}/secrets/s`);
    assert.deepEqual(r.body.data, { a: 'YWJj' });
    assert.equal((await t.request('GET', `${NS}/secrets/new`)).status, 404);
  });
});

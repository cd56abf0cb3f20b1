/**
 * core/v1 ConfigMap and Secret over the HTTP API: kube's key rules, the 1 MiB limit, immutability,
 * stringData merged into data and never stored, and the per-type Secret rules.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../server/testserver.js';

const CM = '/api/v1/namespaces/default/configmaps';
const SECRETS = '/api/v1/namespaces/default/secrets';
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('core/v1 ConfigMap and Secret', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it('stores a ConfigMap and refuses bad keys and overlapping binaryData', async () => {
    const ok = await t.request('POST', CM, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' }, data: { a: '1' }, binaryData: { b: b64('\u0000') } } });
    assert.equal(ok.status, 201, ok.text);
    const bad = await t.request('POST', CM, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c2' }, data: { 'a b': '1', k: 'x' }, binaryData: { k: b64('y') } } });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.message.includes('data[a b]: Invalid value: "a b": a valid config key must consist of alphanumeric characters'), true, bad.body.message);
    assert.match(bad.body.message, /data\[k\]: Invalid value: "k": duplicate of key present in binaryData/);
  });

  it('refuses a ConfigMap over 1 MiB with kube error', async () => {
    const big = 'x'.repeat(1024 * 1024);
    const res = await t.request('POST', CM, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { big } } });
    assert.equal(res.status, 422, res.text);
    assert.match(res.body.message, /Too long: may not be more than 1048576 bytes/);
  });

  it('keeps an immutable ConfigMap data unchangeable', async () => {
    const created = await t.request('POST', CM, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'frozen' }, immutable: true, data: { a: '1' } } });
    assert.equal(created.status, 201);
    const res = await t.request('PATCH', `${CM}/frozen`, { body: { data: { a: '2' } }, contentType: 'application/merge-patch+json' });
    assert.equal(res.status, 422);
    assert.match(res.body.message, /data: Forbidden: field is immutable when `immutable` is set/);
    const unfreeze = await t.request('PATCH', `${CM}/frozen`, { body: { immutable: false }, contentType: 'application/merge-patch+json' });
    assert.match(unfreeze.body.message, /immutable: Forbidden: field is immutable when `immutable` is set/);
    const labels = await t.request('PATCH', `${CM}/frozen`, { body: { metadata: { labels: { x: 'y' } } }, contentType: 'application/merge-patch+json' });
    assert.equal(labels.status, 200, labels.text);
  });

  it('merges stringData into data, never stores it, and defaults type to Opaque', async () => {
    const res = await t.request('POST', SECRETS, { body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, data: { a: b64('old'), b: b64('keep') }, stringData: { a: 'new' } } });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.data, { a: b64('new'), b: b64('keep') });
    assert.equal(res.body.stringData, undefined);
    assert.equal(res.body.type, 'Opaque');
    const got = await t.request('GET', `${SECRETS}/s1`);
    assert.equal(got.body.stringData, undefined);
    const upd = await t.request('PATCH', `${SECRETS}/s1`, { body: { stringData: { c: 'three' } }, contentType: 'application/merge-patch+json' });
    assert.equal(upd.status, 200, upd.text);
    assert.equal(upd.body.data.c, b64('three'));
    assert.equal(upd.body.stringData, undefined);
    const type = await t.request('PATCH', `${SECRETS}/s1`, { body: { type: 'kubernetes.io/tls' }, contentType: 'application/merge-patch+json' });
    assert.equal(type.status, 422);
    assert.match(type.body.message, /type: Invalid value: "kubernetes.io\/tls": field is immutable/);
  });

  it("refuses data that is not base64: the decoder's 400, as kube (encoding/json's base64 error)", async () => {
    const res = await t.request('POST', SECRETS, { body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'bad64' }, data: { a: 'not base64!' } } });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.message, 'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 3');
  });

  it('applies the per-type rules', async () => {
    const post = (name: string, type: string, extra: Record<string, unknown> = {}) =>
      t.request('POST', SECRETS, { body: { apiVersion: 'v1', kind: 'Secret', metadata: { name }, type, ...extra } });
    const tls = await post('t1', 'kubernetes.io/tls', { data: { 'tls.crt': b64('c') } });
    assert.equal(tls.status, 422);
    assert.match(tls.body.message, /data\[tls.key\]: Required value/);
    const docker = await post('d1', 'kubernetes.io/dockerconfigjson', { data: { '.dockerconfigjson': b64('{nope') } });
    assert.equal(docker.status, 422);
    assert.match(docker.body.message, /data\[.dockerconfigjson\]: Invalid value: "<secret contents redacted>"/);
    const basic = await post('b1', 'kubernetes.io/basic-auth');
    assert.match(basic.body.message, /data\[username\]: Required value: either username or password is required/);
    const ssh = await post('s1', 'kubernetes.io/ssh-auth');
    assert.match(ssh.body.message, /data\[ssh-privatekey\]: Required value/);
    const sat = await post('sa1', 'kubernetes.io/service-account-token');
    assert.match(sat.body.message, /metadata.annotations\[kubernetes.io\/service-account.name\]: Required value/);
    const fine = await post('ok1', 'kubernetes.io/basic-auth', { stringData: { username: 'u' } });
    assert.equal(fine.status, 201, fine.text);
  });

  it('refuses a Secret whose data exceeds 1 MiB', async () => {
    const res = await t.request('POST', SECRETS, { body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'huge' }, stringData: { a: 'x'.repeat(1024 * 1024 + 1) } } });
    assert.equal(res.status, 422, res.text.slice(0, 300));
    assert.match(res.body.message, /data: Too long: may not be more than 1048576 bytes/);
  });
});

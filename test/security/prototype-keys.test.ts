/**
 * Keys that name Object.prototype members ("__proto__", "constructor", "toString",
 * "hasOwnProperty") are plain data in kube: a ConfigMap may hold them (IsConfigMapKey allows
 * `[-._a-zA-Z0-9]+`). JSON.parse keeps them as own keys, but `obj[key]` reads and writes do not:
 * a merge could drop such a key while answering 200 (a lost write), or pick up a prototype's
 * function and fail with a 500. Every write path must set, keep and delete them like any key, and
 * never touch a prototype.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../server/testserver.js';

const MERGE = 'application/merge-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const JSONPATCH = 'application/json-patch+json';
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

/** A raw JSON body, so "__proto__" is sent as a key (an object literal would set a prototype). */
const configMap = (name: string, data: string) => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},"data":${data}}`;

function assertNoPollution(): void {
  assert.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype was polluted');
}

describe('keys named like Object.prototype members', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  const data = async (name: string) => {
    const r = await t.request('GET', `${CONFIGMAPS}/${name}`);
    assert.equal(r.status, 200, r.text);
    return JSON.parse(r.text).data as Record<string, string>;
  };

  it('a Secret\'s stringData sets such keys in data on create and update', async () => {
    const SECRETS = '/api/v1/namespaces/default/secrets';
    const b64 = (v: string) => Buffer.from(v).toString('base64');
    const created = await t.request('POST', SECRETS, { body: '{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"stringData":{"__proto__":"p","toString":"t"}}' });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(JSON.parse(created.text).data, JSON.parse(`{"__proto__":"${b64('p')}","toString":"${b64('t')}"}`));
    const updated = await t.request('PUT', `${SECRETS}/s`, { body: `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"data":{"a":"${b64('a')}"},"stringData":{"__proto__":"p2"}}` });
    assert.equal(updated.status, 200, updated.text);
    const got = await t.request('GET', `${SECRETS}/s`);
    assert.deepEqual(JSON.parse(got.text).data, JSON.parse(`{"a":"${b64('a')}","__proto__":"${b64('p2')}"}`));
    assertNoPollution();
  });

  it('a JSON patch finds only the members an object holds: an absent "toString" does not exist', async () => {
    assert.equal((await t.request('POST', CONFIGMAPS, { body: configMap('j', '{"a":"1"}') })).status, 201);
    // kube (json-patch): each of these names a missing member, so the patch does not apply (422).
    for (const op of [
      { op: 'remove', path: '/data/toString' },
      { op: 'replace', path: '/data/valueOf', value: 'v' },
      { op: 'test', path: '/data/constructor', value: null },
      { op: 'copy', from: '/data/hasOwnProperty', path: '/data/b' },
      { op: 'move', from: '/metadata/constructor', path: '/data/b' },
      { op: 'add', path: '/data/toString/x', value: 'v' },
    ]) {
      const r = await t.request('PATCH', `${CONFIGMAPS}/j`, { body: [op], contentType: JSONPATCH });
      assert.equal(r.status, 422, `${JSON.stringify(op)}: ${r.text}`);
      assert.equal(r.body.kind, 'Status');
    }
    assert.deepEqual(await data('j'), { a: '1' });
    // Members the object holds are patched like any other.
    const add = await t.request('PATCH', `${CONFIGMAPS}/j`, { body: [{ op: 'add', path: '/data/toString', value: 't' }], contentType: JSONPATCH });
    assert.equal(add.status, 200, add.text);
    const ops = [
      { op: 'test', path: '/data/toString', value: 't' },
      { op: 'replace', path: '/data/toString', value: 't2' },
      { op: 'copy', from: '/data/toString', path: '/data/constructor' },
    ];
    const replace = await t.request('PATCH', `${CONFIGMAPS}/j`, { body: ops, contentType: JSONPATCH });
    assert.equal(replace.status, 200, replace.text);
    assert.deepEqual(await data('j'), JSON.parse('{"a":"1","toString":"t2","constructor":"t2"}'));
    assertNoPollution();
  });

  for (const [label, contentType] of [
    ['a merge patch', MERGE],
    ['a strategic merge patch', STRATEGIC],
  ] as const) {
    it(`${label} sets, replaces and deletes them in a ConfigMap's data`, async () => {
      const name = `m-${contentType === MERGE ? 'merge' : 'smp'}`;
      const created = await t.request('POST', CONFIGMAPS, { body: configMap(name, '{"a":"1"}') });
      assert.equal(created.status, 201, created.text);

      const set = await t.request('PATCH', `${CONFIGMAPS}/${name}`, { body: '{"data":{"__proto__":"p","toString":"t","constructor":"c"}}', contentType });
      assert.equal(set.status, 200, set.text);
      assert.deepEqual(await data(name), JSON.parse('{"a":"1","__proto__":"p","toString":"t","constructor":"c"}'));

      const replace = await t.request('PATCH', `${CONFIGMAPS}/${name}`, { body: '{"data":{"__proto__":"p2","hasOwnProperty":"h"}}', contentType });
      assert.equal(replace.status, 200, replace.text);
      assert.deepEqual(await data(name), JSON.parse('{"a":"1","__proto__":"p2","toString":"t","constructor":"c","hasOwnProperty":"h"}'));

      const del = await t.request('PATCH', `${CONFIGMAPS}/${name}`, { body: '{"data":{"__proto__":null,"toString":null}}', contentType });
      assert.equal(del.status, 200, del.text);
      assert.deepEqual(await data(name), { a: '1', constructor: 'c', hasOwnProperty: 'h' });
      assertNoPollution();
    });

    it(`${label} with an object under "__proto__" is refused, not merged into a prototype`, async () => {
      const name = `o-${contentType === MERGE ? 'merge' : 'smp'}`;
      assert.equal((await t.request('POST', CONFIGMAPS, { body: configMap(name, '{"a":"1"}') })).status, 201);
      // kube: a ConfigMap's data values are strings, so the patched object does not decode.
      const r = await t.request('PATCH', `${CONFIGMAPS}/${name}`, { body: '{"data":{"__proto__":{"polluted":"yes"}}}', contentType });
      assert.ok(r.status >= 400 && r.status < 500, `${r.status} ${r.text}`);
      assert.equal(r.body?.kind, 'Status', r.text);
      assert.deepEqual(await data(name), { a: '1' });
      assertNoPollution();
    });
  }
});

describe('server-side apply with keys named like Object.prototype members', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  const APPLY = 'application/apply-patch+yaml';
  const apply = (name: string, manager: string, body: string, force = false) =>
    t.request('PATCH', `${CONFIGMAPS}/${name}?fieldManager=${manager}${force ? '&force=true' : ''}`, { body, contentType: APPLY });

  it('merges them into a live object and removes them when no longer applied', async () => {
    // Created by an update (another manager), then applied over: the merge meets every key on both sides.
    const created = await t.request('POST', CONFIGMAPS, { body: configMap('applied', '{"toString":"1","hasOwnProperty":"2","keep":"3"}') });
    assert.equal(created.status, 201, created.text);
    const first = await apply('applied', 'a', `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  toString: x\n  __proto__: p\n  constructor: c\n`, true);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(JSON.parse(first.text).data, JSON.parse('{"toString":"x","hasOwnProperty":"2","keep":"3","__proto__":"p","constructor":"c"}'));
    // Applying without "__proto__" and "constructor" removes what manager a alone owned.
    const second = await apply('applied', 'a', `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  toString: y\n`);
    assert.equal(second.status, 200, second.text);
    assert.deepEqual(JSON.parse(second.text).data, JSON.parse('{"toString":"y","hasOwnProperty":"2","keep":"3"}'));
    const fields = JSON.parse(second.text).metadata.managedFields.find((m: { manager: string }) => m.manager === 'a').fieldsV1;
    assert.deepEqual(Object.keys(fields['f:data']), ['f:toString']);
    assertNoPollution();
  });
});

/**
 * Integers a double cannot hold (beyond 2^53, within int64) are refused with a 400, never stored
 * as another number: kube keeps them exactly in custom resources; kgen, holding numbers as
 * doubles, would store `9007199254740993` as `…992` and acknowledge the write. Every way a number
 * enters is covered: JSON and YAML bodies, merge, JSON and apply patches, and updates. What a
 * double holds exactly (2^53, a string of digits) and what kube too reads as float64 (beyond
 * int64) is kept.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { crdWithSpec, startChain, type Chain } from '../apiextensions/chain.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const LEDGERS = '/apis/integers.example.com/v1/namespaces/default/ledgers';
const MESSAGE = (lang: string, literal: string, at: string) =>
  `${lang}: number ${literal} at ${at} cannot be kept exactly: kgen holds numbers as float64, exact for whole numbers up to 2^53 (9007199254740992); it refuses rather than store another number`;

const ledgerCRD = crdWithSpec('integers.example.com', 'ledgers', 'Ledger', {
  count: { type: 'integer', format: 'int64' },
  payload: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
});

/** A Ledger's JSON text with spec's members as written (literals stay literals). */
const ledger = (name: string, spec: string) => `{"apiVersion":"integers.example.com/v1","kind":"Ledger","metadata":{"name":"${name}"},"spec":{${spec}}}`;

describe('integers beyond 2^53', () => {
  let c: Chain;
  const bad = async (method: string, url: string, body: string, message: string, headers: Record<string, string> = {}) => {
    const r = await c.request(method, url, body, headers);
    assert.equal(r.code, 400, JSON.stringify(r.body));
    assert.equal(r.body.reason, 'BadRequest');
    assert.equal(r.body.message, message);
  };
  before(async () => {
    c = await startChain();
    assert.equal((await c.request('POST', CRDS, ledgerCRD)).code, 201);
    await c.settle();
  });
  after(async () => {
    await c.close();
  });

  it('a JSON body is refused, and nothing is stored', async () => {
    await bad('POST', LEDGERS, ledger('a', '"count":9007199254740993'), MESSAGE('json', '9007199254740993', 'spec.count'));
    await bad('POST', LEDGERS, ledger('a', '"payload":{"list":[1, -9223372036854775807 ]}'), MESSAGE('json', '-9223372036854775807', 'spec.payload.list[1]'));
    assert.equal((await c.request('GET', `${LEDGERS}/a`)).code, 404);
  });

  it('what a double holds, a string of digits, and what kube reads as float64 too are kept', async () => {
    const r = await c.request('POST', LEDGERS, ledger('b', '"count":9007199254740992,"payload":{"id":"9007199254740993","big":12345678901234567890,"f":9007199254740993.5}'));
    assert.equal(r.code, 201, JSON.stringify(r.body));
    assert.equal(r.body.spec.count, 9007199254740992);
    assert.equal(r.body.spec.payload.id, '9007199254740993');
  });

  it('a YAML body, decimal or hexadecimal, is refused', async () => {
    const yaml = (count: string) => `apiVersion: integers.example.com/v1\nkind: Ledger\nmetadata:\n  name: y\nspec:\n  count: ${count}\n`;
    const headers = { 'content-type': 'application/yaml' };
    await bad('POST', LEDGERS, yaml('9007199254740993'), MESSAGE('yaml', '9007199254740993', 'spec.count'), headers);
    await bad('POST', LEDGERS, yaml('0x20000000000001'), MESSAGE('yaml', '0x20000000000001', 'spec.count'), headers);
    await bad('POST', LEDGERS, `${yaml('1')}  payload:\n    list: [1, 2, 9007199254740995]\n`, MESSAGE('yaml', '9007199254740995', 'spec.payload.list[2]'), headers);
    const ok = await c.request('POST', LEDGERS, yaml('9007199254740994'), headers);
    assert.equal(ok.code, 201, JSON.stringify(ok.body));
    assert.equal(ok.body.spec.count, 9007199254740994);
  });

  it('updates and patches of every type are refused, and the object is left as it was', async () => {
    assert.equal((await c.request('POST', LEDGERS, ledger('p', '"count":1'))).code, 201);
    const before = (await c.request('GET', `${LEDGERS}/p`)).body;
    await bad('PUT', `${LEDGERS}/p`, ledger('p', '"count":9007199254740993').replace('"name":"p"', `"name":"p","resourceVersion":"${before.metadata.resourceVersion}"`), MESSAGE('json', '9007199254740993', 'spec.count'));
    await bad('PATCH', `${LEDGERS}/p`, '{"spec":{"count":9007199254740993}}', MESSAGE('json', '9007199254740993', 'spec.count'), { 'content-type': 'application/merge-patch+json' });
    await bad('PATCH', `${LEDGERS}/p`, '[{"op":"replace","path":"/spec/count","value":9007199254740993}]', MESSAGE('json', '9007199254740993', '[0].value'), { 'content-type': 'application/json-patch+json' });
    await bad(
      'PATCH',
      `${LEDGERS}/p?fieldManager=m`,
      'apiVersion: integers.example.com/v1\nkind: Ledger\nmetadata:\n  name: p\nspec:\n  count: 9007199254740993\n',
      MESSAGE('yaml', '9007199254740993', 'spec.count'),
      { 'content-type': 'application/apply-patch+yaml' },
    );
    const after = (await c.request('GET', `${LEDGERS}/p`)).body;
    assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion);
    assert.equal(after.spec.count, 1);
  });
});

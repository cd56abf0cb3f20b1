/**
 * A CRD whose schema nests as deep as a request body may (api/nesting.ts: 500 JSON levels, so
 * 240 schema levels of `properties`), with a CEL rule on every level, is validated and served
 * without exhausting the stack or the CPU: the CRD and an object as deep are each created within
 * a few seconds (well under one here), and the rules still apply at depth.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startChain, type Chain } from './chain.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

function nestedSchema(levels: number): Record<string, unknown> {
  let s: Record<string, unknown> = { type: 'string', maxLength: 5 };
  for (let i = 0; i < levels; i++) {
    s = { type: 'object', properties: { a: s, b: { type: 'array', maxItems: 4, items: { type: 'string', maxLength: 5 }, 'x-kubernetes-validations': [{ rule: 'self.all(x, x.size() < 5)' }] } } };
  }
  return s;
}

function nestedObject(levels: number): unknown {
  let o: unknown = 'x';
  for (let i = 0; i < levels; i++) o = { a: o, b: ['q'] };
  return o;
}

const crd = (levels: number) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `deeps.d${levels}.example.com` },
  spec: { group: `d${levels}.example.com`, scope: 'Namespaced', names: { plural: 'deeps', singular: 'deep', kind: 'Deep' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: nestedSchema(levels) } } } }] },
});

describe('a CRD schema as deep as a body may be', () => {
  let chain: Chain;
  before(async () => {
    chain = await startChain();
  });
  after(() => chain?.close());

  it('is validated, established and serves objects as deep, each in well under a second', async () => {
    let t = performance.now();
    const created = await chain.request('POST', CRDS, crd(240));
    assert.equal(created.code, 201, JSON.stringify(created.body).slice(-400));
    assert.ok(performance.now() - t < 5000, `the CRD took ${performance.now() - t} ms`);
    await chain.settle();
    t = performance.now();
    const obj = await chain.request('POST', '/apis/d240.example.com/v1/namespaces/default/deeps', { apiVersion: 'd240.example.com/v1', kind: 'Deep', metadata: { name: 'x' }, spec: nestedObject(240) });
    assert.equal(obj.code, 201, JSON.stringify(obj.body).slice(-400));
    assert.ok(performance.now() - t < 5000, `the object took ${performance.now() - t} ms`);
    const invalid = await chain.request('POST', '/apis/d240.example.com/v1/namespaces/default/deeps', { apiVersion: 'd240.example.com/v1', kind: 'Deep', metadata: { name: 'y' }, spec: { a: { a: { a: { b: ['toolong'] } } } } });
    assert.equal(invalid.code, 422);
  });
});

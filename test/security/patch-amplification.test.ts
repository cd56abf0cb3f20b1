/**
 * Request bodies that amplify (issue 19, sec12 area 2), against kube-apiserver's limits:
 *
 * - a JSON patch of more than 10,000 operations is 413 (patch.go's maxJSONPatchOperations);
 * - `copy` operations may add at most 3 MiB to the document (kube sets json-patch's
 *   AccumulatedCopySizeLimit to JSONPatchMaxCopyBytes, 3 MiB): a patch of a few hundred bytes
 *   that doubles a subtree a dozen times is 422 before it builds the copies, where it used to be
 *   stored (a 1 KiB body made a 68 MB object in 30 s);
 * - an object grown by repeated patches past etcd's 1.5 MiB value is 413 on every backend
 *   (memory and SQLite used to take any size: four 2.5 MiB merge patches made a 10 MB object).
 *
 * One server; a CRD that keeps unknown fields, so nothing but these limits stands in the way.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../server/testserver.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const BLOBS = '/apis/amplify.example.com/v1/namespaces/default/blobs';
const JSON_PATCH = 'application/json-patch+json';
const MiB = 1024 * 1024;
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'blobs.amplify.example.com' },
  spec: {
    group: 'amplify.example.com',
    scope: 'Namespaced',
    names: { plural: 'blobs', kind: 'Blob' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
};
const blob = (name: string, spec: unknown) => ({ apiVersion: 'amplify.example.com/v1', kind: 'Blob', metadata: { name }, spec });

let t: TestServer;
const patch = (name: string, body: unknown, contentType = JSON_PATCH) => t.request('PATCH', `${BLOBS}/${name}`, { body, contentType });

before(async () => {
  t = await startTestServer({ controllers: false });
  assert.equal((await t.request('POST', CRDS, { body: crd })).status, 201);
  for (let i = 0; ; i++) {
    const r = await t.request('POST', BLOBS, { body: blob('b', { x: 'y' }) });
    if (r.status === 201) break;
    assert.ok(i < 100, `the CRD is not served: ${r.text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});
after(() => t?.close());

describe('JSON patch limits', () => {
  it('more than 10,000 operations is 413, with kube\'s message; 10,000 are applied', async () => {
    const tests = (n: number) => Array.from({ length: n }, () => ({ op: 'test', path: '/spec/x', value: 'y' }));
    const over = await patch('b', tests(10_001));
    assert.equal(over.status, 413, over.text);
    assert.deepEqual(over.body, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 413, reason: 'RequestEntityTooLarge',
      message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
    });
    assert.equal((await patch('b', tests(10_000))).status, 200);
  });

  it('copies adding more than 3 MiB are 422, before they are built, and nothing is stored', async () => {
    const element = 'a'.repeat(1000);
    const ops: unknown[] = [{ op: 'add', path: '/spec/tree', value: { leaf: element } }];
    // Each copy doubles the tree: 2^14 KB if it were allowed.
    for (let i = 0; i < 14; i++) ops.push({ op: 'copy', from: '/spec/tree', path: `/spec/tree/k${i}` });
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const r = await patch('b', ops);
    const elapsed = performance.now() - started;
    assert.equal(r.status, 422, r.text.slice(0, 300));
    // json-patch counts each copy's JSON size; the 12th copy takes the total past the limit.
    const sizes: number[] = [];
    let tree: Record<string, unknown> = { leaf: element };
    for (let i = 0; i < 14; i++) {
      sizes.push(JSON.stringify(tree).length);
      tree = { ...tree, [`k${i}`]: tree };
    }
    let accumulated = 0;
    for (const size of sizes) if ((accumulated += size) > 3 * MiB) break;
    assert.deepEqual(r.body.details.causes, [{
      reason: 'UnexpectedServerResponse',
      message: `Unable to complete the copy, the accumulated size increase of copy is ${accumulated}, exceeding the limit ${3 * MiB}`,
    }]);
    assert.equal(r.body.reason, 'Invalid');
    assert.ok(elapsed < 2000, `refused in ${Math.round(elapsed)} ms`);
    assert.ok(process.memoryUsage().heapUsed - heapBefore < 64 * MiB, 'the copies were not built');
    const stored = await t.request('GET', `${BLOBS}/b`);
    assert.deepEqual(stored.body.spec, { x: 'y' });
  });

  it('copies within the limit are applied', async () => {
    const ops = [
      { op: 'add', path: '/spec/big', value: 'z'.repeat(MiB / 2) },
      { op: 'copy', from: '/spec/big', path: '/spec/big2' },
    ];
    const r = await patch('b', ops);
    assert.equal(r.status, 200, r.text.slice(0, 300));
    assert.equal(r.body.spec.big2.length, MiB / 2);
    assert.equal((await patch('b', [{ op: 'remove', path: '/spec/big' }, { op: 'remove', path: '/spec/big2' }])).status, 200);
  });
});

describe('an object grown past what storage takes (sec12 area 3)', () => {
  it('repeated patches stop at etcd\'s 1.5 MiB on memory storage too: 413, the object unchanged', async () => {
    const grow = (field: string) => patch('b', { spec: { [field]: 'g'.repeat(MiB) } }, 'application/merge-patch+json');
    assert.equal((await grow('g1')).status, 200);
    const r = await grow('g2');
    assert.equal(r.status, 413, r.text.slice(0, 300));
    assert.deepEqual(r.body, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 413, reason: 'RequestEntityTooLarge',
      message: 'Request entity too large: etcdserver: request is too large',
    });
    const stored = await t.request('GET', `${BLOBS}/b`);
    assert.deepEqual(Object.keys(stored.body.spec).sort(), ['g1', 'x']);
  });
});

describe('a write too large only with its managedFields (kube\'s isTooLargeError retry)', () => {
  // 1,000 keys of 900 bytes: ~0.9 MB of object, and as much again in the managedFields that own them.
  const key = (i: number) => `k${String(i).padStart(4, '0')}`.padEnd(900, '.');
  const keys = (value: number) => Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [key(i), value]));
  const managers = (r: { body: { metadata: { managedFields?: unknown[] } } }) => r.body.metadata.managedFields;

  it('create, update and patch are retried once with managedFields cleared, as kube\'s handlers do', async () => {
    const created = await t.request('POST', BLOBS, { body: blob('many', keys(1)) });
    assert.equal(created.status, 201, created.text.slice(0, 300));
    assert.equal(managers(created), undefined);
    assert.equal(Object.keys(created.body.spec).length, 1000);
    const current = (await t.request('GET', `${BLOBS}/many`)).body;
    assert.equal(current.metadata.managedFields, undefined);
    // The PUT owns every key it changed: too large with that entry, stored without managedFields.
    const replaced = await t.request('PUT', `${BLOBS}/many`, { body: { ...current, spec: keys(2) } });
    assert.equal(replaced.status, 200, replaced.text.slice(0, 300));
    assert.equal(managers(replaced), undefined);
    assert.equal(replaced.body.spec[key(42)], 2);
    const patched = await patch('many', { spec: keys(3) }, 'application/merge-patch+json');
    assert.equal(patched.status, 200, patched.text.slice(0, 300));
    assert.equal(managers(patched), undefined);
    assert.equal(patched.body.spec[key(999)], 3);
  });

  it('apply is not retried: 413', async () => {
    const applied = await t.request('PATCH', `${BLOBS}/many?fieldManager=big`, {
      body: blob('many', keys(4)),
      contentType: 'application/apply-patch+yaml',
    });
    assert.equal(applied.status, 413, applied.text.slice(0, 300));
    assert.equal(applied.body.message, 'Request entity too large: etcdserver: request is too large');
    assert.equal((await t.request('GET', `${BLOBS}/many`)).body.spec[key(0)], 3);
  });
});

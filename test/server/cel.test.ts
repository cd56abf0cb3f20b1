/**
 * CEL validation rules enforced by the server on the bundled examples (generated/): bad creates
 * and bad transitions get kube's 422 Status (reason Invalid, causes with FieldValueInvalid, the
 * field path and `Invalid value: "<type>": <message>`); good writes and unchanged values pass.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from './testserver.js';

const GENERATED = join(fileURLToPath(new URL('../..', import.meta.url)), 'generated');
const POLICIES = '/apis/ops.example.org/v1beta1/policies';
const CLASSES = '/apis/widgets.example.com/v1/widgetclasses';
const WIDGETS = '/apis/widgets.example.com/v1/namespaces/default/widgets';

const policy = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'ops.example.org/v1beta1', kind: 'Policy', metadata: { name }, spec });
const widgetClass = (name: string, provisioner: string) => ({ apiVersion: 'widgets.example.com/v1', kind: 'WidgetClass', metadata: { name }, provisioner });

describe('CEL rules on the bundled examples', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ generatedDir: GENERATED });
  });
  after(() => s.close());

  test('a create breaking a rule is 422 Invalid, in kube-apiserver\'s words', async () => {
    const r = await s.request('POST', POLICIES, { body: policy('strict', { maxReplicas: 2, minReplicas: 5 }) });
    assert.equal(r.status, 422);
    assert.deepEqual(r.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Policy.ops.example.org "strict" is invalid: spec: Invalid value: "object": minReplicas must not exceed maxReplicas',
      reason: 'Invalid',
      details: {
        name: 'strict',
        group: 'ops.example.org',
        kind: 'Policy',
        causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "object": minReplicas must not exceed maxReplicas', field: 'spec' }],
      },
      code: 422,
    });
    assert.equal((await s.request('GET', `${POLICIES}/strict`)).status, 404, 'nothing was stored');
  });

  test('a create satisfying the rule is stored; so is one without the optional field', async () => {
    assert.equal((await s.request('POST', POLICIES, { body: policy('fine', { maxReplicas: 5, minReplicas: 2 }) })).status, 201);
    assert.equal((await s.request('POST', POLICIES, { body: policy('open', { maxReplicas: 5 }) })).status, 201);
  });

  test('an update breaking a rule is refused too', async () => {
    const r = await s.request('PATCH', `${POLICIES}/fine`, { body: { spec: { minReplicas: 9 } }, contentType: 'application/merge-patch+json' });
    assert.equal(r.status, 422);
    assert.equal(r.body.message, 'Policy.ops.example.org "fine" is invalid: spec: Invalid value: "object": minReplicas must not exceed maxReplicas');
  });

  test('an immutable field: set on create, refused on change, free to stay the same', async () => {
    assert.equal((await s.request('POST', CLASSES, { body: widgetClass('fast', 'spinner.example.com') })).status, 201);
    const change = await s.request('PATCH', `${CLASSES}/fast`, { body: { provisioner: 'other.example.com' }, contentType: 'application/merge-patch+json' });
    assert.equal(change.status, 422);
    assert.equal(change.body.reason, 'Invalid');
    assert.equal(change.body.message, 'WidgetClass.widgets.example.com "fast" is invalid: provisioner: Invalid value: "string": Value is immutable');
    assert.deepEqual(change.body.details.causes, [{ reason: 'FieldValueInvalid', message: 'Invalid value: "string": Value is immutable', field: 'provisioner' }]);
    const other = await s.request('PATCH', `${CLASSES}/fast`, { body: { isDefault: true }, contentType: 'application/merge-patch+json' });
    assert.equal(other.status, 200);
    assert.equal(other.body.provisioner, 'spinner.example.com');
  });

  test('a rule on list items with fieldPath reports the item field', async () => {
    const body = {
      apiVersion: 'widgets.example.com/v1',
      kind: 'Widget',
      metadata: { name: 'wooden' },
      spec: { parts: [{ name: 'leg', count: 4, material: 'steel' }, { name: 'plank', count: 11, material: 'wood' }] },
    };
    const r = await s.request('POST', WIDGETS, { body });
    assert.equal(r.status, 422);
    assert.equal(r.body.message, 'Widget.widgets.example.com "wooden" is invalid: spec.parts[1].count: Invalid value: "object": a wooden part has a count of at most 10');
    body.spec.parts[1]!.count = 10;
    assert.equal((await s.request('POST', WIDGETS, { body })).status, 201);
  });

  test('dry-run applies the rules as well', async () => {
    const r = await s.request('POST', `${POLICIES}?dryRun=All`, { body: policy('dry', { maxReplicas: 1, minReplicas: 2 }) });
    assert.equal(r.status, 422);
  });
});

/**
 * Server-side apply's prune as structured-merge-diff's Updater.prune (merge/update.go: RemoveItems
 * of the last set with EnsureNamedFieldsAreMembers, addBackOwnedItems, addBackDanglingItems).
 * The cases are SMD's own fixtures (merge/nested_test.go, merge/multiple_appliers_test.go, with
 * their schema) and the metadata cases that follow from the same code with kube's ObjectMeta.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { FieldManager } from '../../runtime/endpoints/fieldmanager/fieldmanager.js';
import { FieldSet } from '../../runtime/endpoints/fieldmanager/fieldset.js';
import { ensureNamedFieldsAreMembers } from '../../runtime/endpoints/fieldmanager/typed.js';
import { buildTypeSchema, OBJECT_META_SCHEMA } from '../../runtime/endpoints/fieldmanager/typeschema.js';

/** SMD's nested_test schema (listOfLists, struct, mapOfMaps), plus a struct of three fields and kube's ObjectMeta maps. */
const SCHEMAS = {
  Type: {
    type: 'object',
    properties: {
      listOfLists: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: { type: 'object', properties: { name: { type: 'string' }, value: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } } },
      },
      struct: { type: 'object', properties: { name: { type: 'string' }, value: { type: 'number' }, other: { type: 'string' } } },
      mapOfMaps: { type: 'object', additionalProperties: { type: 'object', additionalProperties: { type: 'string' } } },
    },
  },
  [OBJECT_META_SCHEMA]: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      namespace: { type: 'string' },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      annotations: { type: 'object', additionalProperties: { type: 'string' } },
    },
  },
};
const structure = buildTypeSchema(SCHEMAS, 'Type');
const fm = new FieldManager({ structure, apiVersion: 'x.example.com/v1', statusEnabled: false });

type Body = Record<string, unknown>;
const obj = (body: Body, metadata: Body = {}): KubeObject => ({ apiVersion: 'x.example.com/v1', kind: 'Type', metadata: { name: 'o', ...metadata }, ...body }) as KubeObject;

/** Runs SMD-style operations from nothing; returns the object. */
function run(ops: ({ apply: string; body: Body; metadata?: Body } | { update: string; body: Body; metadata?: Body })[], start?: KubeObject): KubeObject {
  let live = start;
  for (const op of ops) {
    if ('apply' in op) live = fm.apply(live, obj(op.body, op.metadata), op.apply, { force: false });
    else live = fm.update(live, { ...obj(op.body, { ...op.metadata, managedFields: live?.metadata?.managedFields }) }, op.update);
  }
  return live!;
}

/** The object without apiVersion, kind, metadata.name and managedFields. */
function content(o: KubeObject): Body {
  const { apiVersion: _a, kind: _k, metadata, ...rest } = o as KubeObject & Body;
  const { name: _n, managedFields: _m, ...meta } = (metadata ?? {}) as Body;
  return Object.keys(meta).length > 0 ? { ...rest, metadata: meta } : rest;
}

function managers(o: KubeObject): Record<string, unknown> {
  return Object.fromEntries((o.metadata?.managedFields ?? []).map((e) => [e.manager, e.fieldsV1]));
}

describe('server-side apply prune (structured-merge-diff semantics)', () => {
  it('makes only declared struct fields members (EnsureNamedFieldsAreMembers)', () => {
    const set = FieldSet.of(['f:struct', 'f:name'], ['f:mapOfMaps', 'f:a', 'f:b'], ['f:listOfLists', 'k:{"name":"a"}', 'f:value', 'v:"x"'], ['f:metadata', 'f:annotations', 'f:team']);
    const ensured = ensureNamedFieldsAreMembers(set, structure);
    assert.ok(ensured.has(['f:struct']));
    assert.ok(ensured.has(['f:mapOfMaps']), 'a declared field of the root');
    assert.ok(!ensured.has(['f:mapOfMaps', 'f:a']), 'a key of a free-form map is not');
    assert.ok(ensured.has(['f:listOfLists']));
    assert.ok(!ensured.has(['f:listOfLists', 'k:{"name":"a"}']), 'a list item is not');
    assert.ok(ensured.has(['f:listOfLists', 'k:{"name":"a"}', 'f:value']), 'a declared field of the item is');
    assert.ok(ensured.has(['f:metadata']) && ensured.has(['f:metadata', 'f:annotations']), 'annotations is a field of ObjectMeta');
  });

  it('remove_one_with_managed_subitem_keep_one: an item the applier drops goes with the sub-items others own', () => {
    const o = run([
      { apply: 'apply-one', body: { listOfLists: [{ name: 'a' }, { name: 'b', value: ['c'] }] } },
      { apply: 'apply-two', body: { listOfLists: [{ name: 'a', value: ['b'] }] } },
      { update: 'controller', body: { listOfLists: [{ name: 'a', value: ['b'] }, { name: 'b', value: ['c', 'd'] }] } },
      { apply: 'apply-one', body: { listOfLists: [{ name: 'a' }] } },
    ]);
    assert.deepEqual(content(o), { listOfLists: [{ name: 'a', value: ['b'] }] });
    assert.deepEqual(Object.keys(managers(o)).sort(), ['apply-one', 'apply-two']);
  });

  it('remove_one_keep_one_with_dangling_subitem: an item another applier owns stays, with what a controller added', () => {
    const o = run([
      { apply: 'apply-one', body: { listOfLists: [{ name: 'a' }, { name: 'b', value: ['c'] }] } },
      { apply: 'apply-two', body: { listOfLists: [{ name: 'b', value: ['d'] }] } },
      { update: 'controller', body: { listOfLists: [{ name: 'a' }, { name: 'b', value: ['c', 'd', 'e'] }] } },
      { apply: 'apply-one', body: { listOfLists: [{ name: 'a' }] } },
    ]);
    assert.deepEqual(content(o), { listOfLists: [{ name: 'a' }, { name: 'b', value: ['d', 'e'] }] });
  });

  it('struct_apply_update_took_over and struct_apply_update_dict_null: fields an updater changed stay', () => {
    const tookOver = run([
      { apply: 'default', body: { struct: { name: 'a' } } },
      { update: 'controller', body: { struct: { name: 'b', value: 1 } } },
      { apply: 'default', body: { struct: null } },
    ]);
    assert.deepEqual(content(tookOver), { struct: { name: 'b', value: 1 } });
    const dictNull = run([
      { apply: 'default', body: { struct: { name: 'a' } } },
      { update: 'controller', body: { struct: { name: 'a', value: 1 } } },
      { apply: 'default', body: { struct: null } },
    ]);
    assert.deepEqual(content(dictNull), { struct: { value: 1 } });
  });

  it('struct_apply_remove_all and struct_apply_remove_dangling', () => {
    assert.deepEqual(content(run([{ apply: 'default', body: { struct: { name: 'a', value: 1 } } }, { apply: 'default', body: {} }])), {});
    const dangling = run([{ apply: 'default', body: { struct: { name: 'a' } } }, { apply: 'default', body: { struct: null } }]);
    assert.deepEqual(content(dangling), { struct: null });
    assert.deepEqual(managers(dangling), { default: { 'f:struct': {} } });
  });

  /** A live object with a field no manager owns (written before managedFields, or by a conversion). */
  function withUnowned(body: Body, metadata: Body, owners: Record<string, Record<string, unknown>>): KubeObject {
    const managedFields = Object.entries(owners).map(([manager, fieldsV1]) => ({ manager, operation: 'Apply', apiVersion: 'x.example.com/v1', fieldsType: 'FieldsV1', fieldsV1 }));
    return obj(body, { ...metadata, managedFields });
  }

  it('removes only the fields of the applier\'s last set that nobody owns: an unowned sibling stays', () => {
    const live = withUnowned({ struct: { name: 'a', value: 1, other: 'unowned' } }, {}, { default: { 'f:struct': { 'f:name': {}, 'f:value': {} } } });
    const o = fm.apply(live, obj({ struct: { name: 'a' } }), 'default', { force: false });
    assert.deepEqual(content(o), { struct: { name: 'a', other: 'unowned' } });
  });

  it('keeps an unowned annotation when the applier gives up its own and another manager owns one', () => {
    const live = withUnowned({}, { annotations: { mine: '1', theirs: '2', 'x.example.com/conversion-data': '{}' } }, {
      default: { 'f:metadata': { 'f:annotations': { 'f:mine': {} } } },
      other: { 'f:metadata': { 'f:annotations': { 'f:theirs': {} } } },
    });
    const o = fm.apply(live, obj({}), 'default', { force: false });
    assert.deepEqual(content(o), { metadata: { annotations: { theirs: '2', 'x.example.com/conversion-data': '{}' } } });
  });

  it('keeps an unowned annotation when the applier still applies one', () => {
    const live = withUnowned({}, { annotations: { mine: '1', kept: 'k', 'x.example.com/conversion-data': '{}' } }, { default: { 'f:metadata': { 'f:annotations': { 'f:mine': {}, 'f:kept': {} } } } });
    const o = fm.apply(live, obj({}, { annotations: { kept: 'k' } }), 'default', { force: false });
    assert.deepEqual(content(o), { metadata: { annotations: { kept: 'k', 'x.example.com/conversion-data': '{}' } } });
  });

  it('removes metadata.annotations as a whole when the applier gave up its last annotation and nobody owns any (kube does the same)', () => {
    // annotations is a struct field of ObjectMeta: once no manager owns anything under it, SMD's
    // addBackOwnedItems does not add it back, and addBackDanglingItems removes it because the
    // last set (with its named fields) holds it.
    const live = withUnowned({ struct: { name: 'a' } }, { annotations: { mine: '1', 'x.example.com/conversion-data': '{}' } }, {
      default: { 'f:metadata': { 'f:annotations': { 'f:mine': {} } }, 'f:struct': { 'f:name': {} } },
    });
    const o = fm.apply(live, obj({ struct: { name: 'a' } }), 'default', { force: false });
    assert.deepEqual(content(o), { struct: { name: 'a' } });
  });
});

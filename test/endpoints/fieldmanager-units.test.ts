/** The field manager's pieces: field sets and FieldsV1, the structure read from OpenAPI, compare and toFieldSet. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FieldSet, pathString } from '../../runtime/endpoints/fieldmanager/fieldset.js';
import { compare, toFieldSet } from '../../runtime/endpoints/fieldmanager/typed.js';
import { buildTypeSchema } from '../../runtime/endpoints/fieldmanager/typeschema.js';

const SCHEMAS = {
  Thing: {
    type: 'object',
    properties: {
      spec: { allOf: [{ $ref: '#/components/schemas/Spec' }], description: 'the spec' },
    },
  },
  Spec: {
    type: 'object',
    properties: {
      ports: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, proto: { type: 'string' }, n: { type: 'integer' } } }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'proto'] },
      tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
      args: { type: 'array', items: { type: 'string' } },
      selector: { type: 'object', properties: { a: { type: 'string' } }, 'x-kubernetes-map-type': 'atomic' },
      env: { type: 'object', additionalProperties: { type: 'string' } },
      free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      next: { $ref: '#/components/schemas/Spec' },
    },
  },
};

describe('FieldSet', () => {
  it('round-trips FieldsV1 with members that have children', () => {
    const v1 = { 'f:spec': { '.': {}, 'f:b': {}, 'f:a': { 'k:{"name":"x"}': { '.': {}, 'f:n': {} } }, 'f:t': { 'v:"q"': {} } } };
    const set = FieldSet.fromFieldsV1(v1);
    assert.deepEqual(set.toFieldsV1(), { 'f:spec': { '.': {}, 'f:a': { 'k:{"name":"x"}': { '.': {}, 'f:n': {} } }, 'f:b': {}, 'f:t': { 'v:"q"': {} } } });
    assert.deepEqual(set.paths().map(pathString), ['.spec', '.spec.a[name="x"]', '.spec.a[name="x"].n', '.spec.b', '.spec.t[="q"]']);
    assert.throws(() => FieldSet.fromFieldsV1({ 'x:bad': {} }), /invalid FieldsV1 key/);
  });

  it('computes union, difference, intersection and recursive difference path by path', () => {
    const a = FieldSet.of(['f:a'], ['f:a', 'f:b'], ['f:c']);
    const b = FieldSet.of(['f:a'], ['f:d']);
    assert.deepEqual(a.union(b).paths(), [['f:a'], ['f:a', 'f:b'], ['f:c'], ['f:d']]);
    assert.deepEqual(a.difference(b).paths(), [['f:a', 'f:b'], ['f:c']]);
    assert.deepEqual(a.intersection(b).paths(), [['f:a']]);
    assert.deepEqual(a.recursiveDifference(b).paths(), [['f:c']]);
    assert.deepEqual(FieldSet.of(['f:x', 'f:y', 'f:z']).withAncestors().paths(), [['f:x'], ['f:x', 'f:y'], ['f:x', 'f:y', 'f:z']]);
  });
});

describe('structure and typed walks', () => {
  const root = buildTypeSchema(SCHEMAS, 'Thing');

  it('reads list types, map types, additionalProperties, preserve-unknown-fields and recursion from OpenAPI', () => {
    assert.equal(root.kind, 'map');
    const spec = root.kind === 'map' ? root.fields.get('spec')!.type : undefined;
    assert.equal(spec?.kind, 'map');
    if (spec?.kind !== 'map') return;
    const ports = spec.fields.get('ports')!.type;
    assert.deepEqual(ports.kind === 'list' && [ports.listType, ports.keys], ['map', ['name', 'proto']]);
    const tags = spec.fields.get('tags')!.type;
    const args = spec.fields.get('args')!.type;
    const selector = spec.fields.get('selector')!.type;
    assert.equal(tags.kind === 'list' && tags.listType, 'set');
    assert.equal(args.kind === 'list' && args.listType, 'atomic');
    assert.equal(selector.kind === 'map' && selector.atomic, true);
    assert.equal(spec.fields.get('next')!.type, spec, 'a recursive reference is the same node');
  });

  it('lists the fields a value sets, as SMD does', () => {
    const value = {
      spec: {
        ports: [{ name: 'a', proto: 'TCP', n: 1 }],
        tags: ['x'],
        args: ['1', '2'],
        selector: { a: 'b' },
        env: { K: 'v' },
        free: { deep: { er: 1 } },
        next: {},
      },
    };
    assert.deepEqual(toFieldSet(value, root).toFieldsV1(), {
      'f:spec': {
        'f:args': {},
        'f:env': { 'f:K': {} },
        'f:free': { 'f:deep': { '.': {}, 'f:er': {} } },
        'f:next': {},
        'f:ports': { 'k:{"name":"a","proto":"TCP"}': { '.': {}, 'f:n': {}, 'f:name': {}, 'f:proto': {} } },
        'f:selector': {},
        'f:tags': { 'v:"x"': {} },
      },
    });
  });

  it('compares values into added, modified and removed fields', () => {
    const before = { spec: { tags: ['x', 'y'], env: { A: '1', B: '2' }, args: ['1'] } };
    const after = { spec: { tags: ['y', 'z'], env: { A: '9' }, args: ['1', '2'], selector: { a: 'q' } } };
    const c = compare(before, after, root);
    assert.deepEqual(c.added.paths().map(pathString), ['.spec.selector', '.spec.tags[="z"]']);
    assert.deepEqual(c.modified.paths().map(pathString), ['.spec.args', '.spec.env.A']);
    assert.deepEqual(c.removed.paths().map(pathString), ['.spec.env.B', '.spec.tags[="x"]']);
  });
});

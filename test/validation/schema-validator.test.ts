import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { OpenAPIV3 } from 'openapi-types';
import { compileSchemaValidator, toStatusCauses, type FieldError, type SchemaValidator } from '../../runtime/validation/index.js';

type Schemas = Record<string, OpenAPIV3.SchemaObject | OpenAPIV3.ReferenceObject>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A one-kind document: Thing { spec: Spec }, Spec's properties given per test. */
function validatorFor(specProps: Record<string, unknown>, specExtra: Record<string, unknown> = {}, more: Record<string, unknown> = {}): SchemaValidator {
  const schemas = {
    Thing: {
      type: 'object',
      properties: {
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        metadata: { allOf: [ref('ObjectMeta')], description: 'Standard object metadata.' },
        spec: { allOf: [ref('Spec')], description: 'The spec.' },
      },
    },
    ObjectMeta: { type: 'object', properties: { name: { type: 'string' } } },
    Spec: { type: 'object', properties: specProps, ...specExtra },
    ...more,
  } as unknown as Schemas;
  return compileSchemaValidator(schemas, 'Thing');
}

function errorsFor(v: SchemaValidator, spec: unknown): string[] {
  return v.validate({ apiVersion: 'x.io/v1', kind: 'Thing', metadata: { name: 'a' }, spec }).map((e) => `${e.field}: ${e.message}`);
}

function only(v: SchemaValidator, spec: unknown): FieldError {
  const errs = v.validate({ apiVersion: 'x.io/v1', kind: 'Thing', metadata: { name: 'a' }, spec });
  assert.equal(errs.length, 1, JSON.stringify(errs));
  return errs[0]!;
}

describe('compileSchemaValidator: types', () => {
  const v = validatorFor({
    replicas: { type: 'integer', format: 'int32' },
    ratio: { type: 'number' },
    name: { type: 'string' },
    on: { type: 'boolean' },
    list: { type: 'array', items: { type: 'string' } },
    obj: { type: 'object', properties: { a: { type: 'string' } } },
  });

  it('accepts matching values and integral numbers for number', () => {
    assert.deepEqual(errorsFor(v, { replicas: 3, ratio: 2, name: 'x', on: true, list: ['a'], obj: { a: 'b' } }), []);
    assert.deepEqual(errorsFor(v, { ratio: 2.5 }), []);
  });

  it('reports type mismatches with the actual JSON type, as kube-openapi words it', () => {
    const e = only(v, { replicas: 'string' });
    assert.deepEqual(e, {
      type: 'FieldValueTypeInvalid',
      field: 'spec.replicas',
      message: 'Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    });
    assert.deepEqual(errorsFor(v, { replicas: 1.5, name: 5, on: 'yes', list: {}, obj: [] }), [
      'spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"',
      'spec.name: Invalid value: "integer": spec.name in body must be of type string: "integer"',
      'spec.on: Invalid value: "string": spec.on in body must be of type boolean: "string"',
      'spec.list: Invalid value: "object": spec.list in body must be of type array: "object"',
      'spec.obj: Invalid value: "array": spec.obj in body must be of type object: "array"',
    ]);
  });

  it('rejects null unless nullable', () => {
    assert.deepEqual(errorsFor(v, { name: null }), [
      'spec.name: Invalid value: "null": spec.name in body must be of type string: "null"',
    ]);
    const nullable = validatorFor({ name: { type: 'string', nullable: true } });
    assert.deepEqual(errorsFor(nullable, { name: null }), []);
  });

  it('validates items with indexed paths', () => {
    assert.deepEqual(errorsFor(v, { list: ['a', 1, 'c', true] }), [
      'spec.list[1]: Invalid value: "integer": spec.list[1] in body must be of type string: "integer"',
      'spec.list[3]: Invalid value: "boolean": spec.list[3] in body must be of type string: "boolean"',
    ]);
  });

  it('returns every error, not just the first', () => {
    assert.equal(errorsFor(v, { replicas: 'a', ratio: 'b', name: 1, on: 2 }).length, 4);
  });
});

describe('compileSchemaValidator: value keywords', () => {
  it('required', () => {
    const v = validatorFor({ name: { type: 'string' }, size: { type: 'integer' } }, { required: ['name', 'size'] });
    assert.deepEqual(v.validate({ spec: { size: 1 } }), [
      { type: 'FieldValueRequired', field: 'spec.name', message: 'Required value' },
    ]);
    // present-but-null counts as present for required (and then fails the type check)
    assert.deepEqual(errorsFor(v, { name: null, size: 1 }), [
      'spec.name: Invalid value: "null": spec.name in body must be of type string: "null"',
    ]);
  });

  it('enum: Unsupported value with the supported values quoted', () => {
    const v = validatorFor({ mode: { type: 'string', enum: ['a', 'b'] }, level: { type: 'integer', enum: [1, 2] } });
    assert.deepEqual(only(v, { mode: 'x' }), {
      type: 'FieldValueNotSupported',
      field: 'spec.mode',
      message: 'Unsupported value: "x": supported values: "a", "b"',
    });
    assert.equal(only(v, { level: 3 }).message, 'Unsupported value: 3: supported values: "1", "2"');
    assert.deepEqual(errorsFor(v, { mode: 'a', level: 2 }), []);
  });

  it('minimum/maximum, inclusive and exclusive (OpenAPI 3.0 booleans)', () => {
    const v = validatorFor({
      replicas: { type: 'integer', minimum: 1, maximum: 10 },
      ex: { type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 5, exclusiveMaximum: true },
      ratio: { type: 'number', maximum: 1.5 },
    });
    assert.deepEqual(only(v, { replicas: 11 }), {
      type: 'FieldValueInvalid',
      field: 'spec.replicas',
      message: 'Invalid value: 11: spec.replicas in body should be less than or equal to 10',
    });
    assert.equal(only(v, { replicas: 0 }).message, 'Invalid value: 0: spec.replicas in body should be greater than or equal to 1');
    assert.equal(only(v, { ex: 0 }).message, 'Invalid value: 0: spec.ex in body should be greater than 0');
    assert.equal(only(v, { ex: 5 }).message, 'Invalid value: 5: spec.ex in body should be less than 5');
    assert.equal(only(v, { ratio: 2.25 }).message, 'Invalid value: 2.25: spec.ratio in body should be less than or equal to 1.5');
    assert.deepEqual(errorsFor(v, { replicas: 10, ex: 4, ratio: 1.5 }), []);
  });

  it('multipleOf', () => {
    const v = validatorFor({ n: { type: 'integer', multipleOf: 5 }, f: { type: 'number', multipleOf: 0.5 } });
    assert.equal(only(v, { n: 7 }).message, 'Invalid value: 7: spec.n in body should be a multiple of 5');
    assert.equal(only(v, { f: 0.75 }).message, 'Invalid value: 0.75: spec.f in body should be a multiple of 0.5');
    assert.deepEqual(errorsFor(v, { n: 15, f: 2.5 }), []);
  });

  it('maxLength (Too long, no value), minLength and pattern', () => {
    const v = validatorFor({
      name: { type: 'string', maxLength: 5, minLength: 2, pattern: '^[a-z]+$' },
      one: { type: 'string', maxLength: 1 },
    });
    assert.deepEqual(only(v, { name: 'abcdefg' }), {
      type: 'FieldValueTooLong',
      field: 'spec.name',
      message: 'Too long: may not be more than 5 bytes',
    });
    assert.equal(only(v, { one: 'ab' }).message, 'Too long: may not be more than 1 byte');
    assert.equal(only(v, { name: 'a' }).message, 'Invalid value: "a": spec.name in body should be at least 2 chars long');
    assert.deepEqual(only(v, { name: 'abC' }), {
      type: 'FieldValueInvalid',
      field: 'spec.name',
      message: `Invalid value: "abC": spec.name in body should match '^[a-z]+$'`,
    });
    // lengths count code points, as kube-openapi counts runes
    assert.deepEqual(errorsFor(validatorFor({ s: { type: 'string', maxLength: 2 } }), { s: '😀😀' }), []);
  });

  it('an invalid pattern is reported, not thrown', () => {
    const v = validatorFor({ s: { type: 'string', pattern: '([a-z' } });
    const e = only(v, { s: 'abc' });
    assert.equal(e.type, 'FieldValueInvalid');
    assert.match(e.message, /^Invalid value: "abc": spec\.s in body should match '\(\[a-z, but pattern is invalid: /);
  });

  it('minItems, maxItems (Too many) and uniqueItems', () => {
    const v = validatorFor({ tags: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 3, uniqueItems: true } });
    assert.deepEqual(only(v, { tags: ['a', 'b', 'c', 'd'] }), {
      type: 'FieldValueTooMany',
      field: 'spec.tags',
      message: 'Too many: 4: must have at most 3 items',
    });
    assert.equal(only(v, { tags: ['a'] }).message, 'Invalid value: 1: spec.tags in body should have at least 2 items');
    assert.equal(only(v, { tags: ['a', 'a'] }).message, `Invalid value: "": spec.tags in body shouldn't contain duplicates`);
  });

  it('minProperties and maxProperties', () => {
    const v = validatorFor({
      m: { type: 'object', additionalProperties: { type: 'string' }, minProperties: 1, maxProperties: 2 },
    });
    assert.deepEqual(only(v, { m: { a: 'x', b: 'y', c: 'z' } }), {
      type: 'FieldValueTooMany',
      field: 'spec.m',
      message: 'Too many: 3: must have at most 2 items',
    });
    assert.equal(only(v, { m: {} }).message, 'Invalid value: 0: spec.m in body should have at least 1 properties');
  });

  it('formats: date-time, date, byte, uuid; unknown formats are ignored', () => {
    const v = validatorFor({
      t: { type: 'string', format: 'date-time' },
      d: { type: 'string', format: 'date' },
      b: { type: 'string', format: 'byte' },
      u: { type: 'string', format: 'uuid' },
      x: { type: 'string', format: 'no-such-format' },
      i: { type: 'integer', format: 'int64' },
      f: { type: 'number', format: 'double' },
    });
    const good = { t: '2024-02-29T10:00:00Z', d: '2024-02-29', b: 'aGVsbG8=', u: '123e4567-e89b-12d3-a456-426614174000', x: '?', i: 5, f: 1.5 };
    assert.deepEqual(errorsFor(v, good), []);
    assert.deepEqual(errorsFor(v, { t: '2024-02-29 10:00', d: '2023-02-29', b: 'not base64!', u: 'nope' }), [
      'spec.t: Invalid value: "2024-02-29 10:00": spec.t in body must be of type date-time: "2024-02-29 10:00"',
      'spec.d: Invalid value: "2023-02-29": spec.d in body must be of type date: "2023-02-29"',
      'spec.b: Invalid value: "not base64!": spec.b in body must be of type byte: "not base64!"',
      'spec.u: Invalid value: "nope": spec.u in body must be of type uuid: "nope"',
    ]);
    assert.deepEqual(errorsFor(v, { t: '2024-01-01t10:00:00.123+02:00' }), []);
  });

  it('int32 values out of range are rejected in kube’s maximum/minimum words', () => {
    const v = validatorFor({ n: { type: 'integer', format: 'int32' } });
    assert.equal(only(v, { n: 3000000000 }).message, 'Invalid value: 3000000000: spec.n in body should be less than or equal to 2147483647');
    assert.deepEqual(errorsFor(v, { n: 2147483647 }), []);
  });

  it('additionalProperties: a schema validates map values; false forbids extra keys', () => {
    const v = validatorFor({
      labels: { type: 'object', additionalProperties: { type: 'string', maxLength: 3 } },
      closed: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
    });
    assert.deepEqual(errorsFor(v, { labels: { ok: 'abc', bad: 1 } }), [
      'spec.labels.bad: Invalid value: "integer": spec.labels.bad in body must be of type string: "integer"',
    ]);
    assert.deepEqual(errorsFor(v, { closed: { a: 'x', b: 'y' } }), [
      'spec.closed: Invalid value: "b": spec.closed.b in body is a forbidden property',
    ]);
  });

  it('a non-string value under a string format is reported against the format, as kube-openapi does', () => {
    const v = validatorFor({ t: { type: 'string', format: 'date-time' } });
    assert.deepEqual(only(v, { t: 5 }), {
      type: 'FieldValueTypeInvalid',
      field: 'spec.t',
      message: 'Invalid value: "int64": spec.t in body must be of type date-time: "int64"',
    });
    assert.equal(only(v, { t: true }).message, 'Invalid value: "": spec.t in body must be of type date-time: ""');
  });

  it('enum applies to null too, even when nullable', () => {
    const v = validatorFor({ mode: { type: 'string', nullable: true, enum: ['a'] } });
    assert.deepEqual(errorsFor(v, { mode: null }), ['spec.mode: Unsupported value: "null": supported values: "a"']);
  });

  it('allOf parts (inline and $ref) merge into one schema', () => {
    const v = validatorFor(
      { code: { allOf: [{ type: 'string' }, { maxLength: 3 }] }, inner: { allOf: [ref('Inner')], description: 'd', nullable: true } },
      {},
      { Inner: { type: 'object', required: ['x'], properties: { x: { type: 'integer' } } } },
    );
    assert.deepEqual(errorsFor(v, { code: 'abcd', inner: {} }), [
      'spec.code: Too long: may not be more than 3 bytes',
      'spec.inner.x: Required value',
    ]);
    assert.deepEqual(errorsFor(v, { code: 'abc', inner: null }), []);
  });

  it('toStatusCauses maps type, message and field', () => {
    const v = validatorFor({ replicas: { type: 'integer', maximum: 10 } });
    assert.deepEqual(toStatusCauses(v.validate({ spec: { replicas: 11 } })), [
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: 11: spec.replicas in body should be less than or equal to 10',
        field: 'spec.replicas',
      },
    ]);
  });
});

describe('compileSchemaValidator: kube extensions', () => {
  it('x-kubernetes-int-or-string accepts integers and strings only', () => {
    const v = validatorFor({
      port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
    });
    assert.deepEqual(errorsFor(v, { port: 80 }), []);
    assert.deepEqual(errorsFor(v, { port: 'http' }), []);
    assert.deepEqual(errorsFor(v, { port: true }), [
      'spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
    ]);
    assert.deepEqual(errorsFor(v, { port: 1.5 }), [
      'spec.port: Invalid value: "number": spec.port in body must be of type integer,string: "number"',
    ]);
  });

  // kube validates a built-in kind's Go value, where resource.Quantity took any JSON number; a
  // custom resource's int-or-string stays integer or string.
  it('a Quantity (int-or-string with a pattern) takes a fractional number in a built-in kind only', () => {
    const quantity = { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }], pattern: '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$' };
    const schemas = {
      Thing: { type: 'object', properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, spec: { type: 'object', properties: { cpu: quantity, port: { 'x-kubernetes-int-or-string': true } } } } },
    } as unknown as Schemas;
    const thing = (spec: unknown) => ({ apiVersion: 'x.io/v1', kind: 'Thing', metadata: { name: 'a' }, spec });
    const builtIn = compileSchemaValidator(schemas, 'Thing', { Thing: { apiVersion: 1, kind: 2, spec: 3 } });
    assert.deepEqual(builtIn.validate(thing({ cpu: 0.5 })), []);
    assert.deepEqual(builtIn.validate(thing({ cpu: '500m' })), []);
    // An IntOrString is an int32 or a string in Go too.
    assert.deepEqual(builtIn.validate(thing({ port: 1.5 })).map((e) => e.message), ['Invalid value: "number": spec.port in body must be of type integer,string: "number"']);
    const custom = compileSchemaValidator(schemas, 'Thing');
    assert.deepEqual(custom.validate(thing({ cpu: 0.5 })).map((e) => e.message), ['Invalid value: "number": spec.cpu in body must be of type integer,string: "number"']);
  });

  it('list-type set: Duplicate value at the first repeat', () => {
    const v = validatorFor({
      tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
      nums: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'integer' } },
      atomic: { type: 'array', 'x-kubernetes-list-type': 'atomic', items: { type: 'string' } },
    });
    assert.deepEqual(v.validate({ spec: { tags: ['a', 'b', 'a', 'a', 'b'], nums: [1, 1], atomic: ['x', 'x'] } }), [
      { type: 'FieldValueDuplicate', field: 'spec.tags[2]', message: 'Duplicate value: "a"' },
      { type: 'FieldValueDuplicate', field: 'spec.tags[4]', message: 'Duplicate value: "b"' },
      { type: 'FieldValueDuplicate', field: 'spec.nums[1]', message: 'Duplicate value: 1' },
    ]);
  });

  it('list-type map: duplicate keys, reported as the key map; non-objects rejected', () => {
    const port = { type: 'object', properties: { name: { type: 'string' }, protocol: { type: 'string' }, port: { type: 'integer' } } };
    const v = validatorFor({
      ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: port },
      multi: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['port', 'protocol'],
        items: port,
      },
    });
    assert.deepEqual(errorsFor(v, { ports: [{ name: 'a', port: 1 }, { name: 'b' }, { name: 'a', port: 2 }] }), [
      'spec.ports[2]: Duplicate value: map[string]interface {}{"name":"a"}',
    ]);
    assert.deepEqual(
      errorsFor(v, { multi: [{ port: 80, protocol: 'TCP' }, { port: 80, protocol: 'UDP' }, { protocol: 'TCP', port: 80, name: 'x' }] }),
      ['spec.multi[2]: Duplicate value: map[string]interface {}{"port":80, "protocol":"TCP"}'],
    );
    assert.deepEqual(errorsFor(v, { ports: [{ name: 'a' }, 'oops'] }), [
      'spec.ports[1]: Invalid value: "string": spec.ports[1] in body must be of type object: "string"',
      'spec.ports[1]: Invalid value: "oops": must be an object for an array of list-type map',
    ]);
  });

  it('list-type checks also run inside map values, with field.Path keys', () => {
    const v = validatorFor({
      groups: {
        type: 'object',
        additionalProperties: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
      },
    });
    assert.deepEqual(errorsFor(v, { groups: { admins: ['a', 'a'] } }), ['spec.groups[admins][1]: Duplicate value: "a"']);
  });

  it('x-kubernetes-preserve-unknown-fields keeps unknown fields and still validates known ones', () => {
    const v = validatorFor({
      config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { level: { type: 'integer' } } },
    });
    const obj = { apiVersion: 'x.io/v1', kind: 'Thing', spec: { config: { level: 'high', extra: { deep: [1, { x: 2 }] } } } };
    assert.deepEqual(
      v.validate(obj).map((e) => e.field),
      ['spec.config.level'],
    );
    assert.deepEqual(v.unknownFields(obj), []);
    v.prune(obj);
    assert.deepEqual(obj.spec.config.extra, { deep: [1, { x: 2 }] });
  });

  it('x-kubernetes-embedded-resource: TypeMeta required, metadata as ObjectMeta, meta fields kept by pruning', () => {
    const v = validatorFor({
      template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      strict: {
        type: 'object',
        'x-kubernetes-embedded-resource': true,
        properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } },
      },
    });
    assert.deepEqual(errorsFor(v, { template: { metadata: { name: 'x/y', labels: { 'bad key!': 'v' } } } }), [
      'spec.template.apiVersion: Required value',
      'spec.template.kind: Required value',
      "spec.template.metadata.name: Invalid value: \"x/y\": may not contain '/'",
      "spec.template.metadata.labels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]);
    assert.deepEqual(errorsFor(v, { strict: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } } }), []);
    const obj = {
      spec: { strict: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', junk: 1 }, spec: { a: 'x', b: 'y' }, other: 1 } },
    };
    assert.deepEqual(v.unknownFields(obj), ['spec.strict.metadata.junk', 'spec.strict.other', 'spec.strict.spec.b']);
    v.prune(obj);
    assert.deepEqual(obj.spec.strict, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { a: 'x' } });
  });

  it('additionalProperties: true and typeless schemas accept and keep any value', () => {
    const v = validatorFor({ any: {}, bag: { type: 'object', additionalProperties: true }, typed: { type: 'object' } });
    const obj = { spec: { any: { a: [1, { b: 2 }] }, bag: { x: { y: 1 } }, typed: { dropped: 1 } } };
    assert.deepEqual(v.validate(obj), []);
    assert.deepEqual(v.unknownFields(obj), ['spec.typed.dropped']);
    v.prune(obj);
    assert.deepEqual(obj.spec, { any: { a: [1, { b: 2 }] }, bag: { x: { y: 1 } }, typed: {} });
  });

  it('x-kubernetes-map-type is accepted', () => {
    const v = validatorFor({ sel: { type: 'object', 'x-kubernetes-map-type': 'atomic', additionalProperties: { type: 'string' } } });
    assert.deepEqual(errorsFor(v, { sel: { a: 'b' } }), []);
  });
});

describe('compileSchemaValidator: references and recursion', () => {
  const recursive = {
    Tree: {
      type: 'object',
      properties: {
        metadata: ref('ObjectMeta'),
        spec: { allOf: [ref('Node')] },
      },
    },
    ObjectMeta: { type: 'object' },
    Node: {
      type: 'object',
      required: ['value'],
      properties: {
        value: { type: 'integer', maximum: 100 },
        children: { type: 'array', items: ref('Node') },
        next: { allOf: [ref('Node')], description: 'the next node', nullable: true },
        byName: { type: 'object', additionalProperties: ref('Node') },
      },
    },
  } as unknown as Schemas;

  it('recursive types compile and validate at any depth', () => {
    const v = compileSchemaValidator(recursive, 'Tree');
    const deep = { value: 1, children: [{ value: 2, children: [{ value: 300 }] }], next: { value: 4, next: { children: [] } } };
    assert.deepEqual(
      v.validate({ spec: deep }).map((e) => `${e.field}: ${e.message}`),
      [
        'spec.children[0].children[0].value: Invalid value: 300: spec.children[0].children[0].value in body should be less than or equal to 100',
        'spec.next.next.value: Required value',
      ],
    );
    assert.deepEqual(v.validate({ spec: { value: 1, next: null } }), []);
  });

  it('unknownFields and prune walk recursive maps and arrays', () => {
    const v = compileSchemaValidator(recursive, 'Tree');
    const obj = {
      apiVersion: 'x/v1',
      kind: 'Tree',
      metadata: { name: 'a', bogus: true },
      spec: {
        value: 1,
        zz: 1,
        children: [{ value: 2, junk: 'x' }, { value: 3, children: [{ value: 4, more: { a: 1 } }] }],
        byName: { left: { value: 5, extra: [] } },
      },
      status: {},
    };
    assert.deepEqual(v.unknownFields(obj), [
      'metadata.bogus',
      'spec.byName.left.extra',
      'spec.children[0].junk',
      'spec.children[1].children[0].more',
      'spec.zz',
      'status',
    ]);
    v.prune(obj);
    assert.deepEqual(obj, {
      apiVersion: 'x/v1',
      kind: 'Tree',
      metadata: { name: 'a' },
      spec: { value: 1, children: [{ value: 2 }, { value: 3, children: [{ value: 4 }] }], byName: { left: { value: 5 } } },
    });
    assert.deepEqual(v.unknownFields(obj), []);
  });

  it('a $ref to a missing schema is a compile error', () => {
    assert.throws(() => compileSchemaValidator({ A: { type: 'object', properties: { b: ref('Missing') } } } as Schemas, 'A'), /Missing/);
  });

  it('root metadata is ObjectMeta whatever the schema says, and is checked structurally', () => {
    const v = compileSchemaValidator(recursive, 'Tree');
    assert.deepEqual(
      v.validate({ metadata: { name: 5, labels: { a: 1 }, creationTimestamp: null }, spec: { value: 1 } }).map((e) => e.field),
      ['metadata.name', 'metadata.labels.a'],
    );
  });
});

describe('compileSchemaValidator: defaults', () => {
  const schemas = {
    Thing: {
      type: 'object',
      properties: {
        metadata: ref('ObjectMeta'),
        spec: { allOf: [ref('Spec')], default: {} },
      },
    },
    ObjectMeta: { type: 'object' },
    Spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', default: 1 },
        mode: { type: 'string', default: 'auto' },
        note: { type: 'string', nullable: true, default: 'n' },
        plain: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' }, default: ['a'] },
        strategy: {
          type: 'object',
          default: { type: 'Rolling' },
          properties: { type: { type: 'string' }, maxSurge: { type: 'integer', default: 25 } },
        },
        ports: {
          type: 'array',
          items: { type: 'object', default: { port: 80 }, properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' } } },
        },
        env: { type: 'object', additionalProperties: { type: 'object', properties: { value: { type: 'string', default: 'v' } } } },
      },
    },
  } as unknown as Schemas;
  const v = compileSchemaValidator(schemas, 'Thing');

  it('fills absent fields, then defaults the defaults (nested defaults after the parent)', () => {
    const obj: Record<string, unknown> = { metadata: { name: 'x' } };
    v.applyDefaults(obj);
    assert.deepEqual(obj.spec, {
      replicas: 1,
      mode: 'auto',
      note: 'n',
      tags: ['a'],
      strategy: { type: 'Rolling', maxSurge: 25 },
    });
  });

  it('replaces non-nullable nulls, keeps nullable nulls, drops non-nullable nulls without a default', () => {
    const obj = { spec: { replicas: null, note: null, plain: null, mode: 'fixed' } };
    v.applyDefaults(obj);
    assert.deepEqual(obj.spec, {
      replicas: 1,
      note: null,
      mode: 'fixed',
      tags: ['a'],
      strategy: { type: 'Rolling', maxSurge: 25 },
    });
  });

  it('defaults inside arrays and maps; null items take the items default', () => {
    const obj = { spec: { ports: [{ port: 443 }, null], env: { A: {}, B: { value: 'x' } } } };
    v.applyDefaults(obj);
    assert.deepEqual(obj.spec.ports, [
      { port: 443, protocol: 'TCP' },
      { port: 80, protocol: 'TCP' },
    ]);
    assert.deepEqual(obj.spec.env, { A: { value: 'v' }, B: { value: 'x' } });
  });

  it('defaults are deep copies', () => {
    const a: Record<string, { tags: string[] }> = {};
    const b: Record<string, { tags: string[] }> = {};
    v.applyDefaults(a);
    v.applyDefaults(b);
    a.spec!.tags.push('mutated');
    assert.deepEqual(b.spec!.tags, ['a']);
    const again: Record<string, { tags: string[] }> = {};
    v.applyDefaults(again);
    assert.deepEqual(again.spec!.tags, ['a']);
  });
});

describe('compileSchemaValidator: robustness and speed', () => {
  it('never throws on arbitrary input', () => {
    const v = validatorFor({ a: { type: 'string' } }, { required: ['a'] });
    for (const input of [null, undefined, 1, 'x', [], [1, 2], { spec: 'x' }, { spec: [null] }, { metadata: 'x' }]) {
      assert.doesNotThrow(() => {
        v.validate(input);
        v.unknownFields(input);
        v.applyDefaults(input);
        v.prune(input);
      });
    }
  });

  it('validates thousands of objects with the same answers every time', () => {
    const v = validatorFor({
      replicas: { type: 'integer', minimum: 0, maximum: 100 },
      name: { type: 'string', pattern: '^[a-z]+$', maxLength: 20 },
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } },
      },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
    });
    const obj = {
      apiVersion: 'x.io/v1',
      kind: 'Thing',
      metadata: { name: 'a', labels: { app: 'x' } },
      spec: { replicas: 3, name: 'abc', ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }], labels: { a: 'b', c: 'd' } },
    };
    // Speed is the bench's to measure, not a timed test's: here, thousands of calls interleaving a
    // valid and an invalid object give the same answers every time (a validator keeps no state).
    const bad = { ...obj, spec: { ...obj.spec, replicas: 101, ports: [{ name: 'http', port: 80 }, { name: 'http', port: 81 }] } };
    const badErrors = v.validate(bad).map((e) => `${e.field} ${e.type}`);
    assert.equal(badErrors.length, 2, badErrors.join('; '));
    for (let i = 0; i < 20000; i++) {
      assert.equal(v.validate(obj).length, 0);
      if (i % 100 === 0) assert.deepEqual(v.validate(bad).map((e) => `${e.field} ${e.type}`), badErrors);
    }
  });
});

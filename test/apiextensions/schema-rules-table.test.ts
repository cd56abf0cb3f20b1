/**
 * kube's CRD schema validation cases as a table: ported from apiextensions-apiserver
 * pkg/apis/apiextensions/validation/validation_test.go (TestValidateCustomResourceDefinitionValidation,
 * its cases without CEL, and the additionalProperties cases of TestValidateCustomResourceDefinition)
 * with each case's schema in JSON, its validationOptions, and its expected errors matched as kube's
 * test matches them: by error type and field path, each expected error consuming one actual error,
 * and no actual error left over.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateOpenAPISchema, type SchemaValidationOptions } from '../../runtime/apiextensions/schema-rules.js';
import type { FieldErrorType } from '../../runtime/validation/index.js';

const ROOT = 'spec.validation.openAPIV3Schema';
type Match = [FieldErrorType, string];
const invalid = (p: string): Match => ['FieldValueInvalid', p];
const required = (p: string): Match => ['FieldValueRequired', p];
const forbidden = (p: string): Match => ['FieldValueForbidden', p];
const unsupported = (p: string): Match => ['FieldValueNotSupported', p];
const at = (suffix: string) => (suffix ? `${ROOT}.${suffix}` : ROOT);

/** kube's validationOptions in these tests: all off unless the case sets them. */
const NONE: SchemaValidationOptions = { requireStructuralSchema: false, requireValidPropertyType: false, requireAtomicSetType: false, requireMapListKeysMapSetValidation: false };

interface Case {
  name: string;
  schema: Record<string, unknown>;
  statusEnabled?: boolean;
  opts?: Partial<SchemaValidationOptions>;
  errors?: Match[];
}

const mapItems = (props: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties: props, ...extra });

const CASES: Case[] = [
  { name: 'root type without status', schema: { type: 'string' } },
  { name: 'root type having invalid value, with status', schema: { type: 'string' }, statusEnabled: true, errors: [invalid(at('type'))] },
  { name: 'null type', schema: { properties: { null: { type: 'null' } } }, errors: [forbidden(at('properties[null].type'))] },
  { name: 'nullable at the root', schema: { type: 'object', nullable: true }, errors: [forbidden(at('nullable'))] },
  { name: 'nullable without type', schema: { properties: { nullable: { nullable: true } } } },
  {
    name: 'nullable with types',
    schema: { properties: { object: { type: 'object', nullable: true }, array: { type: 'array', nullable: true }, number: { type: 'number', nullable: true }, string: { type: 'string', nullable: true } } },
  },
  { name: "must be structural, but isn't", schema: {}, opts: { requireStructuralSchema: true }, errors: [required(at('type'))] },
  { name: 'must be structural', schema: { type: 'object' }, opts: { requireStructuralSchema: true } },
  { name: 'require valid types, valid', schema: { type: 'object' }, opts: { requireValidPropertyType: true, requireStructuralSchema: true } },
  {
    name: 'require valid types, invalid (null)',
    schema: { type: 'null' },
    opts: { requireValidPropertyType: true, requireStructuralSchema: true },
    errors: [unsupported(at('type')), forbidden(at('type')), invalid(at('type'))],
  },
  { name: 'require valid types, invalid (bogus)', schema: { type: 'bogus' }, opts: { requireValidPropertyType: true, requireStructuralSchema: true }, errors: [unsupported(at('type')), invalid(at('type'))] },
  { name: 'invalid type with list type extension set', schema: { type: 'object', 'x-kubernetes-list-type': 'set' }, errors: [invalid(at('type'))] },
  { name: 'unset type with list type extension set', schema: { 'x-kubernetes-list-type': 'set' }, errors: [required(at('type'))] },
  { name: 'invalid list type extension', schema: { type: 'array', 'x-kubernetes-list-type': 'invalid' }, errors: [unsupported(at('x-kubernetes-list-type'))] },
  {
    name: 'invalid list type extension with list map keys extension non-empty',
    schema: { type: 'array', 'x-kubernetes-list-type': 'set', 'x-kubernetes-list-map-keys': ['key'] },
    errors: [invalid(at('x-kubernetes-list-type'))],
  },
  { name: 'unset list type extension with list map keys extension non-empty', schema: { 'x-kubernetes-list-map-keys': ['key'] }, errors: [required(at('x-kubernetes-list-type'))] },
  {
    name: 'empty list map keys extension with list type extension map',
    schema: { type: 'array', 'x-kubernetes-list-type': 'map' },
    errors: [required(at('x-kubernetes-list-map-keys')), required(at('items'))],
  },
  { name: 'no items schema with list type extension map', schema: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['key'] }, errors: [required(at('items'))] },
  {
    name: 'multiple schema items with list type extension map',
    schema: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['key'], items: [{ type: 'string' }, { type: 'integer' }] },
    errors: [forbidden(at('items')), invalid(at('items'))],
  },
  {
    name: 'non object item with list type extension map',
    schema: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['key'], items: { type: 'string' } },
    errors: [invalid(at('items.type'))],
  },
  {
    name: 'items with key missing from properties with list type extension map',
    schema: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['key'], items: { type: 'object' } },
    errors: [invalid(at('x-kubernetes-list-map-keys'))],
  },
  {
    name: 'items with non scalar key property type with list type extension map',
    schema: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['key'], items: mapItems({ key: { type: 'object' } }) },
    errors: [invalid(at('items.properties[key].type'))],
  },
  {
    name: 'duplicate map keys with list type extension map',
    schema: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['key', 'key'], items: mapItems({ key: { type: 'string' } }) },
    errors: [invalid(at('x-kubernetes-list-map-keys'))],
  },
  {
    name: 'allowed schema with list type extension map',
    schema: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['keyA', 'keyB'], items: mapItems({ keyA: { type: 'string' }, keyB: { type: 'integer' } }) },
  },
  { name: 'allowed list-type atomic', schema: { type: 'array', 'x-kubernetes-list-type': 'atomic', items: { type: 'string' } } },
  { name: 'allowed list-type atomic with non-atomic items', schema: { type: 'array', 'x-kubernetes-list-type': 'atomic', items: { type: 'object', properties: {} } } },
  { name: 'allowed list-type set with scalar items', schema: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } },
  {
    name: 'allowed list-type set with atomic map items',
    schema: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { foo: { type: 'string' } } } },
  },
  {
    name: 'invalid list-type set with non-atomic map items',
    schema: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', 'x-kubernetes-map-type': 'granular', properties: { foo: { type: 'string' } } } },
    opts: { requireAtomicSetType: true },
    errors: [invalid(at('items.x-kubernetes-map-type'))],
  },
  {
    name: 'invalid list-type set with unspecified map-type for map items',
    schema: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', properties: { foo: { type: 'string' } } } },
    opts: { requireAtomicSetType: true },
    errors: [invalid(at('items.x-kubernetes-map-type'))],
  },
  {
    name: 'allowed list-type set with atomic list items',
    schema: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'array', 'x-kubernetes-list-type': 'atomic', items: { type: 'string' } } },
  },
  { name: 'allowed list-type set with unspecified list-type in list items', schema: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'array', items: { type: 'string' } } } },
  {
    name: 'invalid list-type set with with non-atomic list items',
    schema: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } },
    opts: { requireAtomicSetType: true },
    errors: [invalid(at('items.x-kubernetes-list-type'))],
  },
  { name: 'invalid type with map type extension (granular)', schema: { type: 'array', 'x-kubernetes-map-type': 'granular' }, errors: [invalid(at('type'))] },
  { name: 'unset type with map type extension (granular)', schema: { 'x-kubernetes-map-type': 'granular' }, errors: [required(at('type'))] },
  { name: 'invalid type with map type extension (atomic)', schema: { type: 'array', 'x-kubernetes-map-type': 'atomic' }, errors: [invalid(at('type'))] },
  { name: 'unset type with map type extension (atomic)', schema: { 'x-kubernetes-map-type': 'atomic' }, errors: [required(at('type'))] },
  { name: 'invalid map type', schema: { type: 'object', 'x-kubernetes-map-type': 'badMapType' }, errors: [unsupported(at('x-kubernetes-map-type'))] },
  { name: 'allowed type with map type extension (granular)', schema: { type: 'object', 'x-kubernetes-map-type': 'granular' } },
  { name: 'allowed type with map type extension (atomic)', schema: { type: 'object', 'x-kubernetes-map-type': 'atomic' } },
  {
    name: 'invalid map with non-required key and no default',
    schema: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['key'], items: mapItems({ key: { type: 'string' } }) },
    opts: { requireMapListKeysMapSetValidation: true },
    errors: [required(at('items.properties[key].default'))],
  },
  {
    name: 'allowed map with required key and no default',
    schema: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['key'], items: mapItems({ key: { type: 'string' } }, { required: ['key'] }) },
    opts: { requireMapListKeysMapSetValidation: true },
  },
  {
    name: 'allowed map with non-required key and default',
    schema: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['key'], items: mapItems({ key: { type: 'string', default: 'stuff' } }) },
    opts: { requireMapListKeysMapSetValidation: true },
  },
  {
    name: 'invalid map with nullable key',
    schema: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['key'], items: mapItems({ key: { type: 'string', nullable: true } }) },
    opts: { requireMapListKeysMapSetValidation: true },
    errors: [required(at('items.properties[key].default')), forbidden(at('items.properties[key].nullable'))],
  },
  {
    name: 'invalid map with nullable items',
    schema: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['key'], items: mapItems({ key: { type: 'string' } }, { nullable: true }) },
    opts: { requireMapListKeysMapSetValidation: true },
    errors: [forbidden(at('items.nullable')), required(at('items.properties[key].default'))],
  },
  {
    name: 'invalid set with nullable items',
    schema: { type: 'array', 'x-kubernetes-list-type': 'set', items: { nullable: true } },
    opts: { requireMapListKeysMapSetValidation: true },
    errors: [forbidden(at('items.nullable'))],
  },
  { name: 'allowed set with non-nullable items', schema: { type: 'array', 'x-kubernetes-list-type': 'set', items: { nullable: false } }, opts: { requireMapListKeysMapSetValidation: true } },
  { name: 'invalid x-kubernetes-validations with empty rule', schema: { type: 'object', 'x-kubernetes-validations': [{ message: 'empty' }] }, errors: [required(at('x-kubernetes-validations[0].rule'))] },
  { name: 'valid x-kubernetes-validations with empty validators', schema: { type: 'object', 'x-kubernetes-validations': [] } },
  // TestValidateCustomResourceDefinition: additionalProperties next to properties.
  {
    name: 'additionalProperties and properties forbidden',
    schema: { type: 'object', properties: { foo: { type: 'object', properties: { bar: { type: 'object' } }, additionalProperties: false } } },
    opts: { requireStructuralSchema: true, requireValidPropertyType: true },
    errors: [forbidden(at('properties[foo].additionalProperties'))],
  },
  {
    name: 'additionalProperties without properties allowed (map[string]string)',
    schema: { type: 'object', properties: { foo: { type: 'object', additionalProperties: { type: 'string' } } } },
    opts: { requireStructuralSchema: true, requireValidPropertyType: true },
  },
  // validateCustomResourceDefinitionOpenAPISchema's condition: `additionalProperties: true` (Allows, no Schema) may stand next to properties.
  {
    name: 'additionalProperties true next to properties allowed',
    schema: { type: 'object', properties: { foo: { type: 'object', properties: { bar: { type: 'string' } }, additionalProperties: true } } },
    opts: { requireStructuralSchema: true, requireValidPropertyType: true },
  },
  {
    name: 'additionalProperties schema next to properties forbidden',
    schema: { type: 'object', properties: { foo: { type: 'object', properties: { bar: { type: 'string' } }, additionalProperties: { type: 'string' } } } },
    opts: { requireStructuralSchema: true, requireValidPropertyType: true },
    errors: [forbidden(at('properties[foo].additionalProperties'))],
  },
  // pkg/apiserver/schema/validation.go validateStructuralInvariants.
  { name: 'additionalProperties at the root (structural)', schema: { type: 'object', additionalProperties: { type: 'string' } }, opts: { requireStructuralSchema: true }, errors: [forbidden(at('additionalProperties'))] },
  {
    name: 'int-or-string with preserve-unknown-fields (structural)',
    schema: { type: 'object', properties: { port: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true } } },
    opts: { requireStructuralSchema: true },
    errors: [invalid(at('properties[port].x-kubernetes-preserve-unknown-fields'))],
  },
  {
    name: 'embedded resource with additionalProperties and no properties (structural)',
    schema: { type: 'object', properties: { embedded: { type: 'object', 'x-kubernetes-embedded-resource': true, additionalProperties: { type: 'string' } } } },
    opts: { requireStructuralSchema: true },
    errors: [forbidden(at('properties[embedded].additionalProperties')), required(at('properties[embedded].properties'))],
  },
  {
    name: 'embedded resource kind must be a string (structural)',
    schema: { type: 'object', properties: { embedded: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { kind: { type: 'integer' } } } } },
    opts: { requireStructuralSchema: true },
    errors: [invalid(at('properties[embedded].properties[kind].type'))],
  },
];

describe("CRD schema validation: kube's test table", () => {
  for (const c of CASES) {
    it(c.name, () => {
      const got = validateOpenAPISchema(c.schema, ROOT, c.statusEnabled ?? false, { ...NONE, ...c.opts });
      const seen = new Array<boolean>(got.length).fill(false);
      for (const [type, path] of c.errors ?? []) {
        const i = got.findIndex((e, j) => !seen[j] && e.type === type && e.field === path);
        assert.ok(i >= 0, `expected ${type} at ${path}, got ${JSON.stringify(got)}`);
        seen[i] = true;
      }
      const unexpected = got.filter((_, j) => !seen[j]);
      assert.deepEqual(unexpected, [], 'no unexpected errors');
    });
  }
});

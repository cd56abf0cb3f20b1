/**
 * A compiled kind's IntOrString and Quantity fields refer to the apimachinery components
 * (meta-schemas.ts), where a CRD writes them inline. The validator must answer the same for both
 * shapes: types, Quantity's pattern, defaults and CEL rules (int-or-string is dyn), with the same
 * paths and messages.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileSchemaValidator } from '../../runtime/validation/index.js';
import { INT_OR_STRING, META_SCHEMAS, QUANTITY } from '../../runtime/endpoints/openapi/meta-schemas.js';
import { QUANTITY_PATTERN } from '../../runtime/endpoints/openapi/quantity.js';

type Json = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const INLINE_INT_OR_STRING = { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true };
const INLINE_QUANTITY = { ...INLINE_INT_OR_STRING, pattern: QUANTITY_PATTERN };

/** The same spec, IntOrString and Quantity written through `intOrString` and `quantity`. */
function root(intOrString: (extra: Json) => Json, quantity: (extra: Json) => Json): Json {
  return {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        'x-kubernetes-validations': [
          // int-or-string is dyn in CEL (kgen has no quantity() library yet).
          { rule: "!has(self.size) || self.size != '20Gi'", message: 'size must be under 10Gi' },
          { rule: "!has(self.port) || self.port == 80 || self.port == 'http'", message: 'port must be 80 or http' },
        ],
        properties: {
          port: intOrString({ description: 'The port.' }),
          surge: intOrString({ description: 'The surge.', default: '25%' }),
          size: quantity({ description: 'The size.' }),
          requests: { type: 'object', additionalProperties: quantity({}) },
        },
      },
    },
  };
}

const wrapped = (name: string) => (extra: Json) => (Object.keys(extra).length ? { allOf: [ref(name)], ...extra } : ref(name));
const inline = (shape: Json) => (extra: Json) => ({ ...shape, ...extra });

const byRef = compileSchemaValidator(
  { R: root(wrapped(INT_OR_STRING), wrapped(QUANTITY)), [INT_OR_STRING]: META_SCHEMAS[INT_OR_STRING]!, [QUANTITY]: META_SCHEMAS[QUANTITY]! } as never,
  'R',
);
const inlined = compileSchemaValidator({ R: root(inline(INLINE_INT_OR_STRING), inline(INLINE_QUANTITY)) } as never, 'R');

const obj = (spec: Json): Json => ({ apiVersion: 'x.example.com/v1', kind: 'W', metadata: { name: 'w', namespace: 'default' }, spec });
const errs = (v: typeof byRef, o: Json) => v.validate(o).map((e) => `${e.type} ${e.field}: ${e.message}`);

describe('IntOrString and Quantity through references validate as inline ones', () => {
  const cases: [string, Json][] = [
    ['valid values', { port: 80, surge: 1, size: '1Gi', requests: { cpu: '500m', memory: 128 } }],
    ['a name for the port', { port: 'http', size: '2Gi' }],
    ['wrong types', { port: true, surge: 1.5, size: false, requests: { cpu: [] } }],
    ['quantities off the pattern', { size: '1Gb', requests: { cpu: 'x1', memory: '1..0' } }],
    ['failing CEL rules', { port: 81, size: '20Gi' }],
  ];
  for (const [name, spec] of cases) {
    test(name, () => {
      const got = errs(byRef, obj(spec));
      assert.deepEqual(got, errs(inlined, obj(spec)));
      if (name === 'valid values' || name === 'a name for the port') assert.deepEqual(got, []);
      else assert.ok(got.length > 0, name);
    });
  }

  test('the messages name the field, its type and the pattern, as kube-openapi does', () => {
    assert.deepEqual(errs(byRef, obj({ port: true, size: '1Gb' })), [
      'FieldValueTypeInvalid spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
      `FieldValueInvalid spec.size: Invalid value: "1Gb": spec.size in body should match '${QUANTITY_PATTERN}'`,
      'FieldValueInvalid <nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
    assert.deepEqual(errs(byRef, obj({ port: 81, size: '20Gi' })).map((e) => e.replace(/^\S+ /, '')), [
      'spec: Invalid value: "object": size must be under 10Gi',
      'spec: Invalid value: "object": port must be 80 or http',
    ]);
  });

  test('a default beside the reference is applied', () => {
    const o = obj({ port: 80 });
    byRef.applyDefaults(o);
    assert.deepEqual(o.spec, { port: 80, surge: '25%' });
    const p = obj({ port: 80 });
    inlined.applyDefaults(p);
    assert.deepEqual(o, p);
  });
});

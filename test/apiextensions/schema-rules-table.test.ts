/**
 * kube's CRD schema validation tests as one table (apiextensions-apiserver @ the commit named in
 * kube/validation-cases.json), each case matched as kube's test matches it: by error type and field
 * path (and kube's `contains` text where it has one), each expected error consuming one actual
 * error, and no actual error left over.
 *
 * What kube has, and what is here:
 * - TestValidateCustomResourceDefinitionValidation (validation_test.go): 120 cases. 119 are ported
 *   mechanically (kube/port-go-cases.mjs turns the Go literals into kube/validation-cases.json),
 *   the CEL ones included; 1 is excluded (EXCLUDED below: it needs an older CEL environment).
 *   CEL cost cases compare error type and path only: kgen's cost model is cel-go's order of
 *   magnitude, not bit-exact (COST_ROWS names them).
 * - TestValidateCustomResourceDefinition (57), …Update (43) and the smaller whole-CRD tests are
 *   ported in crd-table.test.ts (each internal CRD turned into a v1 CRD); its 2 cases about
 *   additionalProperties next to properties are also here as schemas (plus 2 on the condition
 *   kube's code states).
 * - pkg/apiserver/schema/validation_test.go (structural): TestValidateStructuralCompleteness, 7
 *   cases: 5 ported, 2 excluded (they switch ValidationOptions CRD validation never sets);
 *   TestValidateStructuralMetadataInvariants and TestValidateNestedValueValidationComplete are
 *   reflection and fuzz loops over Go struct fields: ported as one row per case their loops make
 *   (46 and 15 rows), the option variants CRDs never use excluded.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateOpenAPISchema, type SchemaValidationOptions } from '../../runtime/apiextensions/schema-rules.js';
import { validateStructural } from '../../runtime/apiextensions/structural-rules.js';
import type { FieldError, FieldErrorType } from '../../runtime/validation/index.js';
import kube from './kube/validation-cases.json' with { type: 'json' };

const ROOT = 'spec.validation.openAPIV3Schema';
type Match = [FieldErrorType, string, string?];
const invalid = (p: string): Match => ['FieldValueInvalid', p];
const required = (p: string): Match => ['FieldValueRequired', p];
const forbidden = (p: string): Match => ['FieldValueForbidden', p];
const at = (suffix: string) => (suffix ? `${ROOT}.${suffix}` : ROOT);

/** kube's validationOptions in these tests: all off unless the case sets them. */
const NONE: SchemaValidationOptions = { requireStructuralSchema: false, requireValidPropertyType: false, requireAtomicSetType: false, requireMapListKeysMapSetValidation: false, allowDefaults: false };

interface Case {
  name: string;
  schema: Record<string, unknown> | null;
  statusEnabled?: boolean;
  opts?: Partial<SchemaValidationOptions>;
  errors?: Match[];
}

const GO_TYPES: Record<string, FieldErrorType> = { invalid: 'FieldValueInvalid', required: 'FieldValueRequired', forbidden: 'FieldValueForbidden', unsupported: 'FieldValueNotSupported' };

/** kube's cases that cannot apply to kgen, with the reason. */
const EXCLUDED: Record<string, string> = {
  'invalid x-kubernetes-validations for escaping (keywords are invalid field names before v1.30)':
    "runs with the CEL environment of kube 1.30 (celEnvironmentSet); kgen has one CEL environment, the current one, which the next case ('valid x-kubernetes-validations for escaping', environment 1.31) covers",
};

/**
 * Cost cases: kgen's estimate is cel-go's order of magnitude, not its exact number
 * (runtime/validation/cel-cost.ts); the rows match kube's error types and paths, not numbers.
 */
export const COST_ROWS = [
  'forbid validation rules where cost total exceeds total limit',
  'x-kubernetes-validations rule invalidated by messageExpression exceeding per-expression estimated cost limit',
  'x-kubernetes-validations rule with lowerAscii check should be within estimated cost limit',
  'x-kubernetes-validations rule referencing metadata.name and generateName is within estimated cost limit',
  'x-kubernetes-validations rule invalidated by messageExpression exceeding per-CRD estimated cost limit',
];

const KUBE_CASES: Case[] = kube.cases
  .filter((c) => !(c.name in EXCLUDED))
  .map((c) => {
    const { celEnvironmentSet: _env, ...opts } = c.opts as Record<string, unknown>;
    return {
      name: c.name,
      schema: c.schema as Record<string, unknown> | null,
      statusEnabled: c.statusEnabled,
      opts: opts as Partial<SchemaValidationOptions>,
      errors: c.errors.map((e) => [GO_TYPES[e.type]!, e.path, (e as { contains?: string }).contains] as Match),
    };
  });

const EXTRA_CASES: Case[] = [
  // The type check sees oldSelf as optional where optionalOldSelf is set (cel-go's optional type).
  {
    name: 'optionalOldSelf rules type-check with an optional oldSelf',
    schema: { type: 'object', properties: { v: { type: 'string', maxLength: 5, 'x-kubernetes-validations': [{ rule: '!oldSelf.hasValue() || self == oldSelf.value()', optionalOldSelf: true }, { rule: 'oldSelf.orValue("") != "x"', optionalOldSelf: true }] } } },
    opts: { requireStructuralSchema: true },
  },
  {
    name: 'a rule that does not compile is reported, and so is optionalOldSelf without oldSelf',
    schema: { type: 'object', properties: { v: { type: 'string', maxLength: 5, 'x-kubernetes-validations': [{ rule: 'self == 1', optionalOldSelf: true }] } } },
    opts: { requireStructuralSchema: true },
    errors: [invalid(at('properties[v].x-kubernetes-validations[0].rule')), invalid(at('properties[v].x-kubernetes-validations[0].optionalOldSelf'))],
  },
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

/** Each expected error consumes one actual error; none may be left over. */
function assertMatches(got: FieldError[], expected: Match[]): void {
  const seen = new Array<boolean>(got.length).fill(false);
  for (const [type, path, contains] of expected) {
    const i = got.findIndex((e, j) => !seen[j] && e.type === type && e.field === path && (contains === undefined || `${e.field}: ${e.message}`.includes(contains)));
    assert.ok(i >= 0, `expected ${type} at ${path}${contains ? ` containing ${JSON.stringify(contains)}` : ''}, got ${JSON.stringify(got, null, 1)}`);
    seen[i] = true;
  }
  assert.deepEqual(
    got.filter((_, j) => !seen[j]),
    [],
    'no unexpected errors',
  );
}

describe("CRD schema validation: kube's TestValidateCustomResourceDefinitionValidation", () => {
  it('has every case of kube but the excluded ones', () => {
    assert.equal(kube.cases.length, 120);
    assert.equal(KUBE_CASES.length, 120 - Object.keys(EXCLUDED).length);
    for (const name of COST_ROWS) assert.ok(KUBE_CASES.some((c) => c.name === name), name);
  });
  for (const c of KUBE_CASES) {
    it(c.name, () => assertMatches(validateOpenAPISchema(c.schema, ROOT, c.statusEnabled ?? false, { ...NONE, ...c.opts }), c.errors ?? []));
  }
});

describe('CRD schema validation: more of kube (TestValidateCustomResourceDefinition, structural invariants)', () => {
  for (const c of EXTRA_CASES) {
    it(c.name, () => assertMatches(validateOpenAPISchema(c.schema, ROOT, c.statusEnabled ?? false, { ...NONE, ...c.opts }), c.errors ?? []));
  }
});

// ---- pkg/apiserver/schema/validation_test.go: the structural checks on their own (ValidateStructural) ----

interface StructuralCase {
  name: string;
  schema: Record<string, unknown>;
  errors: Match[];
}

const meta = (metadata: Record<string, unknown>) => ({ type: 'object', properties: { metadata } });
const NAMES = { name: { type: 'string' }, generateName: { type: 'string' } };
const M = 'properties[metadata]';

/**
 * TestValidateStructuralMetadataInvariants, one row per case its loops make: metadata's type
 * (6), each ObjectMeta field as a property (15, by its JSON name; kube's loop uses Go field names,
 * which are all refused), and each other Structural field set beside name and generateName
 * (kube fuzzes them; here one value each). Property schemas are `{type: string}` where kube's
 * are empty, so that no "type must not be empty" error of the full check joins the row.
 */
const METADATA_CASES: StructuralCase[] = [
  ...['object', 'array', 'number', 'integer', 'boolean', 'string'].map((type) => ({
    name: `metadata of type ${type}`,
    schema: meta({ type }),
    errors: type === 'object' ? [] : type === 'array' ? [invalid(at(`${M}.type`)), required(at(`${M}.items`))] : [invalid(at(`${M}.type`))],
  })),
  ...[
    'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp',
    'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields',
  ].map((property) => ({
    name: `metadata property ${property}`,
    schema: meta({ type: 'object', properties: { [property]: { type: 'string' } } }),
    errors: property === 'name' || property === 'generateName' ? [] : [forbidden(at(M))],
  })),
  { name: 'metadata with name and generateName, and a default (API validation refuses it, not this check)', schema: meta({ type: 'object', properties: NAMES, default: {} }), errors: [] },
  ...Object.entries({
    items: { type: 'string' },
    additionalProperties: { type: 'string' },
    title: 't',
    description: 'd',
    nullable: true,
    'x-kubernetes-preserve-unknown-fields': true,
    'x-kubernetes-embedded-resource': true,
    'x-kubernetes-int-or-string': true,
    'x-kubernetes-list-type': 'atomic',
    'x-kubernetes-list-map-keys': ['name'],
    'x-kubernetes-map-type': 'atomic',
    'x-kubernetes-validations': [{ rule: 'true' }],
    format: 'byte',
    maximum: 1,
    maxLength: 1,
    pattern: 'a',
    maxItems: 1,
    enum: [{}],
    maxProperties: 1,
    required: ['name'],
    allOf: [{}],
    anyOf: [{}],
    oneOf: [{}],
    not: {},
  }).map(([key, value]) => ({ name: `metadata with name and generateName, and ${key}`, schema: meta({ type: 'object', properties: NAMES, [key]: value }), errors: [forbidden(at(M))] })),
];

/**
 * TestValidateNestedValueValidationComplete: each generic and extension field a value validation
 * inside a junctor may not set (ExternalDocs and Example may), and x-kubernetes-validations and
 * additionalProperties there (CRDs never allow either; kube's loop also runs the options that do,
 * which CRD validation never sets: excluded).
 */
const NESTED_CASES: StructuralCase[] = Object.entries({
  type: ['string', 'must be empty'],
  title: ['t', 'must be empty'],
  description: ['d', 'must be empty'],
  default: ['x', 'must be undefined'],
  nullable: [true, 'must be false'],
  'x-kubernetes-preserve-unknown-fields': [true, 'must be false'],
  'x-kubernetes-embedded-resource': [true, 'must be false'],
  'x-kubernetes-int-or-string': [true, 'must be false'],
  'x-kubernetes-list-map-keys': [['k'], 'must be empty'],
  'x-kubernetes-list-type': ['set', 'must be undefined'],
  'x-kubernetes-map-type': ['atomic', 'must be undefined'],
  'x-kubernetes-validations': [[{ rule: 'true' }], 'must be empty'],
  additionalProperties: [{}, 'must be undefined'],
  externalDocs: [{ description: 'd' }, ''],
  example: ['e', ''],
}).map(([key, [value, message]]) => ({
  name: `${key} inside allOf ${message ? 'is refused' : 'is allowed'}`,
  schema: { type: 'object', properties: { a: { type: 'string', allOf: [{ [key]: value }] } } },
  errors: message ? [['FieldValueForbidden', at(`properties[a].allOf[0].${key}`), `${message} to be structural`] as Match] : [],
}));

/**
 * TestValidateStructuralCompleteness: a property or items a value validation names must exist in
 * the structural schema. Its cases "allowed properties valuevalidation, additional properties
 * structure" and "disallowed additionalproperties valuevalidation, properties structure" switch
 * ValidationOptions that CRD validation never sets: excluded. kube's test checks only that the
 * named error is (or no completeness error is) among the errors; so do these rows.
 */
const COMPLETENESS_CASES: Array<{ name: string; schema: Record<string, unknown>; error?: [string, string] }> = [
  {
    name: 'disallowed properties valuevalidation, additional properties structure',
    schema: { additionalProperties: { type: 'object', properties: { bar: { type: 'string' } } }, allOf: [{ properties: { foo: { minLength: 2 } } }] },
    error: ['properties[foo]', 'because it is defined in allOf[0].properties[foo]'],
  },
  { name: 'allowed property in valuevalidation, and in structure', schema: { properties: { foo: { type: 'string' } }, allOf: [{ properties: { foo: { minLength: 2 } } }] } },
  {
    name: 'disallowed property in valuevalidation, and in structure',
    schema: { properties: { foo: { type: 'string' } }, allOf: [{ properties: { notfoo: { minLength: 2 } } }] },
    error: ['properties[notfoo]', 'because it is defined in allOf[0].properties[notfoo]'],
  },
  { name: 'allowed items in valuevalidation, and in structure', schema: { type: 'array', items: { type: 'string' }, allOf: [{ items: { minLength: 2 } }] } },
  {
    name: 'disallowed items in valuevalidation, and not in structure',
    schema: { type: 'object', properties: { foo: { type: 'string' } }, allOf: [{ items: { minLength: 2 } }] },
    error: ['items', 'because it is defined in allOf[0].items'],
  },
];

describe("CRD schema validation: kube's structural schema tests", () => {
  it('ports 46 + 15 + 5 rows', () => {
    assert.equal(METADATA_CASES.length, 6 + 15 + 1 + 24);
    assert.equal(NESTED_CASES.length, 15);
    assert.equal(COMPLETENESS_CASES.length, 5);
  });
  for (const c of [...METADATA_CASES, ...NESTED_CASES]) {
    it(c.name, () => assertMatches(validateStructural(c.schema, ROOT), c.errors));
  }
  for (const c of COMPLETENESS_CASES) {
    it(`completeness: ${c.name}`, () => {
      const got = validateStructural(c.schema, ROOT).filter((e) => e.message.includes('because it is defined in'));
      if (!c.error) return assert.deepEqual(got, []);
      const [path, detail] = c.error;
      assert.ok(
        got.some((e) => e.type === 'FieldValueRequired' && e.field === at(path) && e.message === `Required value: ${detail.replace('defined in ', `defined in ${ROOT}.`)}`),
        JSON.stringify(got),
      );
    });
  }
});

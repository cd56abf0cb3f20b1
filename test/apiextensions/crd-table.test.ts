/**
 * kube's whole-CRD validation tests as one table (apiextensions-apiserver @ the commit named in
 * kube/crd-cases.json, pkg/apis/apiextensions/validation/validation_test.go), each case matched as
 * kube's test matches it: by error type and field path (and kube's `contains` text where it has
 * one), each expected error consuming one actual error, and no actual error left over.
 *
 * kube's cases are CRDs of the internal, v1beta1-shaped type. kube/port-crd-cases.mjs reads the Go
 * source and turns each into the v1 CRD kube's own conversion (v1/conversion.go) makes of it, and
 * maps the expected paths the same way (spec.validation.openAPIV3Schema… → spec.versions[i].schema.
 * openAPIV3Schema… for every version i; top-level subresources, printer columns and selectable
 * fields likewise; conversion webhook errors keep kube's internal paths, which kube reports for v1
 * CRDs too). Regenerate with:
 *   node test/apiextensions/kube/port-crd-cases.mjs <validation_test.go> <commit> > test/apiextensions/kube/crd-cases.json
 *
 * What kube has, and what is here (the EXCLUDED tables give each exclusion's reason):
 * - TestValidateCustomResourceDefinition: 57 cases; 54 ported and pass; 3 excluded, as they only
 *   make sense for the internal shape (spec.version; preserveUnknownFields left nil; top-level
 *   fields beside identical per-version ones).
 * - TestValidateCustomResourceDefinitionUpdate: 43 cases; 42 ported and pass; 1 excluded (top-level
 *   and per-version fields together, internal shape only).
 * - TestSelectableFields: 5 cases; 5 ported and pass.
 * - TestValidateCustomResourceDefinitionStoredVersions: 5 cases; 5 ported and pass.
 * - Test_validateDeprecationWarning: 10 cases; 9 ported and pass; 1 excluded (a Go string with an
 *   invalid UTF-8 byte, which no JSON request can carry).
 * - TestValidateFieldPath: 23 cases; 23 ported and pass (cel.ValidFieldPath).
 * - TestPerCRDEstimatedCost: 8 cases; 8 ported and pass (TotalCost's sum and most expensive; costs
 *   are float64 here, so kube's math.MaxUint64 is 2^64).
 * - Not ported: TestValidateCustomResourceDefinitionValidationRuleCompatibility (3: it extends kube's
 *   CEL environment with a test() function for stored expressions only; kgen has one CEL
 *   environment, no stored-expressions one), TestCostInfo (10) and TestCelContext (1) (they read Go
 *   internals, CELSchemaContext's MaxCardinality and its lazily built type info, which kgen's cost
 *   estimator has no counterpart of).
 * - TestSchemaHasDefaults: 1 case (a fuzz loop); ported as a seeded fuzz loop over JSON schemas
 *   (10000 schemas), passes.
 * TestValidateCustomResourceDefinitionValidation and the structural tests are in
 * schema-rules-table.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validFieldPath } from '../../runtime/apiextensions/field-path.js';
import { totalCost } from '../../runtime/apiextensions/schema-rules.js';
import { schemaHasDefaults } from '../../runtime/apiextensions/update-options.js';
import { deprecationWarningErrors, validateCRD, validateCRDUpdate, validateStoredVersions } from '../../runtime/apiextensions/validation.js';
import type { CRDVersion, CustomResourceDefinition } from '../../runtime/apiextensions/types.js';
import type { FieldError, FieldErrorType } from '../../runtime/validation/index.js';
import kube from './kube/crd-cases.json' with { type: 'json' };

const GO_TYPES: Record<string, FieldErrorType> = {
  invalid: 'FieldValueInvalid',
  required: 'FieldValueRequired',
  forbidden: 'FieldValueForbidden',
  unsupported: 'FieldValueNotSupported',
  duplicate: 'FieldValueDuplicate',
  tooMany: 'FieldValueTooMany',
  immutable: 'FieldValueInvalid',
  invalidtypecode: 'FieldValueTypeInvalid',
};

interface PortedCase {
  name: string;
  internalOnly?: boolean;
  old?: unknown;
  resource: unknown;
  errors: { type: string; path: string; contains?: string }[];
}

/** Cases that only make sense for the internal (v1beta1) shape, with the reason. */
const INTERNAL_ONLY = 'tests spec.version, a field of the internal/v1beta1 shape that a v1 CRD does not have';
const NIL_PRESERVE =
  'tests spec.preserveUnknownFields left nil, which the internal type reads as true; a v1 CRD cannot leave it nil (its bool is false when absent), so the v1 CRD this case converts to is valid';
const PER_VERSION_ONLY =
  'tests top-level fields (validation, subresources, columns) beside per-version ones; a v1 CRD has only the per-version ones (kube\'s v1 conversion copies the top-level ones into every version)';
export const CREATE_EXCLUDED: Record<string, string> = {
  'bad names 01': INTERNAL_ONLY,
  'webhook conversion without preserveUnknownFields=false': NIL_PRESERVE,
  'per-version fields may not all be set to identical values (top-level field should be used instead)': PER_VERSION_ONLY,
};
export const UPDATE_EXCLUDED: Record<string, string> = {
  'top-level and per-version fields are mutually exclusive': PER_VERSION_ONLY,
};

/** Each expected error consumes one actual error; none may be left over. */
function assertMatches(got: FieldError[], expected: PortedCase['errors']): void {
  const seen = new Array<boolean>(got.length).fill(false);
  for (const { type, path, contains } of expected) {
    const t = GO_TYPES[type];
    const i = got.findIndex((e, j) => !seen[j] && e.type === t && e.field === path && (contains === undefined || `${e.field}: ${e.message}`.includes(contains)));
    assert.ok(i >= 0, `expected ${t} at ${path}${contains ? ` containing ${JSON.stringify(contains)}` : ''}, got ${JSON.stringify(got, null, 1)}`);
    seen[i] = true;
  }
  assert.deepEqual(
    got.filter((_, j) => !seen[j]),
    [],
    'no unexpected errors',
  );
}

const CREATE = kube.TestValidateCustomResourceDefinition as PortedCase[];
const UPDATE = kube.TestValidateCustomResourceDefinitionUpdate as PortedCase[];

describe("CRD validation: kube's TestValidateCustomResourceDefinition", () => {
  it('has every case of kube, the excluded ones with a reason', () => {
    assert.equal(CREATE.length, 57);
    for (const c of CREATE.filter((c) => c.internalOnly)) assert.ok(c.name in CREATE_EXCLUDED, c.name);
    for (const name of Object.keys(CREATE_EXCLUDED)) assert.ok(CREATE.some((c) => c.name === name), name);
  });
  for (const c of CREATE.filter((c) => !(c.name in CREATE_EXCLUDED))) {
    it(c.name, () => assertMatches(validateCRD(structuredClone(c.resource) as CustomResourceDefinition), c.errors));
  }
});

describe("CRD validation: kube's TestValidateCustomResourceDefinitionUpdate", () => {
  it('has every case of kube, the excluded ones with a reason', () => {
    assert.equal(UPDATE.length, 43);
    for (const c of UPDATE.filter((c) => c.internalOnly)) assert.ok(c.name in UPDATE_EXCLUDED, c.name);
    for (const name of Object.keys(UPDATE_EXCLUDED)) assert.ok(UPDATE.some((c) => c.name === name), name);
  });
  for (const c of UPDATE.filter((c) => !(c.name in UPDATE_EXCLUDED))) {
    it(c.name, () => assertMatches(validateCRDUpdate(structuredClone(c.resource) as CustomResourceDefinition, structuredClone(c.old) as CustomResourceDefinition), c.errors));
  }
});

const SELECTABLE = kube.TestSelectableFields as PortedCase[];

describe("CRD validation: kube's TestSelectableFields", () => {
  it('has every case of kube', () => assert.equal(SELECTABLE.length, 5));
  for (const c of SELECTABLE) {
    it(c.name, () => assertMatches(validateCRD(structuredClone(c.resource) as CustomResourceDefinition), c.errors));
  }
});

describe("CRD validation: kube's TestValidateCustomResourceDefinitionStoredVersions", () => {
  const cases = kube.TestValidateCustomResourceDefinitionStoredVersions;
  it('has every case of kube', () => assert.equal(cases.length, 5));
  for (const c of cases) {
    it(c.name, () => assertMatches(validateStoredVersions(c.storedVersions, c.versions as CRDVersion[]), c.errors));
  }
});

/** Test_validateDeprecationWarning cases that cannot apply to kgen, with the reason. */
export const DEPRECATION_EXCLUDED: Record<string, string> = {
  'non-utf-8':
    'tests a Go string holding an invalid UTF-8 byte; a CRD reaches kgen as JSON, whose strings are always valid Unicode (kube\'s JSON decoder, too, turns invalid bytes into U+FFFD before validation sees them)',
};

describe("CRD validation: kube's Test_validateDeprecationWarning", () => {
  const cases = kube.Test_validateDeprecationWarning;
  it('has every case of kube, the excluded ones with a reason', () => {
    assert.equal(cases.length, 10);
    for (const name of Object.keys(DEPRECATION_EXCLUDED)) assert.ok(cases.some((c) => c.name === name), name);
  });
  for (const c of cases.filter((c) => !(c.name in DEPRECATION_EXCLUDED))) {
    it(c.name, () => assert.deepEqual(deprecationWarningErrors(c.deprecated, c.warning), c.want));
  }
});

describe("CRD validation: kube's TestValidateFieldPath (cel.ValidFieldPath)", () => {
  const cases = kube.TestValidateFieldPath;
  it('has every case of kube', () => assert.equal(cases.length, 23));
  for (const c of cases) {
    it(c.name, () => {
      const got = validFieldPath(c.fieldPath, c.schema as Record<string, unknown>);
      if (c.errMsg === '') assert.ok(!('error' in got), JSON.stringify(got));
      else assert.ok('error' in got && got.error.includes(c.errMsg), `expected an error containing ${JSON.stringify(c.errMsg)}, got ${JSON.stringify(got)}`);
    });
  }
});

describe("CRD validation: kube's TestPerCRDEstimatedCost (TotalCost.ObserveExpressionCost)", () => {
  const cases = kube.TestPerCRDEstimatedCost;
  it('has every case of kube', () => assert.equal(cases.length, 8));
  for (const c of cases) {
    it(c.name, () => {
      const { total, mostExpensive } = totalCost(c.costs.map((cost) => ({ cost })));
      assert.deepEqual(
        mostExpensive.map((e) => e.cost),
        c.expectedExpensive,
      );
      assert.equal(total, c.expectedTotal);
    });
  }
});

/**
 * TestSchemaHasDefaults, as kube writes it a fuzz loop: 10000 random schemas, each compared with
 * its JSON (a schema has a default exactly when its JSON holds a `"default":` that is not null).
 * kube fuzzes Go structs with a random seed; here a seeded generator builds JSON schemas with every
 * field SchemaHas descends into, so the run is deterministic.
 */
describe("CRD validation: kube's TestSchemaHasDefaults", () => {
  function mulberry32(seed: number): () => number {
    return () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const random = mulberry32(20260611);
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const name = () => `p${Math.floor(random() * 1000)}`;
  function schema(depth: number): Record<string, unknown> {
    const s: Record<string, unknown> = { type: pick(['object', 'array', 'string', 'integer', '']) };
    // A default about one node in 40 (null sometimes: JSON null is no default).
    const d = random();
    if (d < 0.02) s.default = pick([1, 'x', { a: 1 }, [1], false]);
    else if (d < 0.025) s.default = null;
    if (depth <= 0) return s;
    const sub = () => schema(depth - 1);
    const many = () => Array.from({ length: Math.floor(random() * 3) }, sub);
    const map = () => Object.fromEntries(Array.from({ length: Math.floor(random() * 3) }, () => [name(), sub()]));
    if (random() < 0.3) s.items = random() < 0.8 ? sub() : many();
    for (const key of ['allOf', 'anyOf', 'oneOf']) if (random() < 0.15) s[key] = many();
    if (random() < 0.1) s.not = sub();
    if (random() < 0.3) s.properties = map();
    if (random() < 0.15) s.additionalProperties = random() < 0.7 ? sub() : random() < 0.5;
    if (random() < 0.1) s.patternProperties = map();
    if (random() < 0.1) s.additionalItems = random() < 0.7 ? sub() : true;
    if (random() < 0.1) s.definitions = map();
    if (random() < 0.1) s.dependencies = Object.fromEntries([[name(), random() < 0.5 ? sub() : ['a', 'b']]]);
    return s;
  }
  it('agrees with the JSON of 10000 random schemas', () => {
    let withDefaults = 0;
    for (let i = 0; i < 10000; i++) {
      const s = schema(4);
      const expected = JSON.stringify(s).replaceAll('"default":null', '"deleted":null').includes('"default":');
      if (expected) withDefaults++;
      assert.equal(schemaHasDefaults(s), expected, JSON.stringify(s));
    }
    // Both answers occur often enough for the comparison to mean something.
    assert.ok(withDefaults > 1000 && withDefaults < 9000, String(withDefaults));
  });
});

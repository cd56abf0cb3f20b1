/**
 * SchemaFacts (runtime/apiextensions/schema-facts.ts) lets the CRD validation walk a schema once
 * for what several passes ask, and skip work that finds nothing. Its answers must be exactly those
 * of the predicates it replaces, and every shortcut it enables must leave the findings unchanged:
 * checked here on seeded random schemas (many of them broken in the ways the CRD rules catch) and
 * on this repository's generated CRDs, against SchemaFacts with every shortcut turned off.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { SchemaFacts, hasKubernetesExtensions } from '../../runtime/apiextensions/schema-facts.js';
import { validateOpenAPISchema, V1_OPTIONS, type SchemaValidationOptions } from '../../runtime/apiextensions/schema-rules.js';
import { structuralConversionError, validateStructural } from '../../runtime/apiextensions/structural-rules.js';
import { schemaHas, schemaHasDefaults } from '../../runtime/apiextensions/update-options.js';
import { validateCRD } from '../../runtime/apiextensions/validation.js';
import type { CustomResourceDefinition } from '../../runtime/apiextensions/types.js';
import { estimateSchemaCost } from '../../runtime/validation/cel-cost.js';
import { compileRule } from '../../runtime/validation/cel-compile.js';
import type { DeclType } from '../../runtime/validation/cel-decl.js';
import { SchemaCompiler } from '../../runtime/validation/compile.js';

type Props = Record<string, unknown>;

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    let t = (a += 0x6d2b79f5);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = mulberry32(20261127);
const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
const chance = (p: number) => random() < p;
const RULES = ['self == self', 'size(self) < 10', 'self.all(x, x == x)', 'oldSelf == self', '!!bad(', 'has(self.a)', 'self > 0', ''];

/** A random schema node: mostly what CRDs hold, sometimes what they must not. */
function schema(depth: number): Props {
  const s: Props = {};
  if (chance(0.9)) s.type = pick(['object', 'array', 'string', 'integer', 'number', 'boolean', '', 'null', 'bogus']);
  if (chance(0.15)) s.default = pick([1, 'x', { a: 1 }, { unknown: true }, [1], false, null]);
  if (chance(0.05)) s.nullable = true;
  if (chance(0.05)) s.pattern = pick(['^a+$', '(']);
  if (chance(0.05)) s.format = pick(['date-time', 'int32', 'byte']);
  if (chance(0.08)) s['x-kubernetes-validations'] = [{ rule: pick(RULES), ...(chance(0.3) ? { message: 'm' } : {}) }];
  if (chance(0.05)) s['x-kubernetes-preserve-unknown-fields'] = pick([true, false, null]);
  if (chance(0.04)) s['x-kubernetes-embedded-resource'] = true;
  if (chance(0.04)) s['x-kubernetes-int-or-string'] = true;
  if (chance(0.05)) s['x-kubernetes-list-type'] = pick(['atomic', 'set', 'map', 'weird', null]);
  if (chance(0.04)) s['x-kubernetes-list-map-keys'] = pick([['a'], []]);
  if (chance(0.03)) s['x-kubernetes-map-type'] = pick(['atomic', 'granular', 'weird']);
  if (chance(0.02)) s.uniqueItems = true;
  if (chance(0.02)) s[pick(['id', '$schema', '$ref'])] = pick(['x', '', '#/definitions/a']);
  if (depth <= 0) return s;
  const sub = () => schema(depth - 1);
  const many = () => Array.from({ length: Math.floor(random() * 3) }, sub);
  const map = () => Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, () => [pick(['a', 'b', 'metadata', 'kind', 'apiVersion', 'spec']), chance(0.95) ? sub() : pick([null, 'x', []])]));
  if (chance(0.3)) s.items = chance(0.9) ? sub() : many();
  if (chance(0.5)) s.properties = map();
  if (chance(0.1)) s.additionalProperties = chance(0.7) ? sub() : pick([true, false, []]);
  for (const key of ['allOf', 'anyOf', 'oneOf']) if (chance(0.06)) s[key] = many();
  if (chance(0.04)) s.not = sub();
  if (chance(0.03)) s.patternProperties = map();
  if (chance(0.03)) s.additionalItems = chance(0.7) ? sub() : true;
  if (chance(0.03)) s.definitions = map();
  if (chance(0.03)) s.dependencies = { a: chance(0.5) ? sub() : ['b'] };
  return s;
}

/** A root as a CRD version holds it: an object with a spec, sometimes metadata. */
function rootSchema(): Props {
  const root: Props = { type: 'object', properties: { spec: schema(4), ...(chance(0.2) ? { metadata: schema(1) } : {}) } };
  if (chance(0.2)) Object.assign(root, schema(0), { type: 'object' });
  return root;
}

/** Every node SchemaHas visits. */
function nodesOf(s: unknown, out: Props[] = []): Props[] {
  if (typeof s !== 'object' || s === null || Array.isArray(s)) return out;
  const n = s as Props;
  out.push(n);
  if (Array.isArray(n.items)) n.items.forEach((x) => nodesOf(x, out));
  else nodesOf(n.items, out);
  for (const key of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(n[key])) (n[key] as unknown[]).forEach((x) => nodesOf(x, out));
  for (const key of ['not', 'additionalProperties', 'additionalItems']) nodesOf(n[key], out);
  for (const key of ['properties', 'patternProperties', 'definitions', 'dependencies']) {
    const m = n[key];
    if (typeof m === 'object' && m !== null && !Array.isArray(m)) Object.values(m).forEach((x) => nodesOf(x, out));
  }
  return out;
}

/** SchemaFacts with every shortcut off: what the passes did before it existed. */
function withoutShortcuts(s: Props): SchemaFacts {
  const facts = new SchemaFacts(s);
  const everything = { has: () => true, add: () => everything };
  Object.defineProperty(facts, 'unusualBelow', { value: everything });
  Object.defineProperty(facts, 'defaultsBelow', { value: everything });
  facts.compilesAsTree = false;
  facts.conversionError = () => structuralConversionError(s);
  facts.cost = () => estimateSchemaCost(s);
  return facts;
}

const OPTIONS: SchemaValidationOptions[] = [
  V1_OPTIONS,
  { ...V1_OPTIONS, requirePrunedDefaults: false },
  { requireStructuralSchema: false, requireValidPropertyType: false, requireAtomicSetType: false, requireMapListKeysMapSetValidation: false },
];

describe('SchemaFacts', () => {
  it("answers as schemaHas, structuralConversionError and estimateSchemaCost do, on 3000 random schemas", () => {
    const seen = { defaults: 0, extensions: 0, rules: 0, conversion: 0 };
    for (let i = 0; i < 3000; i++) {
      const s = rootSchema();
      const facts = new SchemaFacts(s);
      const text = JSON.stringify(s);
      assert.equal(facts.hasDefaults, schemaHasDefaults(s), text);
      assert.equal(facts.hasKubernetesExtensions, schemaHas(s, hasKubernetesExtensions), text);
      assert.equal(facts.hasRules, schemaHas(s, (n) => Array.isArray(n['x-kubernetes-validations']) && n['x-kubernetes-validations'].length > 0), text);
      assert.equal(facts.conversionError(), structuralConversionError(s), text);
      assert.deepEqual(facts.cost(), estimateSchemaCost(s), text);
      for (const node of nodesOf(s)) assert.equal(facts.defaultsBelow.has(node), schemaHasDefaults(node), JSON.stringify(node));
      if (facts.compilesAsTree) assert.doesNotThrow(() => new SchemaCompiler({ root: s }).compileNamed('root'), text);
      seen.defaults += Number(facts.hasDefaults);
      seen.extensions += Number(facts.hasKubernetesExtensions);
      seen.rules += Number(facts.hasRules);
      seen.conversion += Number(facts.conversionError() !== undefined);
    }
    // Each answer is both true and false often enough for the comparison to mean something.
    for (const [what, n] of Object.entries(seen)) assert.ok(n > 150 && n < 2850, `${what}: ${n}`);
  });

  it('leaves the findings of validateStructural and validateOpenAPISchema unchanged, on 3000 random schemas', () => {
    let withErrors = 0;
    for (let i = 0; i < 3000; i++) {
      const s = rootSchema();
      const text = JSON.stringify(s);
      assert.deepEqual(validateStructural(s, 'root', new SchemaFacts(s).unusualBelow), validateStructural(s, 'root'), text);
      const opts = OPTIONS[i % OPTIONS.length]!;
      const status = i % 5 === 0;
      const found = validateOpenAPISchema(s, 'root', status, opts, new SchemaFacts(s));
      assert.deepEqual(found, validateOpenAPISchema(s, 'root', status, opts, withoutShortcuts(s)), text);
      if (found.length > 0) withErrors++;
      assert.equal(JSON.stringify(s), text, 'validation must not change the schema');
    }
    assert.ok(withErrors > 300 && withErrors < 2700, String(withErrors));
  });

  it('leaves the findings unchanged on valid schemas with defaults (checked in subtrees, without compiling the whole schema)', () => {
    const valid = (depth: number): Props => {
      const kind = pick(['object', 'string', 'integer', 'array']);
      if (kind === 'string') return { type: 'string', ...(chance(0.5) ? { default: pick(['a', 1, 'toolong']) } : {}), ...(chance(0.3) ? { maxLength: 3 } : {}) };
      if (kind === 'integer') return { type: 'integer', ...(chance(0.5) ? { default: pick([1, -1, 'x']) } : {}), minimum: 0 };
      if (kind === 'array' || depth <= 0) return { type: 'array', items: { type: 'string', ...(chance(0.3) ? { default: 'd' } : {}) }, ...(chance(0.3) ? { default: pick([['a'], [1]]) } : {}) };
      const embedded = chance(0.2);
      const props: Props = Object.fromEntries(Array.from({ length: 1 + Math.floor(random() * 3) }, (_, j) => [`f${j}`, valid(depth - 1)]));
      if (embedded) props.metadata = { type: 'object', properties: { name: { type: 'string', ...(chance(0.5) ? { default: pick(['ok', 'not ok']) } : {}) } } };
      return { type: 'object', properties: props, ...(embedded ? { 'x-kubernetes-embedded-resource': true } : {}), ...(chance(0.3) ? { default: pick([{}, { f0: 'x' }, { nope: 1 }]) } : {}) };
    };
    let defaultErrors = 0;
    for (let i = 0; i < 1500; i++) {
      const s: Props = { type: 'object', properties: { spec: valid(3) } };
      const facts = new SchemaFacts(s);
      assert.ok(facts.compilesAsTree && !facts.hasRules);
      const found = validateOpenAPISchema(s, 'root', false, V1_OPTIONS, facts);
      assert.deepEqual(found, validateOpenAPISchema(s, 'root', false, V1_OPTIONS, withoutShortcuts(s)), JSON.stringify(s));
      if (found.some((e) => e.field.endsWith('.default'))) defaultErrors++;
    }
    assert.ok(defaultErrors > 100, String(defaultErrors));
  });

  it("leaves validateCRD's findings on this repository's generated CRDs unchanged", () => {
    const dir = join(import.meta.dirname, '../../generated/crds');
    const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
    assert.ok(files.length > 0);
    for (const file of files) {
      const crd = parseYaml(readFileSync(join(dir, file), 'utf8')) as CustomResourceDefinition;
      crd.status = { storedVersions: [crd.spec.versions.find((v) => v.storage)!.name] } as CustomResourceDefinition['status'];
      assert.deepEqual(validateCRD(crd), [], file);
      for (const v of crd.spec.versions) {
        const s = v.schema!.openAPIV3Schema as Props;
        assert.deepEqual(validateOpenAPISchema(s, 'x', true, V1_OPTIONS, new SchemaFacts(s)), validateOpenAPISchema(s, 'x', true, V1_OPTIONS, withoutShortcuts(s)), file);
      }
    }
  });
});

describe('CEL rules parsed and checked once per text', () => {
  const object = (fields: Record<string, DeclType>): DeclType => ({ kind: 'object', fields: new Map(Object.entries(fields).map(([k, t]) => [k, () => t])) });
  const int: DeclType = { kind: 'scalar', name: 'int' };
  const str: DeclType = { kind: 'scalar', name: 'string' };

  it('still checks a rule against each self type it is compiled for, in any order', () => {
    const rule = { rule: 'self.a == 1' };
    for (let round = 0; round < 2; round++) {
      assert.equal(compileRule(rule, object({ a: int }), { typeCheck: true }).error, undefined);
      assert.match(compileRule(rule, object({ a: str }), { typeCheck: true }).error ?? '', /no matching overload|no such overload/);
      assert.match(compileRule(rule, object({ b: int }), { typeCheck: true }).error ?? '', /undefined field 'a'/);
    }
  });

  it('reports the same syntax error each time a text that does not parse is compiled', () => {
    const first = compileRule({ rule: 'self.a ==' }, object({ a: int }));
    const again = compileRule({ rule: 'self.a ==' }, object({ a: int }));
    assert.ok(first.error);
    assert.deepEqual(again, first);
  });
});

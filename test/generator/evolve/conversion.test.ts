/**
 * Conversions proven by round trips (`kgen test-conversion`, generator/evolve/round-trip.ts): the
 * bundled Widget v1/v1beta1 passes, a planted lossy conversion is caught with the shrunk object
 * printed, and the random objects are valid for the server's own validator (the arbitraries honour
 * enums, formats, bounds, patterns and list types).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import * as fc from 'fast-check';
import { parse } from 'yaml';
import { schemaArbitrary } from '../../../generator/evolve/arbitrary.js';
import { compileSchemaValidator } from '../../../runtime/validation/index.js';
import { REPO, tempDir } from '../helpers.js';

const kgen = (args: string[]) => spawnSync(process.execPath, [join(REPO, 'bin/kgen.js'), ...args], { cwd: REPO, encoding: 'utf8', timeout: 120_000 });

test('the bundled Widget v1/v1beta1 conversions pass both round trips', () => {
  const r = kgen(['test-conversion', 'generated', '--runs', '150']);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^ok {4}Widget\.widgets\.example\.com v1beta1 → v1 → v1beta1 \(150 objects\)$/m);
  assert.match(r.stdout, /^ok {4}Widget\.widgets\.example\.com v1 → v1beta1 → v1 \(150 objects\)$/m);
  assert.match(r.stdout, /^2 round trips proved, 0 failed$/m);
});

test('--runs and --seed must be numbers: no run of zero objects is called proved', () => {
  for (const [flag, value, message] of [['--runs', 'abc', /--runs must be a positive integer, got "abc"/], ['--runs', '0', /--runs must be a positive integer/], ['--seed', 'x', /--seed must be an integer, got "x"/]] as const) {
    const r = kgen(['test-conversion', 'generated', flag, value]);
    assert.equal(r.status, 1, `${flag} ${value}: ${r.stdout}`);
    assert.match(r.stderr, message);
    assert.doesNotMatch(r.stdout, /proved/);
  }
});

test('a planted lossy conversion is caught, with the object shrunk to the field it loses', () => {
  const dir = tempDir('lossy');
  after(() => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, 'generated');
  const gen = kgen(['generate', 'test/fixtures/conversion-lossy/apis', '--out', out, '--no-builtins']);
  assert.equal(gen.status, 0, gen.stderr);
  const r = kgen(['test-conversion', out, '--seed', '7']);
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /^FAIL {2}Widget\.widgets\.example\.com v1beta1 → v1 → v1beta1: \.spec\.size did not come back$/m);
  assert.match(r.stdout, /^ {2}object \(shrunk\): \{"apiVersion":"widgets\.example\.com\/v1beta1","kind":"Widget","metadata":\{"name":"roundtrip","namespace":"default"\},"spec":\{"size":0\}\}$/m);
  assert.match(r.stdout, /^ {2}came back as: {4}\{.*"spec":\{\}\}$/m);
  assert.match(r.stdout, /^0 round trips proved, 2 failed$/m);
});

test('fields only one version has survive both round trips through the conversion-data annotation (fixture conversion-preserve)', () => {
  const dir = tempDir('preserve');
  after(() => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, 'generated');
  const gen = kgen(['generate', 'test/fixtures/conversion-preserve/apis', '--out', out, '--no-builtins']);
  assert.equal(gen.status, 0, gen.stderr);
  const r = kgen(['test-conversion', out, '--runs', '200', '--seed', '7']);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^ok {4}Gadget\.gadgets\.example\.com v1beta1 → v1 → v1beta1 \(200 objects\)$/m);
  assert.match(r.stdout, /^ok {4}Gadget\.gadgets\.example\.com v1 → v1beta1 → v1 \(200 objects\)$/m);
});

test('the proof still catches a user function that forgets to keep what its version cannot hold', () => {
  const dir = tempDir('preserve-forgotten');
  after(() => rmSync(dir, { recursive: true, force: true }));
  const apis = join(dir, 'apis');
  cpSync(join(REPO, 'test/fixtures/conversion-preserve/apis'), apis, { recursive: true });
  const file = join(apis, 'gadgets.example.com/v1beta1/conversion.ts');
  const text = readFileSync(file, 'utf8');
  assert.ok(text.includes("  scope.keep('priority', src.priority);\n"));
  writeFileSync(file, text.replace("  scope.keep('priority', src.priority);\n", ''));
  const out = join(dir, 'generated');
  const gen = kgen(['generate', apis, '--out', out, '--no-builtins']);
  assert.equal(gen.status, 0, gen.stderr);
  const r = kgen(['test-conversion', out, '--seed', '7']);
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /^FAIL {2}Gadget\.gadgets\.example\.com v1 → v1beta1 → v1: \.spec\.priority did not come back$/m);
  assert.match(r.stdout, /^ {2}object \(shrunk\): \{"apiVersion":"gadgets\.example\.com\/v1","kind":"Gadget","metadata":\{"name":"roundtrip","namespace":"default"\},"spec":\{"priority":0\}\}$/m);
  assert.match(r.stdout, /^ok {4}Gadget\.gadgets\.example\.com v1beta1 → v1 → v1beta1/m);
});

test('the random objects are valid for the server\'s schema validator (enums, formats, bounds, patterns, list types)', () => {
  const crd = parse(readFileSync(join(REPO, 'generated/crds/widgets.example.com_widgets.yaml'), 'utf8'));
  const schema = crd.spec.versions.find((v: { name: string }) => v.name === 'v1').schema.openAPIV3Schema;
  // CEL rules are not modelled by the arbitraries (a conversion must round-trip any object the
  // schema describes), so they are left out of this check.
  const withoutRules = JSON.parse(JSON.stringify(schema, (k, v) => (k === 'x-kubernetes-validations' ? undefined : v)));
  const validator = compileSchemaValidator({ W: withoutRules } as never, 'W');
  const { apiVersion: _a, kind: _k, metadata: _m, ...properties } = schema.properties;
  const objects = fc.sample(schemaArbitrary(fc, { ...schema, properties }), { numRuns: 300, seed: 42 });
  let withParts = 0;
  for (const body of objects) {
    const obj = { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'x', namespace: 'default' }, ...(body as object) };
    assert.deepEqual(validator.validate(obj).map((e) => `${e.field}: ${e.message}`), [], JSON.stringify(obj));
    if (((body as { spec?: { parts?: unknown[] } }).spec?.parts?.length ?? 0) > 1) withParts++;
  }
  assert.ok(withParts > 10, 'map lists with several items are drawn');
});

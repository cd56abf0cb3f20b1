/**
 * kube's CEL environment has cel.CrossTypeNumericComparisons(true) (1.28): <, <=, >, >= across
 * int, uint and double type-check and compare by value; == and != across numeric types are still
 * compile errors (cel-go declares them (A, A) -> bool), while dyn values compare equal by value
 * at run time (heterogeneous equality). These tests pin kgen to that.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileSchemaValidator } from '../../runtime/validation/index.js';
import { celRuleErrors } from '../../runtime/validation/cel.js';

type Json = Record<string, unknown>;
const PROPS: Json = { i: { type: 'integer' }, d: { type: 'number' } };

function compileError(rule: string): string {
  const spec = { type: 'object', properties: PROPS, 'x-kubernetes-validations': [{ rule }] };
  return celRuleErrors({ type: 'object', properties: { spec } } as never, 'S').map((e) => e.message.replace(/^Invalid value: "(?:[^"\\]|\\.)*": /, '')).join('\n');
}

/** Whether `rule` holds for spec (evaluated as a stored CRD's rule is). */
function holds(rule: string, spec: Json): boolean {
  const v = compileSchemaValidator({ R: { type: 'object', properties: { spec: { type: 'object', properties: PROPS, 'x-kubernetes-validations': [{ rule, message: 'no' }] } } } } as never, 'R');
  const errs = v.validate({ apiVersion: 'x/v1', kind: 'R', metadata: { name: 'a' }, spec });
  if (errs.length > 0 && !errs.every((e) => e.message.endsWith(': no'))) throw new Error(errs.map((e) => e.message).join('; '));
  return errs.length === 0;
}

describe('CrossTypeNumericComparisons', () => {
  test('ordering across int, uint and double compiles and compares by value', () => {
    for (const rule of ['1 < 1.5', 'self.i > 0.5', '1u < 2', '-1 < 1u', '2.5 > 2u', 'self.d < self.i', 'self.i >= 3.0', 'dyn(1) < 1.5']) {
      assert.equal(compileError(rule), '', rule);
      assert.equal(holds(rule, { i: 3, d: 0.5 }), true, rule);
    }
    for (const rule of ['1u < -1.5', 'self.i > 3.5', 'self.d >= self.i']) assert.equal(holds(rule, { i: 3, d: 0.5 }), false, rule);
  });

  test('== and != across numeric types are compile errors; dyn values are equal by value', () => {
    assert.match(compileError('1 == 1.0'), /^compilation failed: ERROR: <input>:1:\d+: no such overload: int == double/);
    assert.match(compileError('self.i != self.d'), /no such overload: int != double/);
    assert.match(compileError('1u == 1'), /no such overload: uint == int/);
    for (const rule of ['dyn(1) == 1.0', 'dyn(1u) == 1', 'dyn(1) in [1.0, 2.0]', "{1: 'a'}[dyn(1.0)] == 'a'"]) {
      assert.equal(compileError(rule), '', rule);
      assert.equal(holds(rule, { i: 3, d: 0.5 }), true, rule);
    }
  });
});

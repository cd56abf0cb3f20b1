/**
 * The runtime price of a rule (cel-cost.ts callCost): every rule of the table on every value of
 * it, with no old value, another one and the same one. golden.json holds the figures callCost
 * gave at 163ad29, before its fast paths (a rule priced once when its cost cannot depend on the
 * value; the estimator's allocations cut): what is refused and what is charged to the budget must
 * not move. Regenerate only for a deliberate change of the model (test/fixtures/cel-call-cost/generate.ts).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parseRule } from '../../runtime/validation/cel-env.js';
import { callCost, estimateCallCost, hasConstantCost } from '../../runtime/validation/cel-cost.js';
import { RULES, VALUES } from '../fixtures/cel-call-cost/table.js';

const golden = JSON.parse(readFileSync(new URL('../fixtures/cel-call-cost/golden.json', import.meta.url), 'utf8')) as Record<string, number[]>;

function figures(price: (ast: ReturnType<typeof parseRule>['ast'], self: unknown, old: unknown) => number, rule: string): number[] {
  const ast = parseRule(rule).ast;
  const row: number[] = [];
  VALUES.forEach((v, i) => {
    for (const old of [undefined, VALUES[(i + 1) % VALUES.length], v]) row.push(price(ast, v, old));
  });
  return row;
}

test('the table covers every rule of golden.json', () => {
  assert.deepEqual(Object.keys(golden), RULES);
});

test('callCost gives the golden figures for every rule and value (twice: a figure kept from the first call is the same)', () => {
  for (const rule of RULES) {
    assert.deepEqual(figures(callCost, rule), golden[rule], rule);
    assert.deepEqual(figures(callCost, rule), golden[rule], rule);
  }
});

test('the estimator without the kept figures gives the golden figures too', () => {
  for (const rule of RULES) assert.deepEqual(figures(estimateCallCost, rule), golden[rule], rule);
});

test('a rule is priced once when its cost cannot depend on the value, and its golden figures are then all one', () => {
  const constant = RULES.filter((rule) => hasConstantCost(parseRule(rule).ast));
  for (const rule of constant) assert.equal(new Set(golden[rule]).size, 1, rule);
  // Typical rules of kube's documentation are among them; walks, string comparisons of two fields, '+'
  // and a string test priced by its receiver (startsWith, as kube's runtime cost does) are not.
  for (const rule of ['self >= 0', 'self.n > 0 && self.n < 65536', 'has(self.a.b)', 'size(self) <= 10', "self.s == 'abcdefghij'", 'self.n in [1, 2]', "int('5') == 5", 'self.?a.orValue(0) == 0']) {
    assert.ok(constant.includes(rule), rule);
  }
  for (const rule of ["self.s == 'abcdefghijk'", 'self.s.startsWith(self.t)', "self.startsWith('v')", 'self == oldSelf', 'self.xs.all(x, x > 0)', "self.s + 'x' == 'y'", "'a' in self", 'self.s in self.ss', "quantity(self.s).isLessThan(quantity('1Gi')) || true"]) {
    assert.ok(!constant.includes(rule), rule);
  }
});

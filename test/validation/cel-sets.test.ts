/**
 * cel-go's ext.Sets in kube's CEL environment (since 1.29): the examples of ext/sets.go's doc
 * comment (the spec) and its cost (size × size, twice for equivalent, plus the call).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { celEnvironment } from '../../runtime/validation/cel-env.js';
import { estimateSchemaCost } from '../../runtime/validation/cel-cost.js';

const run = (expr: string): unknown => {
  const parsed = celEnvironment().parse(expr);
  const checked = parsed.check();
  if (!checked.valid) throw new Error(`compile: ${checked.error?.message}`);
  return parsed({});
};

describe('sets library: cel-go ext/sets.go examples', () => {
  const cases: [string, boolean][] = [
    ['sets.contains([], [])', true],
    ['sets.contains([], [1])', false],
    ['sets.contains([1, 2, 3, 4], [2, 3])', true],
    ['sets.contains([1, 2.0, 3u], [1.0, 2u, 3])', true],
    ['sets.contains(["a", "b"], ["c"])', false],
    ['sets.equivalent([], [])', true],
    ['sets.equivalent([1], [1, 1])', true],
    ['sets.equivalent([1], [1u, 1.0])', true],
    ['sets.equivalent([1, 2, 3], [3u, 2.0, 1])', true],
    ['sets.equivalent([1, 2], [1])', false],
    ['sets.intersects([1], [])', false],
    ['sets.intersects([1], [1, 2])', true],
    ['sets.intersects([[1], [2, 3]], [[1, 2], [2, 3.0]])', true],
    ['sets.intersects([1, 2], [3])', false],
    ["['x'].all(sets, sets == 'x')", true],
  ];
  for (const [expr, want] of cases) test(expr, () => assert.equal(run(expr), want));

  test('arguments that are not lists do not compile', () => {
    assert.equal(celEnvironment().parse('sets.contains(1, [1])').check().valid, false);
  });

  test('cost: the sizes multiplied, twice for equivalent, plus 1', () => {
    const cost = (rule: string) =>
      estimateSchemaCost({ type: 'object', properties: { l: { type: 'array', maxItems: 10, items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule }] } } }).rules[0]!
        .expressionCost;
    // self (1) + the literal list [1, 2, 3] (10, its creation) + 10 × 3 + 1.
    assert.equal(cost('sets.contains(self, [1, 2, 3])'), 1 + 10 + 30 + 1);
    assert.equal(cost('sets.intersects(self, [1, 2, 3])'), 1 + 10 + 30 + 1);
    assert.equal(cost('sets.equivalent(self, [1, 2, 3])'), 1 + 10 + 60 + 1);
  });
});

/**
 * CEL cost (runtime/validation/cel-cost.ts): kube's static estimate, checked against the figures
 * the Kubernetes documentation gives for its examples, and the runtime limits the server enforces
 * per call (PerCallLimit, 1,000,000) and per object (RuntimeCELCostBudget, 10,000,000).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileSchemaValidator } from '../../runtime/validation/index.js';
import { costErrorMessage, estimateCallCost, estimateSchemaCost, STATIC_ESTIMATED_COST_LIMIT } from '../../runtime/validation/cel-cost.js';
import { parseRule } from '../../runtime/validation/cel-env.js';

const spec = (properties: Record<string, unknown>) => ({ type: 'object', properties: { spec: { type: 'object', properties } } });

describe('static estimate', () => {
  test('an unbounded list of unbounded strings walked with contains() is far over the limit; bounded, it is cheap', () => {
    const rule = "self.all(x, x.contains('a string'))";
    const unbounded = estimateSchemaCost(spec({ foo: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule }] } }));
    assert.ok(unbounded.rules[0]!.expressionCost > 100 * STATIC_ESTIMATED_COST_LIMIT);
    assert.deepEqual(unbounded.rules[0]!.unbounded, ['.spec.foo', '.spec.foo[*]']);
    assert.equal(unbounded.rules[0]!.schemaPath, 'properties[spec].properties[foo].x-kubernetes-validations[0].rule');
    const bounded = estimateSchemaCost(spec({ foo: { type: 'array', maxItems: 25, items: { type: 'string', maxLength: 10 }, 'x-kubernetes-validations': [{ rule }] } }));
    assert.ok(bounded.rules[0]!.expressionCost < 1000, String(bounded.rules[0]!.expressionCost));
  });

  test('a rule on list items runs once per item: its cost is multiplied by the cardinality', () => {
    const bounded = estimateSchemaCost(spec({ foo: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 100, 'x-kubernetes-validations': [{ rule: "self.startsWith('a')" }] } } }));
    assert.equal(bounded.rules[0]!.cardinality, 10);
    const unbounded = estimateSchemaCost(spec({ foo: { type: 'array', items: { type: 'string', 'x-kubernetes-validations': [{ rule: "self.startsWith('a')" }] } } }));
    // MaxRequestSizeBytes / (minimum serialized string size 2 + a comma).
    assert.equal(unbounded.rules[0]!.cardinality, Math.floor((3 * 1024 * 1024) / 3));
  });

  test('join() is priced by the text it builds (items × their size + separators), as kube\'s library/cost.go does', () => {
    const rule = "self.map(x, self.join(',')).size() > 0";
    const est = estimateSchemaCost(spec({ foo: { type: 'array', maxItems: 3000, items: { type: 'string', maxLength: 250 }, 'x-kubernetes-validations': [{ rule }] } }));
    // Per item: the join of 3000 × 1000 bytes and 2999 commas, ×0.1 → 300,300; far over the limit.
    assert.ok(est.rules[0]!.expressionCost > 3000 * 300_300, String(est.rules[0]!.expressionCost));
    assert.deepEqual(est.rules[0]!.unbounded, []);
    const one = estimateSchemaCost(spec({ foo: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 5 }, 'x-kubernetes-validations': [{ rule: "self.join(', ').size() < 30" }] } }));
    // self 1, join ceil((10 × 20 + 2 × 9) × 0.1) = 22, size 1, < 1.
    assert.equal(one.rules[0]!.maxCost, 25);
  });

  test('kube\'s wording of the factor', () => {
    assert.match(costErrorMessage('estimated rule cost', 3e9, 1e7), /exceeds budget by factor of more than 100x \(try simplifying the rule/);
    assert.match(costErrorMessage('estimated rule cost', 2.5e7, 1e7), /factor of 2\.5x/);
    assert.match(costErrorMessage('estimated rule cost', 1.2e7, 1e7), /factor of 1\.200000x/);
  });
});

describe('runtime cost limits', () => {
  const validator = (fields: number) =>
    compileSchemaValidator(
      {
        R: {
          type: 'object',
          properties: Object.fromEntries(
            Array.from({ length: fields }, (_, i) => [`xs${i}`, { type: 'array', items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self.all(x, self.all(y, x == y))' }] }]),
          ),
        },
      } as never,
      'R',
    );

  test('a call over PerCallLimit is refused and no further rule runs', () => {
    const v = validator(2);
    assert.deepEqual(v.validate({ xs0: Array(10).fill(1), xs1: [1, 2] }).map((e) => `${e.field}: ${e.message}`), ['xs1: Invalid value: "array": failed rule: self.all(x, self.all(y, x == y))']);
    assert.deepEqual(
      v.validate({ xs0: Array(1000).fill(1), xs1: [1, 2] }).map((e) => `${e.field}: ${e.message}`),
      ['xs0: Invalid value: "array": \'operation cancelled: actual cost limit exceeded\': no further validation rules will be run due to call cost exceeds limit for rule: self.all(x, self.all(y, x == y))'],
    );
  });

  test('calls within the limit that together use up RuntimeCELCostBudget stop the validation', () => {
    const v = validator(25);
    const obj = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`xs${i}`, Array(300).fill(1)]));
    const errs = v.validate(obj).map((e) => e.message);
    assert.deepEqual(errs, ['Invalid value: "array": validation failed due to running out of cost budget, no further validation rules will be run']);
  });

  test('a join() that builds a long text in a loop is cut at PerCallLimit (kube prices the result, ×0.2)', () => {
    const v = compileSchemaValidator({ R: { type: 'object', properties: { xs: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: "self.map(x, self.join(',')).size() > 0" }] } } } } as never, 'R');
    assert.deepEqual(v.validate({ xs: Array(10).fill('a'.repeat(1000)) }), []);
    // 100 joins of 100,099 characters: 100 × 20,020 > 1,000,000.
    assert.deepEqual(
      v.validate({ xs: Array(100).fill('a'.repeat(1000)) }).map((e) => e.message),
      ['Invalid value: "array": \'operation cancelled: actual cost limit exceeded\': no further validation rules will be run due to call cost exceeds limit for rule: self.map(x, self.join(\',\')).size() > 0'],
    );
  });

  test('format() is charged for the text it prints on a concrete value: formatting the whole list per item is cut at PerCallLimit', () => {
    const rules = [{ rule: "self.map(x, '%s'.format([self])).size() > 0" }, { rule: "'%s/%s'.format([self[0], self[1]]) == self[0] + '/' + self[1]" }];
    const v = compileSchemaValidator({ R: { type: 'object', properties: { xs: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': rules } } } } as never, 'R');
    assert.deepEqual(v.validate({ xs: Array.from({ length: 20 }, (_, i) => String(i).padEnd(150, 'x')) }), []);
    // 800 items of 150 characters: 800 texts of ~123,000 characters (3.7 s and +131 MB on 702dd17).
    assert.deepEqual(
      v.validate({ xs: Array.from({ length: 800 }, (_, i) => String(i).padEnd(150, 'x')) }).map((e) => e.message),
      [`Invalid value: "array": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${rules[0]!.rule}`],
    );
  });

  // kube's evalMessageExpression prices a messageExpression as it prices its rule: a message that
  // walks a long list twice over is cut at PerCallLimit, and messages share the object's budget.
  const withMessage = (fields: number) =>
    compileSchemaValidator(
      {
        R: {
          type: 'object',
          properties: Object.fromEntries(
            Array.from({ length: fields }, (_, i) => [
              `xs${i}`,
              { type: 'array', items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self.size() < 5', messageExpression: "self.all(x, self.all(y, x == y)) ? 'all equal' : 'not all equal'" }] },
            ]),
          ),
        },
      } as never,
      'R',
    );

  test('a messageExpression over PerCallLimit is refused in place of the rule\'s error, and no further rule runs', () => {
    const v = withMessage(2);
    assert.deepEqual(v.validate({ xs0: Array(10).fill(1), xs1: [1, 2] }).map((e) => `${e.field}: ${e.message}`), ['xs0: Invalid value: "array": all equal']);
    assert.deepEqual(
      v.validate({ xs0: Array(1000).fill(1), xs1: Array(10).fill(2) }).map((e) => `${e.field}: ${e.message}`),
      ['xs0: Invalid value: "array": no further validation rules will be run due to call cost exceeds limit for messageExpression: "self.all(x, self.all(y, x == y)) ? \'all equal\' : \'not all equal\'"'],
    );
  });

  // kube evaluates the messageExpression of a ratcheted error too (schema/cel/validation.go: the
  // error becomes a warning, the message is still priced): over PerCallLimit, the validation stops
  // with no error, so a later rule is not run; within it, the later rules run as before.
  test('a ratcheted error\'s messageExpression is priced: over PerCallLimit it stops the validation (kube\'s warning, no error)', () => {
    const v = withMessage(2);
    const long = Array(1000).fill(1);
    assert.deepEqual(v.validate({ xs0: long, xs1: Array(10).fill(2) }, { xs0: long, xs1: [] }), []);
    const short = Array(10).fill(1);
    assert.deepEqual(
      v.validate({ xs0: short, xs1: Array(10).fill(2) }, { xs0: short, xs1: [] }).map((e) => `${e.field}: ${e.message}`),
      ['xs1: Invalid value: "array": all equal'],
    );
  });

  test('ratcheted errors\' messageExpressions use up RuntimeCELCostBudget too', () => {
    const v = withMessage(26);
    const items = Array.from({ length: 25 }, (_, i) => [`xs${i}`, Array(300).fill(1)] as const);
    const old = Object.fromEntries(items);
    // 25 unchanged (ratcheted) failing values whose messages cost ~460,000 each, then a changed one.
    assert.deepEqual(v.validate({ ...old, xs25: [1, 2, 3, 4, 5, 6] }, { ...old, xs25: [] }), []);
    assert.equal(v.validate({ xs25: [1, 2, 3, 4, 5, 6] }, { xs25: [] }).length, 1);
  });

  test('messageExpressions within the limit that together use up RuntimeCELCostBudget stop the validation', () => {
    const v = withMessage(25);
    const obj = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`xs${i}`, Array(300).fill(1)]));
    assert.deepEqual(v.validate(obj).map((e) => e.message).slice(-1), ['Invalid value: "array": messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run']);
    assert.ok(v.validate(obj).length < 25);
  });
});

/**
 * kube's runtime price of one call on a concrete value: cel-go's interpreter/runtimecost.go
 * (matches, startsWith, endsWith) and kube's library/cost.go CallCost (replace, split, find,
 * findAll, a format's validate), each plus 1 for reading `self`. kgen must not charge less (a rule
 * could spend more than kube allows) and, for these size-dependent calls, not more.
 */
describe('runtime cost per call, against kube\'s CallCost', () => {
  const cost = (rule: string, self: unknown) => estimateCallCost(parseRule(rule).ast, self, undefined);
  const s1000 = 'x'.repeat(1000);
  test('replace and split: twice a traversal of the receiver (ceil(1000 × 2 × 0.1) = 200)', () => {
    assert.equal(cost("self.replace('a', 'b')", s1000), 201);
    assert.equal(cost("self.split(',')", s1000), 201);
    assert.equal(cost("self.split(',')", ''), 2);
  });
  test('startsWith and endsWith: a traversal of the receiver, not of the prefix (ceil(1000 × 0.1) = 100)', () => {
    assert.equal(cost("self.startsWith('v')", s1000), 101);
    assert.equal(cost("self.endsWith('v')", s1000), 101);
  });
  test('matches, find and findAll: (length + 1) × 0.1 per regex step (ceil(1.1) × ceil(8 × 0.25) = 4)', () => {
    assert.equal(cost("self.matches('^[a-z]+$')", 'abcdefghij'), 5);
    assert.equal(cost("self.find('^[a-z]+$')", 'abcdefghij'), 5);
    assert.equal(cost("self.findAll('^[a-z]+$')", 'abcdefghij'), 5);
  });
  test('bytes(): a traversal of the string (cel-go\'s StringToBytes, ceil(1000 × 0.1) = 100), statically and at run time', () => {
    assert.equal(cost('bytes(self).size() > 0', s1000), 103);
    // maxLength 1000 is up to 4000 bytes in kube's estimate: 400, + self, size() and '>'.
    const est = estimateSchemaCost(spec({ s: { type: 'string', maxLength: 1000, 'x-kubernetes-validations': [{ rule: 'bytes(self).size() > 0' }] } }));
    assert.equal(est.total, 403);
  });
  test('list and map equality: the smaller size × 0.1 (cel-go\'s Equals), statically and at run time', () => {
    const list = Array(1000).fill(1);
    assert.equal(estimateCallCost(parseRule('self == oldSelf').ast, list, list), 102);
    assert.equal(estimateCallCost(parseRule('self == oldSelf').ast, { a: list }, { a: list.slice(0, 10) }), 3);
    // maxItems 100: self, oldSelf and ceil(100 × 0.1).
    const est = estimateSchemaCost(spec({ xs: { type: 'array', maxItems: 100, items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } }));
    assert.equal(est.total, 12);
  });
  test('statically too: replace and split are ×0.2 and matches (length + 1) × 0.1 (kube\'s EstimateCallCost, cel-go\'s checker)', () => {
    // maxLength 100 is 400 bytes in kube's estimate: replace/split 80, matches ceil(40.1) × 2 = 82; + self, size() and '>'.
    const total = (rule: string) => estimateSchemaCost(spec({ s: { type: 'string', maxLength: 100, 'x-kubernetes-validations': [{ rule }] } })).total;
    assert.equal(total("self.replace('a', 'b').size() > 0"), 83);
    assert.equal(total("self.split(',').size() > 0"), 83);
    assert.equal(total("self.matches('^[a-z]+$')"), 83);
  });
  test('strings.quote(): a traversal of the string (cel-go\'s ExtQuoteString, ceil(1000 × 0.1) = 100)', () => {
    assert.equal(cost('strings.quote(self).size() > 0', s1000), 103);
  });
  test('a format\'s validate(): (length + 1) × 0.1 times a 128-character regex (ceil(1.1) × 32 = 64)', () => {
    // format.dns1123Label(): 1 (kube's format.named family is nominal); validate: 64; self: 1.
    assert.equal(cost('format.dns1123Label().validate(self)', 'abcdefghij'), 66);
  });
});

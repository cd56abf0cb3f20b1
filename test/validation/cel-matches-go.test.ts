/**
 * `s.matches(p)` in x-kubernetes-validations rules is Go's RE2, as in kube (cel-go's matches is
 * Go's regexp): Go-only syntax such as `(?i)`, `\z`, `[[:alpha:]]` and `\pL` works, where
 * cel-js's own matches() (a JavaScript RegExp) refused it at evaluation, so every object of a CRD
 * kube accepts was refused. The rule's cost and its error texts keep the name `matches`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileSchemaValidator } from '../../runtime/validation/index.js';
import { estimateSchemaCost } from '../../runtime/validation/cel-cost.js';
import { celEnvironmentWithVariables, evaluationProgram } from '../../runtime/validation/cel-env.js';

const rules = [
  { rule: "self.matches('^(?i)abc$')", message: 'case-insensitive' },
  { rule: "self.matches('^[[:alpha:]]+\\\\z')", message: 'posix class' },
  { rule: "self.matches('^\\\\pL+$') && matches(self, '^\\\\pL+$')", message: 'unicode class' },
];

describe("matches() is Go's regexp in CRD rules", () => {
  const v = compileSchemaValidator({ R: { type: 'object', properties: { s: { type: 'string', maxLength: 50, 'x-kubernetes-validations': rules } } } } as never, 'R');
  const errs = (s: string) => v.validate({ s }).map((e) => `${e.field}: ${e.message}`);

  test('Go-only syntax is evaluated as Go does', () => {
    assert.deepEqual(errs('ABC'), []);
    assert.deepEqual(errs('abc'), []);
    assert.deepEqual(errs('Abd'), ['s: Invalid value: "string": case-insensitive']);
    assert.deepEqual(errs('abc1'), ['s: Invalid value: "string": case-insensitive', 's: Invalid value: "string": posix class', 's: Invalid value: "string": unicode class']);
  });

  test('a pattern that is not Go syntax is a rule evaluation error, and a rule without matches is evaluated unchanged', () => {
    const w = compileSchemaValidator(
      { R: { type: 'object', properties: { p: { type: 'string', maxLength: 10 }, s: { type: 'string', maxLength: 10 } }, 'x-kubernetes-validations': [{ rule: 'self.s.matches(self.p)' }, { rule: "self.s != 'x'" }] } } as never,
      'R',
    );
    const out = w.validate({ p: '(', s: 'x' }).map((e) => e.message);
    assert.equal(out.length, 2, JSON.stringify(out));
    assert.match(out[0]!, /error parsing regexp|missing closing \)|regexp/i);
    assert.match(out[0]!, /evaluating rule: self\.s\.matches\(self\.p\)$/);
    assert.equal(out[1], 'Invalid value: "object": failed rule: self.s != \'x\'');
  });

  test("the cost is matches()' cost, whatever the program evaluated is", () => {
    const cost = (rule: string) => estimateSchemaCost({ type: 'object', properties: { s: { type: 'string', maxLength: 100, 'x-kubernetes-validations': [{ rule }] } } }).rules[0]!.expressionCost;
    assert.ok(cost("self.matches('^(?i)abc$')") > 1);
  });
});

describe("matches() is Go's regexp in authentication's CEL", () => {
  test('a claim expression with (?i) evaluates as in kube', () => {
    const env = celEnvironmentWithVariables(['claims']);
    const text = "claims.email.matches('^(?i)[a-z]+@example\\\\.com$')";
    const parsed = env.parse(text);
    assert.equal(parsed.check().valid, true);
    const program = evaluationProgram(text, parsed, env);
    assert.equal(program({ claims: { email: 'Ann@Example.com' } }), true);
    assert.equal(program({ claims: { email: 'ann@example.org' } }), false);
  });
});

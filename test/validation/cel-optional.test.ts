/**
 * CEL optional types in kube's environment (cel.OptionalTypes(), since 1.28): `.?field`, `[?key]`,
 * optional.of/none, hasValue/value/orValue/or, in CRD rules over present and absent fields.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileSchemaValidator } from '../../runtime/validation/index.js';
import { celEnvironment } from '../../runtime/validation/cel-env.js';

const run = (expr: string): unknown => {
  const parsed = celEnvironment().parse(expr);
  const checked = parsed.check();
  if (!checked.valid) throw new Error(`compile: ${checked.error?.message}`);
  return parsed({});
};

describe('optional types', () => {
  const cases: [string, unknown][] = [
    ['optional.of(1).hasValue()', true],
    ['optional.none().hasValue()', false],
    ['optional.of(2).value()', 2n],
    ['optional.none().orValue(3)', 3n],
    ['optional.none().or(optional.of(4)).value()', 4n],
    ["{'a': 1}[?'a'].orValue(0)", 1n],
    ["{'a': 1}[?'b'].orValue(0)", 0n],
    ["{'a': {'b': 2}}.?a.?b.orValue(0)", 2n],
    ["{'a': {'b': 2}}.?a.?c.orValue(0)", 0n],
  ];
  for (const [expr, want] of cases) test(expr, () => assert.deepEqual(run(expr), want));

  test('optional.none().value() is an evaluation error', () => {
    assert.throws(() => run('optional.none().value()'));
  });

  test('in CRD rules: a field that may be absent, with a default', () => {
    const v = compileSchemaValidator(
      {
        R: {
          type: 'object',
          'x-kubernetes-validations': [
            { rule: "self.?mode.orValue('auto') in ['auto', 'manual']", message: 'mode must be auto or manual' },
            { rule: "self.?labels[?'tier'].orValue('gold') != 'none'", message: 'no tier none' },
          ],
          properties: { mode: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } } },
        },
      } as never,
      'R',
    );
    const errs = (o: Record<string, unknown>) => v.validate(o).map((e) => `${e.field}: ${e.message}`);
    assert.deepEqual(errs({}), []);
    assert.deepEqual(errs({ mode: 'manual', labels: { tier: 'silver' } }), []);
    assert.deepEqual(errs({ mode: 'other' }), ['<nil>: Invalid value: "object": mode must be auto or manual']);
    assert.deepEqual(errs({ labels: { tier: 'none' } }), ['<nil>: Invalid value: "object": no tier none']);
  });
});

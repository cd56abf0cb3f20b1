/**
 * kube's CEL Format library (runtime/validation/cel-format.ts): the examples of
 * k8s.io/apiserver/pkg/cel/library/format.go's doc comment (the spec), kube's messages in the
 * optional list validate() returns, a messageExpression built from them, and the cost.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileSchemaValidator } from '../../runtime/validation/index.js';
import { celEnvironment } from '../../runtime/validation/cel-env.js';
import { estimateSchemaCost } from '../../runtime/validation/cel-cost.js';

const run = (expr: string): unknown => {
  const parsed = celEnvironment().parse(expr);
  const checked = parsed.check();
  if (!checked.valid) throw new Error(`compile: ${checked.error?.message}`);
  return parsed({});
};
const valid = (expr: string) => run(`!${expr}.hasValue()`);

describe('format library: format.go doc examples (each valid)', () => {
  for (const expr of [
    'format.dns1123Label().validate("my-label-name")',
    'format.dns1123Subdomain().validate("apiextensions.k8s.io")',
    'format.dns1035Label().validate("my-label-name")',
    'format.qualifiedName().validate("apiextensions.k8s.io/v1beta1")',
    'format.dns1123LabelPrefix().validate("my-label-prefix-")',
    'format.dns1123SubdomainPrefix().validate("mysubdomain.prefix.-")',
    'format.dns1035LabelPrefix().validate("my-label-prefix-")',
    'format.labelValue().validate("my_value")',
    'format.uri().validate("http://example.com")',
    'format.uuid().validate("123e4567-e89b-12d3-a456-426614174000")',
    'format.byte().validate("aGVsbG8=")',
    'format.date().validate("2021-01-01")',
    'format.datetime().validate("2021-01-01T00:00:00Z")',
    'format.named("dns1123Subdomain").value().validate("a.b")',
  ]) {
    test(expr, () => assert.equal(valid(expr), true));
  }
});

describe('format library: invalid values give kube\'s messages', () => {
  const cases: [string, string[]][] = [
    [
      'format.dns1123Label().validate("My_Label")',
      ["a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"],
    ],
    [
      'format.dns1035Label().validate("1abc")',
      ["a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"],
    ],
    ['format.dns1123Label().validate("my-label-")', ["a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]],
    ['format.uri().validate("../relative")', ['parse "../relative": invalid URI for request']],
    ['format.uuid().validate("nope")', ['does not match the UUID format']],
    ['format.byte().validate("!!")', ['invalid base64']],
    ['format.date().validate("2021-02-30")', ['invalid date']],
    ['format.datetime().validate("2021-01-01")', ['invalid datetime']],
  ];
  for (const [expr, want] of cases) test(expr, () => assert.deepEqual(run(`${expr}.value()`), want));

  test('format.named of an unknown name is optional.none(); formats compare by name', () => {
    assert.equal(run('format.named("nope").hasValue()'), false);
    assert.equal(run('format.named("dns1123Label").value() == format.dns1123Label()'), true);
    assert.equal(run('format.dns1123Label() == format.dns1035Label()'), false);
  });
});

describe('format library in CRD rules', () => {
  test('rule and messageExpression over validate()', () => {
    const v = compileSchemaValidator(
      {
        R: {
          type: 'object',
          properties: {
            host: {
              type: 'string',
              maxLength: 253,
              'x-kubernetes-validations': [{ rule: '!format.dns1123Subdomain().validate(self).hasValue()', messageExpression: 'format.dns1123Subdomain().validate(self).value().join("; ")' }],
            },
          },
        },
      } as never,
      'R',
    );
    const errs = (o: Record<string, unknown>) => v.validate(o).map((e) => `${e.field}: ${e.message}`);
    assert.deepEqual(errs({ host: 'api.example.com' }), []);
    assert.deepEqual(errs({ host: 'Not_A_Host' }), [
      "host: Invalid value: \"string\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
  });

  test("cost: validate() is a regex match against a 128-character regex (kube's library/cost.go); format.<name>() costs 1", () => {
    const cost = (rule: string) =>
      estimateSchemaCost({ type: 'object', properties: { s: { type: 'string', maxLength: 100, 'x-kubernetes-validations': [{ rule }] } } }).rules[0]!.expressionCost;
    // format.dns1123Label() (1) + self (1) + ceil(400 × 0.1) × ceil(128 × 0.25) = 40 × 32, + hasValue() (1), + ! (1).
    assert.equal(cost('!format.dns1123Label().validate(self).hasValue()'), 1 + 1 + 40 * 32 + 1 + 1);
  });
});

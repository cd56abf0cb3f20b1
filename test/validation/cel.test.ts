/**
 * x-kubernetes-validations through the schema validator (the engine compiled kinds and runtime
 * CRDs share): kube's field paths and messages, transition rules, correlation, ratcheting,
 * messageExpression/reason/fieldPath, evaluation errors, value conversion, and the CRD-time
 * compile checks (celRuleErrors).
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import type * as CelJs from '@marcbachmann/cel-js';
import { compileSchemaValidator } from '../../runtime/validation/index.js';
import { celRuleErrors, compileRule } from '../../runtime/validation/cel.js';
import { v8RunsOf } from '../support/v8-regexp-runs.js';

type Json = Record<string, unknown>;
const rules = (...r: Json[]) => ({ 'x-kubernetes-validations': r });

/** A validator over one root schema named R (plus extra components). */
function validator(root: Json, components: Record<string, Json> = {}) {
  return compileSchemaValidator({ ...components, R: root } as never, 'R');
}
const obj = (fields: Json, name = 'w1'): Json => ({ apiVersion: 'x.example.com/v1', kind: 'W', metadata: { name, namespace: 'default' }, ...fields });
const errs = (v: ReturnType<typeof validator>, o: Json, old?: Json) => v.validate(o, old).map((e) => `${e.type} ${e.field}: ${e.message}`);

const SPEC = {
  type: 'object',
  ...rules({ rule: 'self.minReplicas <= self.maxReplicas', message: 'minReplicas must not exceed maxReplicas' }),
  properties: { minReplicas: { type: 'integer' }, maxReplicas: { type: 'integer' }, name: { type: 'string' } },
};

describe('CEL rules: errors in kube format', () => {
  test('a failing rule on a field: `spec: Invalid value: "object": <message>`', () => {
    const v = validator({ type: 'object', properties: { spec: SPEC } });
    assert.deepEqual(errs(v, obj({ spec: { minReplicas: 3, maxReplicas: 1 } })), [
      'FieldValueInvalid spec: Invalid value: "object": minReplicas must not exceed maxReplicas',
    ]);
    assert.deepEqual(errs(v, obj({ spec: { minReplicas: 1, maxReplicas: 3 } })), []);
  });

  test('a rule on the resource root reports the field <nil>; without a message, "failed rule: <rule>"', () => {
    const v = validator({ type: 'object', ...rules({ rule: "self.metadata.name.startsWith('w')" }), properties: { spec: { type: 'object' } } });
    assert.deepEqual(errs(v, obj({ spec: {} }, 'x1')), [`FieldValueInvalid <nil>: Invalid value: "object": failed rule: self.metadata.name.startsWith('w')`]);
    assert.deepEqual(errs(v, obj({ spec: {} }, 'w1')), []);
  });

  test('scalars, map values and list items report their own paths and types', () => {
    const v = validator({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            replicas: { type: 'integer', ...rules({ rule: 'self % 2 == 0', message: 'must be even' }) },
            labels: { type: 'object', additionalProperties: { type: 'string', ...rules({ rule: 'self.size() <= 3', reason: 'FieldValueForbidden', message: 'too long' }) } },
            ports: { type: 'array', items: { type: 'integer', ...rules({ rule: 'self > 1024', reason: 'FieldValueRequired', message: 'unprivileged ports only' }) } },
          },
        },
      },
    });
    assert.deepEqual(errs(v, obj({ spec: { replicas: 3, labels: { a: 'long', b: 'ok' }, ports: [8080, 80] } })), [
      'FieldValueInvalid spec.replicas: Invalid value: "integer": must be even',
      'FieldValueForbidden spec.labels[a]: Forbidden: too long',
      'FieldValueRequired spec.ports[1]: Required value: unprivileged ports only',
    ]);
  });

  test('messageExpression builds the message; fieldPath moves the error below the rule', () => {
    const v = validator({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          ...rules(
            { rule: 'self.count <= 10', messageExpression: "'count ' + string(self.count) + ' is over 10'" },
            { rule: 'self.count > 0', fieldPath: '.count', message: 'count must be positive' },
            { rule: 'self.count < 100', messageExpression: "''", message: 'fallback message' },
          ),
          properties: { count: { type: 'integer' } },
        },
      },
    });
    assert.deepEqual(errs(v, obj({ spec: { count: 12 } })), ['FieldValueInvalid spec: Invalid value: "object": count 12 is over 10']);
    assert.deepEqual(errs(v, obj({ spec: { count: 0 } })), ['FieldValueInvalid spec.count: Invalid value: "object": count must be positive']);
    assert.deepEqual(errs(v, obj({ spec: { count: 100 } })), [
      'FieldValueInvalid spec: Invalid value: "object": count 100 is over 10',
      'FieldValueInvalid spec: Invalid value: "object": fallback message',
    ]);
  });

  test('an evaluation error names the rule, as cel-go does ("no such key")', () => {
    const v = validator({ type: 'object', properties: { spec: SPEC } });
    assert.deepEqual(errs(v, obj({ spec: { minReplicas: 1 } })), [
      'FieldValueInvalid spec: Invalid value: "object": no such key: maxReplicas evaluating rule: minReplicas must not exceed maxReplicas',
    ]);
  });

  test('a type error blocks the rules, with one error saying so (kube hasBlockingErr)', () => {
    const v = validator({ type: 'object', properties: { spec: SPEC } });
    assert.deepEqual(errs(v, obj({ spec: { minReplicas: 'x', maxReplicas: 1 } })), [
      'FieldValueTypeInvalid spec.minReplicas: Invalid value: "string": spec.minReplicas in body must be of type integer: "string"',
      'FieldValueInvalid <nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
  });

  test('null values are not validated', () => {
    const v = validator({ type: 'object', properties: { spec: { ...SPEC, nullable: true } } });
    assert.deepEqual(errs(v, obj({ spec: null })), []);
  });
});

describe('CEL rules: transition rules (oldSelf)', () => {
  const immutable = rules({ rule: 'self == oldSelf', message: 'Value is immutable' });
  const v = validator({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          class: { type: 'string', ...immutable },
          parts: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
            items: { type: 'object', properties: { name: { type: 'string' }, size: { type: 'integer', ...rules({ rule: 'self >= oldSelf', message: 'size may only grow' }) } } },
          },
          tags: { type: 'object', additionalProperties: { type: 'string', ...immutable } },
        },
      },
    },
  });

  test('run only on update, against the correlated old value', () => {
    const spec = { class: 'fast', parts: [{ name: 'a', size: 2 }, { name: 'b', size: 5 }], tags: { team: 'x' } };
    assert.deepEqual(errs(v, obj({ spec })), [], 'create: no old value, transition rules are skipped');
    assert.deepEqual(errs(v, obj({ spec }), obj({ spec })), []);
    const changed = { class: 'slow', parts: [{ name: 'b', size: 4 }, { name: 'a', size: 3 }], tags: { team: 'y', new: 'z' } };
    assert.deepEqual(errs(v, obj({ spec: changed }), obj({ spec })), [
      'FieldValueInvalid spec.class: Invalid value: "string": Value is immutable',
      'FieldValueInvalid spec.parts[0].size: Invalid value: "integer": size may only grow',
      'FieldValueInvalid spec.tags[team]: Invalid value: "string": Value is immutable',
    ]);
  });

  test('a field added on update has no old value: its transition rules do not run', () => {
    assert.deepEqual(errs(v, obj({ spec: { class: 'fast' } }), obj({ spec: {} })), []);
  });

  test('items of an atomic list do not correlate', () => {
    const atomic = validator({ type: 'object', properties: { list: { type: 'array', items: { type: 'string', ...immutable } } } });
    assert.deepEqual(errs(atomic, obj({ list: ['b'] }), obj({ list: ['a'] })), []);
  });
});

describe('CEL rules: ratcheting (CRDValidationRatcheting, on in 1.32)', () => {
  const v = validator({ type: 'object', properties: { spec: SPEC, other: { type: 'string' } } });
  const bad = { minReplicas: 3, maxReplicas: 1 };

  test('an unchanged invalid value passes an update that changes something else', () => {
    assert.equal(errs(v, obj({ spec: bad })).length, 1, 'create is checked');
    assert.deepEqual(errs(v, obj({ spec: bad, other: 'b' }), obj({ spec: bad, other: 'a' })), []);
  });

  test('a changed invalid value is still refused', () => {
    assert.equal(errs(v, obj({ spec: { ...bad, name: 'n' } }), obj({ spec: bad })).length, 1);
  });
});

describe('CEL rules: values as kube gives them to CEL', () => {
  test('integers are ints, numbers doubles, date-time strings timestamps', () => {
    const v = validator({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          ...rules(
            { rule: 'self.replicas + 1 == 4', message: 'int arithmetic' },
            { rule: 'self.ratio * 2.0 == 3.0', message: 'double arithmetic' },
            { rule: "self.start < timestamp('2030-01-01T00:00:00Z')", message: 'timestamp comparison' },
            { rule: "self.whole == 2.0", message: 'a number that is integral is still a double' },
          ),
          properties: { replicas: { type: 'integer' }, ratio: { type: 'number' }, whole: { type: 'number' }, start: { type: 'string', format: 'date-time' } },
        },
      },
    });
    assert.deepEqual(errs(v, obj({ spec: { replicas: 3, ratio: 1.5, whole: 2, start: '2024-05-01T10:00:00Z' } })), []);
  });

  test('property names are escaped (foo-bar → foo__dash__bar, in → __in__); map keys are not', () => {
    const v = validator({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          ...rules({ rule: "self.foo__dash__bar == 'x' && self.__in__ == 1 && self.m['a-b'] == 2", message: 'escaped' }),
          properties: { 'foo-bar': { type: 'string' }, in: { type: 'integer' }, m: { type: 'object', additionalProperties: { type: 'integer' } } },
        },
      },
    });
    assert.deepEqual(errs(v, obj({ spec: { 'foo-bar': 'x', in: 1, m: { 'a-b': 2 } } })), []);
    assert.equal(errs(v, obj({ spec: { 'foo-bar': 'y', in: 1, m: { 'a-b': 2 } } })).length, 1);
  });

  test('at the root, metadata shows only name and generateName', () => {
    const v = validator({ type: 'object', ...rules({ rule: 'self.metadata.name == "w1" && !has(self.metadata.generateName)', message: 'only name' }) });
    assert.deepEqual(errs(v, obj({})), []);
    const other = validator({ type: 'object', ...rules({ rule: 'self.metadata.namespace == "default"' }) });
    assert.deepEqual(errs(other, obj({})), [
      `FieldValueInvalid <nil>: Invalid value: "object": rule compile error: ERROR: <input>:1:14: undefined field 'namespace'`,
    ]);
  });

  test("kube's libraries: macros, strings, lists, regex", () => {
    const v = validator({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          ...rules(
            { rule: 'self.items.all(i, i.size() > 0) && self.items.exists(i, i == "b") && self.items.exists_one(i, i == "a")', message: 'macros' },
            { rule: 'self.items.map(i, i.upperAscii()) == ["A", "B", "C"] && self.items.filter(i, i > "a").size() == 2', message: 'map/filter' },
            { rule: 'self.items.isSorted() && self.nums.sum() == 6 && self.nums.max() == 3 && self.items.indexOf("c") == 2', message: 'lists' },
            { rule: 'self.name.matches("^[a-z]+-[0-9]+$") && self.name.find("[0-9]+") == "42" && self.name.replace("-", "_") == "web_42"', message: 'regex and strings' },
            { rule: 'self.name.split("-") == ["web", "42"] && self.name.lowerAscii().startsWith("web") && size(self.name) == 6', message: 'strings' },
          ),
          properties: { items: { type: 'array', items: { type: 'string' } }, nums: { type: 'array', items: { type: 'integer' } }, name: { type: 'string' } },
        },
      },
    });
    assert.deepEqual(errs(v, obj({ spec: { items: ['a', 'b', 'c'], nums: [1, 2, 3], name: 'web-42' } })), []);
  });

  test('a field type from a $ref and its own rules both apply, the type\'s first (as the CRD lists them)', () => {
    const v = validator(
      { type: 'object', properties: { spec: { allOf: [{ $ref: '#/components/schemas/Spec' }], ...rules({ rule: 'self.name != "forbidden"', message: 'name is forbidden' }) } } },
      { Spec: SPEC },
    );
    assert.deepEqual(errs(v, obj({ spec: { minReplicas: 2, maxReplicas: 1, name: 'forbidden' } })), [
      'FieldValueInvalid spec: Invalid value: "object": minReplicas must not exceed maxReplicas',
      'FieldValueInvalid spec: Invalid value: "object": name is forbidden',
    ]);
  });
});

describe('CEL rules: compilation', () => {
  test('rules compile once per schema, not per request', () => {
    // Counted, not timed (a bound on elapsed time fails on a loaded machine): every compile of a
    // rule text is a cel-js parse, and 2,000 validations make none.
    const { Environment } = createRequire(import.meta.url)('@marcbachmann/cel-js') as typeof CelJs;
    const parse = Environment.prototype.parse;
    let parses = 0;
    Environment.prototype.parse = function (this: CelJs.Environment, ...args: Parameters<typeof parse>) {
      parses++;
      return parse.apply(this, args);
    };
    try {
      // A rule text of its own, so no earlier test has compiled it.
      const spec = { ...SPEC, ...rules({ rule: 'self.minReplicas <= self.maxReplicas + 0', message: 'counted' }) };
      const v = validator({ type: 'object', properties: { spec } });
      const bad = obj({ spec: { minReplicas: 3, maxReplicas: 1 } });
      assert.deepEqual(errs(v, bad), ['FieldValueInvalid spec: Invalid value: "object": counted']);
      const compiled = parses;
      assert.ok(compiled >= 1, 'the rule was compiled (the count sees compiles)');
      for (let i = 0; i < 2000; i++) assert.deepEqual(v.validate(obj({ spec: { minReplicas: 1, maxReplicas: 2 } })), []);
      assert.deepEqual(errs(v, bad), ['FieldValueInvalid spec: Invalid value: "object": counted']);
      assert.equal(parses, compiled, 'no compile per validation');
    } finally {
      Environment.prototype.parse = parse;
    }
  });

  test('celRuleErrors reports what kube refuses when a CRD is written', () => {
    const schema = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: { a: { type: 'integer' } },
          ...rules(
            { rule: 'self.b > 1' },
            { rule: 'self.a >' },
            { rule: 'self.a' },
            { rule: 'self.a > 1', fieldPath: '.c' },
            { rule: 'unknownFn(self)' },
            { rule: 'self.a > 1\n', message: 'multi\nline' },
            { rule: 'self.a > 1', reason: 'Nope' },
          ),
        },
      },
    };
    const base = 'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations';
    assert.deepEqual(
      celRuleErrors(schema as never, 'spec.versions[0].schema.openAPIV3Schema').map((e) => `${e.field}: ${e.message}`),
      [
        `${base}[0].rule: Invalid value: "self.b > 1": compilation failed: ERROR: <input>:1:5: undefined field 'b'`,
        `${base}[1].rule: Invalid value: "self.a >": compilation failed: ERROR: <input>:1:9: Syntax error: unexpected token: EOF`,
        `${base}[2].rule: Invalid value: "self.a": compilation failed: cel expression must evaluate to a bool`,
        `${base}[3].fieldPath: Invalid value: ".c": does not refer to a valid field`,
        `${base}[4].rule: Invalid value: "unknownFn(self)": compilation failed: ERROR: <input>:1:1: found no matching overload for 'unknownFn(dyn)'`,
        `${base}[5].message: Invalid value: "multi\\nline": message must not contain line breaks`,
        `${base}[6].reason: Unsupported value: "Nope": supported values: "FieldValueInvalid", "FieldValueForbidden", "FieldValueRequired", "FieldValueDuplicate"`,
      ],
    );
  });

  test('compileRule marks transition rules', () => {
    assert.equal(compileRule({ rule: 'self == oldSelf' }).usesOldSelf, true);
    assert.equal(compileRule({ rule: 'self.x.all(o, o > 1)' }).usesOldSelf, false);
  });
});

describe('CEL environments by self type', () => {
  test('are bounded: a server fed CRDs of ever new types keeps at most 512', async () => {
    const { celEnvironmentForSelf, celSelfEnvironmentCount } = await import('../../runtime/validation/cel-env.js');
    const first = celEnvironmentForSelf('string', [{ name: 'kgen.test.First', fields: { a: 'string' } }]);
    for (let i = 0; i < 600; i++) celEnvironmentForSelf(`kgen.test.T${i}`, [{ name: `kgen.test.T${i}`, fields: { n: 'int' } }]);
    assert.ok(celSelfEnvironmentCount() <= 512, `${celSelfEnvironmentCount()} environments kept`);
    // The least recently used went first; one asked for again is made again and works.
    const again = celEnvironmentForSelf('string', [{ name: 'kgen.test.First', fields: { a: 'string' } }]);
    assert.notEqual(again, first);
    assert.equal(celEnvironmentForSelf('string', [{ name: 'kgen.test.First', fields: { a: 'string' } }]), again);
  });

  test('are bounded by the size of their types too: 50 of a 5,000-field type are not all kept', async () => {
    const { celEnvironmentForSelf, celSelfEnvironmentChars, MAX_SELF_TYPE_CHARS } = await import('../../runtime/validation/cel-env.js');
    let last;
    for (let i = 0; i < 50; i++) {
      const fields: Record<string, string> = {};
      for (let j = 0; j < 5000; j++) fields[`field_number_${j}`] = 'string';
      last = celEnvironmentForSelf(`kgen.big.T${i}`, [{ name: `kgen.big.T${i}`, fields }]);
    }
    assert.ok(celSelfEnvironmentChars() <= MAX_SELF_TYPE_CHARS, `${celSelfEnvironmentChars()} characters of types kept`);
    // The most recent one is kept and works.
    assert.equal(last, celEnvironmentForSelf('kgen.big.T49', [{ name: 'kgen.big.T49', fields: Object.fromEntries(Array.from({ length: 5000 }, (_, j) => [`field_number_${j}`, 'string'])) }]));
    assert.equal(last!.parse('self.field_number_7 == "x"').check().valid, true);
  });
});

describe('CEL rule caches (parse once per text, check once per self-type environment and text)', () => {
  test('hold a bounded amount of rule text, however long the texts a server is fed', async () => {
    const { celEnvironmentForSelf, celRuleCacheChars, checkInEnvironment, checkRule, MAX_CACHED_RULE_CHARS, parseRule } = await import('../../runtime/validation/cel-env.js');
    const env = celEnvironmentForSelf('string');
    // A CRD's rule may be megabytes (the request size); 30 distinct 60,000-character rules.
    for (let i = 0; i < 30; i++) {
      const text = `'${'a'.repeat(60_000)}' == self || self == '${i}'`;
      assert.equal(checkRule(parseRule(text)).valid, true);
      assert.equal(checkInEnvironment(env, text).valid, true);
    }
    const held = celRuleCacheChars();
    assert.ok(held.parsed <= MAX_CACHED_RULE_CHARS, `parsed: ${held.parsed} characters held`);
    assert.ok(held.checked <= MAX_CACHED_RULE_CHARS, `checked: ${held.checked} characters held`);
    // Still answers, and a short rule is still kept.
    assert.equal(parseRule('self == "x"'), parseRule('self == "x"'));
  });
});

describe('CEL regexes on hostile values', () => {
  test('matches() with a backtracking pattern answers a near-miss value at once (kube: RE2, linear)', () => {
    const v = validator({ type: 'object', properties: { s: { type: 'string', ...rules({ rule: "self.matches('^(a+)+$')" }, { rule: "self.matches('^a+!$')" }) } } });
    // V8 backtracks 2^30 times on this without the linear fallback (seconds); RE2 does not.
    // Proved by the engine that ran, not by a clock: V8's never ran the pattern.
    const value = 'a'.repeat(30) + '!';
    // (The second rule's pattern is one V8 matches in linear time: its run shows the count sees V8's runs.)
    const runs = v8RunsOf(['^(a+)+$', '^a+!$'], value, () => assert.equal(errs(v, { s: value }).length, 1));
    assert.deepEqual(runs, [0, 1]);
    // A match passes (only the second rule fails 'aaa').
    assert.deepEqual(errs(v, { s: 'aaa' }), ['FieldValueInvalid s: Invalid value: "string": failed rule: self.matches(\'^a+!$\')']);
  });

  test('find() and findAll() take Go (RE2) patterns and answer a backtracking one at once', () => {
    const v = validator({
      type: 'object',
      properties: {
        s: {
          type: 'string',
          ...rules(
            { rule: "self.find('(a+)+b') == ''", message: 'find' },
            { rule: "self.findAll('(a|a)*b').size() == 0", message: 'findAll' },
            { rule: "self.findAll('\\\\pL+', 1) == [] || self.findAll('\\\\pL+', 1).size() == 1", message: 'limit' },
          ),
        },
      },
    });
    // The backtracking patterns never ran on V8's engine (proved by the engine, not by a clock).
    const value = 'a'.repeat(40) + '!';
    assert.deepEqual(v8RunsOf(['(a+)+b', '(a|a)*b'], value, () => assert.deepEqual(errs(v, { s: value }), [])), [0, 0]);
    assert.deepEqual(errs(v, { s: 'xaab aab' }), ['FieldValueInvalid s: Invalid value: "string": find', 'FieldValueInvalid s: Invalid value: "string": findAll']);
  });
});


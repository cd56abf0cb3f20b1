/**
 * CEL optional types in kube's environment (cel.OptionalTypes(), since 1.28; kube 1.33 builds
 * cel-go v0.23.2, whose library is at version 2): `.?field`, `[?key]`, optional.of/none,
 * hasValue/value/orValue/or, in CRD rules over present and absent fields; and what
 * runtime/validation/cel-optional.ts adds: optional.ofNonZeroValue, the optMap and optFlatMap
 * macros, list.first()/last(), optional.unwrap()/unwrapOpt() (cel-go v0.23.2's cel/cel_test.go
 * tables), with cel-go's checks, error texts and cost.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileSchemaValidator } from '../../runtime/validation/index.js';
import { celEnvironment, celEnvironmentWithVariables } from '../../runtime/validation/cel-env.js';
import { callCost } from '../../runtime/validation/cel-cost.js';
import { compileRule } from '../../runtime/validation/cel-compile.js';
import type { DeclType } from '../../runtime/validation/cel-decl.js';

const compile = (expr: string, names: string[] = []) => {
  const parsed = (names.length > 0 ? celEnvironmentWithVariables(names) : celEnvironment()).parse(expr);
  const checked = parsed.check();
  if (!checked.valid) throw new Error(`compile: ${checked.error?.message}`);
  return parsed;
};
const run = (expr: string, vars: Record<string, unknown> = {}): unknown => compile(expr, Object.keys(vars))(vars);
const checkError = (expr: string): string => {
  const checked = celEnvironment().parse(expr).check();
  assert.equal(checked.valid, false, `${expr} should not compile`);
  return String((checked.error as Error | undefined)?.message).split('\n')[0]!;
};
/** Optionals of the CEL library as the runtime loaded it. */
const none = run('optional.none()');
const some = (v: unknown): unknown => run('optional.of(v)', { v });
interface Opt {
  hasValue(): boolean;
  value(): unknown;
}
const isOptional = (v: unknown): v is Opt => Object.prototype.toString.call(v) === '[object optional]';
/** An optional as ['of', value] or ['none']: cel-js's Optional keeps its value private. */
const opt = (v: unknown): unknown => (isOptional(v) ? (v.hasValue() ? ['of', v.value()] : ['none']) : v);

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

describe('cel-go v0.23.2 TestOptionalValues: optMap, optFlatMap, ofNonZeroValue', () => {
  const cases: [string, Record<string, unknown>, unknown][] = [
    ['x.or(y).orValue(z)', { x: none, y: none, z: 42n }, 42n],
    ['x.optMap(y, y + 1)', { x: none }, none],
    ['m.?key.optFlatMap(k, k.?subkey)', { m: {} }, none],
    ['m.?key.optFlatMap(k, k.?subkey)', { m: { key: {} } }, none],
    ['m.?key.optFlatMap(k, k.?subkey)', { m: { key: { subkey: 'subvalue' } } }, some('subvalue')],
    ['m.?key.optFlatMap(k, k.?subkey)', { m: { key: { subkey: '' } } }, some('')],
    ['m.?key.optFlatMap(k, optional.ofNonZeroValue(k.subkey))', { m: { key: { subkey: '' } } }, none],
    ['x.optMap(y, y + 1)', { x: some(42n) }, some(43n)],
    ['optional.ofNonZeroValue(z).or(optional.of(10)).value() == 42', { z: 42n }, true],
    ["optional.ofNonZeroValue('').or(optional.of(m.c['dashed-index'])).orValue('default value')", { m: { c: { 'dashed-index': 'goodbye' } } }, 'goodbye'],
    ["optional.ofNonZeroValue(m.a.z).orValue(m.c['dashed-index'])", { m: { a: { z: '' }, c: { 'dashed-index': 'goodbye' } } }, 'goodbye'],
  ];
  for (const [expr, vars, want] of cases) {
    test(`${expr} with ${JSON.stringify(vars, (_, v) => (typeof v === 'bigint' ? Number(v) : isOptional(v) ? String(opt(v)) : v))}`, () => assert.deepEqual(opt(run(expr, vars)), opt(want)));
  }

  test('zero values (traits.Zeroer) give optional.none(), others optional.of', () => {
    for (const zero of ['0', '0u', '0.0', '-0.0', "''", "b''", 'false', 'null', '[]', '{}', "duration('0s')", "timestamp('0001-01-01T00:00:00Z')"]) {
      assert.equal(run(`optional.ofNonZeroValue(${zero}).hasValue()`), false, zero);
    }
    for (const value of ['1', '1u', '0.5', "' '", "b'a'", 'true', '[0]', "{'a': 0}", "duration('1ns')", "timestamp('1970-01-01T00:00:00Z')", 'optional.none()']) {
      assert.equal(run(`optional.ofNonZeroValue(${value}).hasValue()`), true, value);
    }
  });

  test('ext/comprehensions_test.go with optMap, as cel-go writes it', () => {
    assert.equal(run("cel.bind(l, ['hello', 'world', 'hello!', 'worlds'], l.exists(i, v, v.startsWith('hello') && l[?(i+1)].optMap(next, next.endsWith('world')).orValue(false)))"), true);
    assert.equal(run("cel.bind(l, ['hello', 'world', 'hello!', 'worlds'], l.existsOne(i, v, v.startsWith('hello') && l[?(i+1)].optMap(next, next.endsWith('world')).orValue(false)))"), true);
    assert.equal(run(`cel.bind(l, ['hello', 'goodbye', 'hello!', 'goodbye'], l.exists_one(i, v, v.startsWith('hello') && l[?(i+1)].optMap(next, next == "goodbye").orValue(false))) == false`), true);
  });

  test('the variable is bound only inside the macro, and shadows an outer name', () => {
    assert.deepEqual(opt(run('optional.of(2).optMap(x, x * 10)', { x: 5n })), ['of', 20n]);
    assert.equal(run('optional.of(2).optMap(x, x * 10).value() + x', { x: 5n }), 25n);
    assert.equal(checkError('optional.of(1).optMap(y, y) == optional.of(y)').length > 0, true);
  });
});

describe("optional equality (cel-go's Optional.Equal)", () => {
  const cases: [string, boolean][] = [
    ['optional.of(1) == optional.of(1)', true],
    ['optional.none() == optional.none()', true],
    ['optional.of(1) != optional.none()', true],
    ['optional.none() == optional.of(1)', false],
    ["{'a': 1}[?'a'] == optional.of(1)", true],
    ["{'a': 1}[?'b'] == optional.none()", true],
    ["optional.of([1, {'a': 2}]) == optional.of([1, {'a': 2}])", true],
    ['optional.of([1]) == optional.of([2])', false],
    ['optional.of(optional.of(1)) == optional.of(optional.of(1))', true],
    ["optional.of(duration('1s')) == optional.of(duration('1s'))", true],
    ["optional.of(b'a') != optional.of(b'b')", true],
    ['dyn(optional.of(1)) == optional.of(1)', true],
    ['[optional.of(1), optional.none()] == [optional.of(1), optional.none()]', true],
  ];
  for (const [expr, want] of cases) test(expr, () => assert.equal(run(expr), want));

  test('an optional compared with another type does not compile, as `_==_` takes (A, A)', () => {
    assert.match(checkError("optional.of(1) == optional.of('a')"), /no such overload: optional<int> == optional<string>/);
    assert.match(checkError('optional.of(1) == 1'), /no such overload/);
  });
});

describe('cel-go v0.23.2 optional library version 2: first, last, unwrap, unwrapOpt', () => {
  const cases: [string, unknown][] = [
    ['[].first()', none],
    ["['a','b','c'].first()", some('a')],
    ['[].last()', none],
    ['[1, 2, 3].last()', some(3n)],
    // cel-go's `optional.unwrap([])` and `[].unwrapOpt()`: an empty list literal is list<dyn> in the
    // CEL library kgen uses, which the list<optional<A>> overload does not take (README); as dyn it runs.
    ['optional.unwrap(dyn([]))', []],
    ['optional.unwrap([optional.none(), optional.none()])', []],
    ['optional.unwrap([optional.of(42), optional.none(), optional.of("a")])', [42n, 'a']],
    ['optional.unwrap([optional.of(42), optional.of("a")])', [42n, 'a']],
    ['dyn([]).unwrapOpt()', []],
    ['[optional.none(), optional.none()].unwrapOpt()', []],
    ['[optional.of(42), optional.none(), optional.of("a")].unwrapOpt()', [42n, 'a']],
    ['[optional.of(42), optional.of("a")].unwrapOpt()', [42n, 'a']],
  ];
  for (const [expr, want] of cases) test(expr, () => assert.deepEqual(opt(run(expr)), opt(want)));

  test('the element type is kept: first() of a list of lists is a list, unwrap of optionals of int is a list of int', () => {
    assert.equal(run('[[1], [2, 3]].first().value().first().value() + 1'), 2n);
    assert.equal(run('[optional.of(1), optional.none()].unwrapOpt()[0] + 1'), 2n);
    assert.equal(run('dyn([1, 2]).last().value() == 2'), true);
    assert.deepEqual(run('dyn([optional.of(1), optional.none()]).unwrapOpt()'), [1n]);
  });
});

describe('optional library: checking, as cel-go TestOptionalMacroError and its checker', () => {
  test('the variable must be a simple identifier', () => {
    assert.match(checkError('optional.of(1).optMap(y.z, y.z + 1)'), /optMap\(\) variable name must be a simple identifier/);
    assert.match(checkError('optional.of(1).optFlatMap(y.z, y.z + 1)'), /optFlatMap\(\) variable name must be a simple identifier/);
  });

  test('the target must be optional (the expansion calls hasValue() on it)', () => {
    assert.match(checkError('1.optMap(x, x)'), /found no matching overload for 'hasValue' applied to 'int\.\(\)'/);
    assert.match(checkError('[1].optFlatMap(x, optional.of(x))'), /found no matching overload for 'hasValue' applied to 'list\(int\)\.\(\)'/);
  });

  test("the variable has the optional's value type; optFlatMap's expression must be optional", () => {
    assert.match(checkError("optional.of(1).optMap(x, x + 'a')"), /no such overload: int \+ string/);
    assert.equal(run("optional.of('a').optMap(x, x + 'b').value()"), 'ab');
    assert.match(checkError('optional.of(1).optFlatMap(x, x + 1)'), /found no matching overload for '_\?_:_' applied to '\(bool, int, optional_type\(dyn\)\)'/);
    assert.match(checkError("optional.of(1).optMap(x, x).value() + 'a'"), /no such overload: int \+ string/);
  });

  test('first/last need a list and unwrap a list of optionals', () => {
    assert.match(checkError("'abc'.first()"), /found no matching overload/);
    assert.match(checkError('[1].unwrapOpt()'), /found no matching overload/);
    assert.match(checkError('optional.unwrap([1])'), /found no matching overload/);
  });

  test("optional entries in literals are syntax the CEL library kgen uses does not parse: refused, not misread", () => {
    for (const expr of ['[?optional.of(1), 2]', "{?'k': optional.of(1)}"]) {
      assert.throws(() => celEnvironment().parse(expr), /Unexpected token: QUESTION/);
    }
  });
});

describe('optional library: cost as cel-go prices the expansion', () => {
  const cost = (expr: string) => callCost(compile(expr).ast, undefined, undefined);
  test('optMap: target twice, hasValue/value/optional.of 1 each, the empty range list 10, then the expression', () => {
    // optional.of(1) 1; hasValue 1+1; optional.of(1 + [] 10 + value 1+1 + (x + 1) 2) = 15; max(15, none 1).
    assert.equal(cost('optional.of(1).optMap(x, x + 1)'), 17);
    // optFlatMap: no optional.of around the comprehension.
    assert.equal(cost('optional.of(1).optFlatMap(x, optional.of(x + 1))'), 17);
    assert.equal(cost('optional.none().optMap(x, x)'), 16);
  });

  test("the library's functions at cel-go's default call cost; optional.of/none/ofNonZeroValue/unwrap are qualified names, not a variable", () => {
    assert.equal(cost('optional.ofNonZeroValue(1)'), 1);
    assert.equal(cost('[1].first()'), 11);
    assert.equal(cost('[1, 2].last()'), 11);
    assert.equal(cost('optional.unwrap([optional.none()])'), 12);
    assert.equal(cost('[optional.none()].unwrapOpt()'), 12);
  });

  test('the variable carries the size of the value it is bound to (the rule runs once per call cost check)', () => {
    const ast = compile('self.?s.optMap(v, v.contains("x")).orValue(false)').ast;
    assert.ok(callCost(ast, { s: 'a'.repeat(1000) }, undefined) > callCost(ast, { s: 'a' }, undefined));
  });
});

describe('optional library in CRD rules', () => {
  const validator = (rules: { rule: string; message?: string }[]) =>
    compileSchemaValidator(
      {
        R: {
          type: 'object',
          'x-kubernetes-validations': rules,
          properties: {
            name: { type: 'string' },
            items: { type: 'array', items: { type: 'integer' } },
            spec: { type: 'object', properties: { replicas: { type: 'integer' } } },
          },
        },
      } as never,
      'R',
    );
  const errs = (v: ReturnType<typeof validator>, o: Record<string, unknown>) => v.validate(o).map((e) => `${e.field}: ${e.message}`);

  test('optMap, optFlatMap, first and last over fields that may be absent', () => {
    const v = validator([
      { rule: 'self.?spec.optFlatMap(s, s.?replicas).optMap(r, r <= 10).orValue(true)', message: 'at most 10 replicas' },
      { rule: 'self.?items.optFlatMap(l, l.first()).orValue(0) <= self.?items.optFlatMap(l, l.last()).orValue(0)', message: 'first item at most the last' },
      { rule: "optional.ofNonZeroValue(self.?name.orValue('')).optMap(n, n.startsWith('x')).orValue(true)", message: 'a name starts with x' },
    ]);
    assert.deepEqual(errs(v, {}), []);
    assert.deepEqual(errs(v, { spec: {}, items: [], name: '' }), []);
    assert.deepEqual(errs(v, { spec: { replicas: 3 }, items: [1, 5], name: 'xy' }), []);
    assert.deepEqual(errs(v, { spec: { replicas: 11 }, items: [5, 1], name: 'y' }), [
      '<nil>: Invalid value: "object": at most 10 replicas',
      '<nil>: Invalid value: "object": first item at most the last',
      '<nil>: Invalid value: "object": a name starts with x',
    ]);
  });

  test("optional.none().value() reads as cel-go's evaluation error", () => {
    const v = validator([{ rule: 'self.?spec.value().?replicas.orValue(0) >= 0' }]);
    assert.deepEqual(errs(v, {}), ['<nil>: Invalid value: "object": optional.none() dereference evaluating rule: self.?spec.value().?replicas.orValue(0) >= 0']);
  });

  test("an object's own empty list or map is not a zero value in kube (apiserver's unstructured values are no traits.Zeroer); one a rule builds is", () => {
    const v = validator([
      { rule: 'optional.ofNonZeroValue(self.items).hasValue()', message: 'data list' },
      { rule: '!optional.ofNonZeroValue(self.items.filter(i, i > 0)).hasValue() || self.items.exists(i, i > 0)', message: 'built list' },
      { rule: '!has(self.spec) || optional.ofNonZeroValue(self.spec).hasValue()', message: 'data map' },
    ]);
    assert.deepEqual(errs(v, { items: [], spec: {} }), []);
    assert.deepEqual(errs(v, { items: [0], spec: {} }), []);
  });

  test('the variable is typed from the schema when the CRD is written: a field it lacks is refused', () => {
    const int: DeclType = { kind: 'scalar', name: 'int' };
    const self: DeclType = { kind: 'object', fields: new Map<string, () => DeclType>([['spec', () => ({ kind: 'object', fields: new Map([['replicas', () => int]]) })], ['items', () => ({ kind: 'list', items: () => int })]]) };
    assert.equal(compileRule({ rule: 'self.?spec.optMap(s, s.replicas > 0).orValue(true)' } as never, self, { typeCheck: true }).error, undefined);
    assert.match(String(compileRule({ rule: 'self.?spec.optMap(s, s.replica > 0).orValue(true)' } as never, self, { typeCheck: true }).error), /undefined field 'replica'/);
    assert.match(String(compileRule({ rule: 'self.items.first().optMap(i, i.x > 0).orValue(true)' } as never, self, { typeCheck: true }).error), /does not support field selection|Cannot index type 'int'/i);
  });
});

/**
 * cel-go ext.Strings' format() (strings version 2, kube 1.29+; cel-go v0.23.2 in kube 1.33): the
 * cases of cel-go's ext/strings_test.go TestStringFormat for the en_US locale (the one kube
 * leaves), their outputs and error texts, the compile-time check of literal format calls
 * (stringFormatValidator) and cel-go's cost of a call.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { celEnvironment, celEnvironmentWithVariables } from '../../runtime/validation/cel-env.js';
import { celRuleErrors } from '../../runtime/validation/cel.js';
import { estimateSchemaCost } from '../../runtime/validation/cel-cost.js';
import { compileSchemaValidator } from '../../runtime/validation/index.js';
import { goFixed, textFixed } from '../../runtime/validation/go-float-format.js';
import { goFloat } from '../../runtime/validation/gofmt.js';

/** `"<format>".format([<args>])` evaluated, with dyn variables `vars` (cel-go's dynArgs). */
function format(fmt: string, args: string, vars: Record<string, unknown> = {}): string {
  const env = Object.keys(vars).length > 0 ? celEnvironmentWithVariables(Object.keys(vars)) : celEnvironment();
  const parsed = env.parse(`${JSON.stringify(fmt)}.format([${args}])`);
  const checked = parsed.check();
  if (!checked.valid) throw new Error(`compile: ${checked.error?.message}`);
  return parsed(vars) as string;
}

/** The evaluation error's message. */
function formatError(fmt: string, args: string): string {
  try {
    return `no error: ${format(fmt, args)}`;
  } catch (err) {
    return (err as Error).message;
  }
}

/** What celRuleErrors says of one rule on `spec` (cel-literals.test.ts's helper), '' when it compiles. */
function compileError(rule: string): string {
  const spec = {
    type: 'object',
    properties: { i: { type: 'integer' }, s: { type: 'string' }, d: { type: 'number' }, ios: { 'x-kubernetes-int-or-string': true }, o: { type: 'object', properties: { x: { type: 'integer' } } } },
    'x-kubernetes-validations': [{ rule }],
  };
  const errs = celRuleErrors({ type: 'object', properties: { spec } } as never, 'S');
  return errs.map((e) => e.message.replace(/^Invalid value: "(?:[^"\\]|\\.)*": /, '')).join('\n');
}

// cel-go's table: [name, format, args, output].
const OUTPUTS: Array<[string, string, string, string]> = [
  ['no-op', 'no substitution', '', 'no substitution'],
  ['mid-string substitution', 'str is %s and some more', '"filler"', 'str is filler and some more'],
  ['percent escaping', '%% and also %%', '', '% and also %'],
  ['substution inside escaped percent signs', '%%%s%%', '"text"', '%text%'],
  ['substitution with one escaped percent sign on the right', '%s%%', '"percent on the right"', 'percent on the right%'],
  ['substitution with one escaped percent sign on the left', '%%%s', '"percent on the left"', '%percent on the left'],
  ['multiple substitutions', '%d %d %d, %s %s %s, %d %d %d, %s %s %s', '1, 2, 3, "A", "B", "C", 4, 5, 6, "D", "E", "F"', '1 2 3, A B C, 4 5 6, D E F'],
  ['percent sign escape sequence support', '\u0025\u0025escaped \u0025s\u0025\u0025', '"percent"', '%escaped percent%'],
  ['fixed point formatting clause', '%.3f', '1.2345', '1.234'],
  ['binary formatting clause', 'this is 5 in binary: %b', '5', 'this is 5 in binary: 101'],
  ['negative binary formatting clause', 'this is -5 in binary: %b', '-5', 'this is -5 in binary: -101'],
  ['uint support for binary formatting', 'unsigned 64 in binary: %b', 'uint(64)', 'unsigned 64 in binary: 1000000'],
  ['bool support for binary formatting', 'bit set from bool: %b', 'true', 'bit set from bool: 1'],
  ['octal formatting clause', '%o', '11', '13'],
  ['negative octal formatting clause', '%o', '-11', '-13'],
  ['uint support for octal formatting clause', 'this is an unsigned octal: %o', 'uint(65535)', 'this is an unsigned octal: 177777'],
  ['lowercase hexadecimal formatting clause', '%x is 30 in hexadecimal', '30', '1e is 30 in hexadecimal'],
  ['uppercase hexadecimal formatting clause', '%X is 20 in hexadecimal', '30', '1E is 20 in hexadecimal'],
  ['negative hexadecimal formatting clause', '%x is -30 in hexadecimal', '-30', '-1e is -30 in hexadecimal'],
  ['unsigned support for hexadecimal formatting clause', '%X is 6000 in hexadecimal', 'uint(6000)', '1770 is 6000 in hexadecimal'],
  ['string support with hexadecimal formatting clause', '%x', '"Hello world!"', '48656c6c6f20776f726c6421'],
  ['string support with uppercase hexadecimal formatting clause', '%X', '"Hello world!"', '48656C6C6F20776F726C6421'],
  ['byte support with hexadecimal formatting clause', '%x', 'b"byte string"', '6279746520737472696e67'],
  ['byte support with hexadecimal formatting clause leading zero', '%x', 'b"\\x00\\x00byte string\\x00"', '00006279746520737472696e6700'],
  ['byte support with uppercase hexadecimal formatting clause', '%X', 'b"byte string"', '6279746520737472696E67'],
  ['scientific notation formatting clause', '%.6e', '1052.032911275', '1.052033\u202f\u00d7\u202f10\u2070\u00b3'],
  ['default precision for fixed-point clause', '%f', '2.71828', '2.718280'],
  ['default precision for scientific notation', '%e', '2.71828', '2.718280\u202f\u00d7\u202f10\u2070\u2070'],
  ['default precision for string', '%s', '2.71', '2.71'],
  ['default list precision for string', '%s', '[2.71]', '[2.710000]'],
  ['default scientific notation for string', '%s', '0.000000002', '2e-09'],
  ['default list scientific notation for string', '%s', '[0.000000002]', '[0.000000]'],
  ['unicode output for scientific notation', 'unescaped unicode: %e, escaped unicode: %e', '2.71828, 2.71828', 'unescaped unicode: 2.718280 × 10⁰⁰, escaped unicode: 2.718280\u202f\u00d7\u202f10\u2070\u2070'],
  ['NaN support for fixed-point', '%f', '"NaN"', 'NaN'],
  ['positive infinity support for fixed-point', '%f', '"Infinity"', '∞'],
  ['negative infinity support for fixed-point', '%f', '"-Infinity"', '-∞'],
  ['NaN support for string', '%s', 'double("NaN")', 'NaN'],
  ['positive infinity support for string', '%s', 'double("Inf")', '+Inf'],
  ['negative infinity support for string', '%s', 'double("-Inf")', '-Inf'],
  ['infinity list support for string', '%s', '[double("NaN"),double("+Inf"), double("-Inf")]', '["NaN", "+Inf", "-Inf"]'],
  ['uint support for decimal clause', '%d', 'uint(64)', '64'],
  ['null support for string', 'null: %s', 'null', 'null: null'],
  ['int support for string', '%s', '999999999999', '999999999999'],
  ['bytes support for string', 'some bytes: %s', 'b"xyz"', 'some bytes: xyz'],
  ['type() support for string', 'type is %s', 'type("test string")', 'type is string'],
  ['timestamp support for string', '%s', 'timestamp("2023-02-03T23:31:20+00:00")', '2023-02-03T23:31:20Z'],
  ['duration support for string', '%s', 'duration("1h45m47s")', '6347s'],
  ['small duration support for string', '%s', 'duration("2ns")', '0.000000002s'],
  ['list support for string', '%s', '["abc", 3.14, null, [9, 8, 7, 6], timestamp("2023-02-03T23:31:20Z")]', '["abc", 3.140000, null, [9, 8, 7, 6], timestamp("2023-02-03T23:31:20Z")]'],
  ['map support for string', '%s', '{"key1": b"xyz", "key5": null, "key2": duration("2h"), "key4": true, "key3": 2.71828}', '{"key1":b"xyz", "key2":duration("7200s"), "key3":2.718280, "key4":true, "key5":null}'],
  ['boolean support for %s', 'true bool: %s, false bool: %s', 'true, false', 'true bool: true, false bool: false'],
];

describe('format(): cel-go TestStringFormat, en_US', () => {
  for (const [name, fmt, args, want] of OUTPUTS) {
    test(name, () => assert.equal(format(fmt, args), want));
  }

  test('dyn arguments (cel-go dynArgs)', () => {
    assert.equal(format('dynamic string: %s', 'dynStr', { dynStr: 'a string' }), 'dynamic string: a string');
    assert.equal(format('dynIntStr: %s dynDoubleStr: %s', 'dynIntStr, dynDoubleStr', { dynIntStr: 32n, dynDoubleStr: 56.8 }), 'dynIntStr: 32 dynDoubleStr: 56.8');
    assert.equal(format('dynamic int: %d', 'dynInt', { dynInt: 128n }), 'dynamic int: 128');
    assert.equal(format('dynamic hex int: %x', 'dynHexInt', { dynHexInt: 22n }), 'dynamic hex int: 16');
    assert.equal(format('dynamic hex int: %X (uppercase)', 'dynHexInt', { dynHexInt: 26n }), 'dynamic hex int: 1A (uppercase)');
    assert.equal(format('dynamic double: %.3f', 'dynDouble', { dynDouble: 4.5 }), 'dynamic double: 4.500');
    assert.equal(format('(dyntype) e: %e', 'dynE', { dynE: 2.71828 }), '(dyntype) e: 2.718280\u202f\u00d7\u202f10\u2070\u2070');
    assert.equal(format('NaN: %f, infinity: %f', 'dynNaN, dynInf', { dynNaN: NaN, dynInf: Infinity }), 'NaN: NaN, infinity: ∞');
    assert.equal(format('dyntype timestamp: %s', 'dynTime', { dynTime: new Date(Date.UTC(2009, 10, 10, 23)) }), 'dyntype timestamp: 2009-11-10T23:00:00Z');
    assert.equal(format('dyntype list: %s', 'dynList', { dynList: [6n, 4.2, 'a string'] }), 'dyntype list: [6, 4.200000, "a string"]');
    assert.equal(format('dyntype map: %s', 'dynMap', { dynMap: new Map<unknown, unknown>([['strKey', 'x'], [true, 42n]]) }), 'dyntype map: {"strKey":"x", true:42}');
  });

  test('heterogeneous list literals inside format (TestStringFormatHeterogeneousLiterals)', () => {
    assert.equal(format('list: %s', '[[1, 2, [3.0, 4]]]'), 'list: [[1, 2, [3.000000, 4]]]');
    assert.equal(format('list size: %d', '[[1, 2, [3.0, 4]]].size()'), 'list size: 1');
    assert.equal(format('list element: %s', '[[1, 2, [3.0, 4]]][0]'), 'list element: [1, 2, [3.000000, 4]]');
    assert.equal(compileError("'%s'.format([[1, 'a', 2.5]]) != ''"), '');
  });

  test('runtime errors, word for word', () => {
    assert.equal(formatError('%a', '1'), 'could not parse formatting clause: unrecognized formatting clause "a"');
    assert.equal(formatError('%d %d %d', '0, 1'), 'index 2 out of range');
    assert.equal(formatError('string is %b', '"abc"'), 'error during formatting: only integers and bools can be formatted as binary, was given string');
    assert.equal(formatError('%d', 'duration("30m2s")'), 'error during formatting: decimal clause can only be used on integers, was given google.protobuf.Duration');
    assert.equal(formatError('octal: %o', '"a string"'), 'error during formatting: octal clause can only be used on integers, was given string');
    assert.equal(formatError('double is %x', '0.5'), 'error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given double');
    assert.equal(formatError('double is %E', '0.5'), 'could not parse formatting clause: unrecognized formatting clause "E"');
    assert.equal(formatError('null: %d', 'null'), 'error during formatting: decimal clause can only be used on integers, was given null_type');
    assert.equal(formatError('null: %e', 'null'), 'error during formatting: scientific clause can only be used on doubles, was given null_type');
    assert.equal(formatError('null: %f', 'null'), 'error during formatting: fixed-point clause can only be used on doubles, was given null_type');
    assert.equal(formatError('null: %x', 'null'), 'error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given null_type');
    assert.equal(formatError('null: %b', 'null'), 'error during formatting: only integers and bools can be formatted as binary, was given null_type');
    assert.equal(formatError('null: %o', 'null'), 'error during formatting: octal clause can only be used on integers, was given null_type');
    assert.equal(formatError('%s', 'optional.of(1)'), 'error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given optional_type');
    assert.equal(formatError('%s', '[optional.of(1)]'), 'error during formatting: no formatting function for optional_type');
    assert.equal(formatError('filler %', '1'), 'unexpected end of string');
    assert.equal(formatError('filler %', ''), 'index 0 out of range');
    assert.equal(formatError('%.f', '1.0'), 'could not parse formatting clause: error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "": invalid syntax');
    assert.equal(formatError('%.3', '1.0'), 'could not parse formatting clause: error while parsing precision: could not find end of precision specifier');
    assert.equal(formatError('%.1001f', '1.0'), 'could not parse formatting clause: error while parsing precision: precision 1001 exceeds maximum allowed precision 1000');
    assert.equal(formatError('%é', '1'), 'could not parse formatting clause: unrecognized formatting clause "Ã"');
  });
});

describe('format(): how Go and golang.org/x/text print', () => {
  test('%f groups digits in en_US and rounds the exact value half to even', () => {
    assert.equal(format('%.3f', '1234567.8916'), '1,234,567.892');
    assert.equal(format('%.3f', '1234.5678'), '1,234.568');
    assert.equal(format('%.2f', '0.125'), '0.12');
    assert.equal(format('%.0f', '2.5'), '2');
    assert.equal(format('%.2f', '-0.001'), '-0.00');
    assert.equal(format('%f', '1e21'), '1,000,000,000,000,000,000,000.000000');
    assert.equal(textFixed(-0, 2), '0.00');
  });
  test('%e: the precision is the width (cel-go writes "%<precision>e"); NaN and ∞ padded', () => {
    assert.equal(format('%.2e', '0.00012345'), '1.234500\u202f\u00d7\u202f10\u207b\u2070\u2074');
    assert.equal(format('%e', '"NaN"'), '   NaN');
    assert.equal(format('%.20e', '1.0'), '     1.000000\u202f\u00d7\u202f10\u2070\u2070');
    assert.equal(format('%e', '0.0'), '0.000000\u202f\u00d7\u202f10\u2070\u2070');
  });
  test('%s of doubles is Go\'s %g; list members are %.6f', () => {
    assert.deepEqual([1e6, 123456, 1.5e-5, 0.0001, -0, 1e21].map(goFloat), ['1e+06', '123456', '1.5e-05', '0.0001', '-0', '1e+21']);
    assert.deepEqual([0.125, 1e21, -0].map((x) => goFixed(x, 2)), ['0.12', '1000000000000000000000.00', '-0.00']);
  });
  test('strings in lists and map keys are Go-quoted; maps sorted by key', () => {
    assert.equal(format('%s', '["a\\"b\\n\\u00a0é"]'), '["a\\"b\\n\\u00a0é"]');
    assert.equal(format('%s', '{"b": [1], "a": {"y": 1, "x": 2}}'), '{"a":{"x":2, "y":1}, "b":[1]}');
  });
});

describe('format(): compile-time check of literal calls (stringFormatValidator)', () => {
  test('cel-go\'s compile-time cases, at the argument or at the call', () => {
    assert.equal(compileError("'%s %s'.format(['abc']) != ''"), 'compilation failed: ERROR: <input>:1:15: index 1 out of range');
    assert.equal(compileError("'%s %s'.format(['abc', 'def', 'ghi']) != ''"), 'compilation failed: ERROR: <input>:1:15: too many arguments supplied to string.format (expected 2, got 3)');
    assert.equal(compileError("'filler %'.format([]) != ''"), 'compilation failed: ERROR: <input>:1:18: unexpected end of string');
    assert.equal(compileError("'%j'.format([123]) != ''"), 'compilation failed: ERROR: <input>:1:12: could not parse formatting clause: unrecognized formatting clause "j"');
    assert.equal(compileError("'int is %d'.format([5.2]) != ''"), 'compilation failed: ERROR: <input>:1:21: error during formatting: decimal clause can only be used on integers, was given double');
    assert.equal(compileError("'double is %f'.format([true]) != ''"), 'compilation failed: ERROR: <input>:1:24: error during formatting: fixed-point clause can only be used on doubles, was given bool');
    assert.equal(compileError("'double is %.34'.format([5.0]) != ''"), 'compilation failed: ERROR: <input>:1:24: could not parse formatting clause: error while parsing precision: could not find end of precision specifier');
    assert.match(compileError("'double is %e'.format([true]) != ''"), /scientific clause can only be used on doubles, was given bool$/);
    assert.match(compileError("'string is %b'.format(['a string']) != ''"), /only integers and bools can be formatted as binary, was given string$/);
    assert.match(compileError("'%x is a double'.format([2.5]) != ''"), /only integers, byte buffers, and strings can be formatted as hex, was given double$/);
    assert.match(compileError("'%X is a double'.format([2.5]) != ''"), /only integers, byte buffers, and strings can be formatted as hex, was given double$/);
    assert.match(compileError("'an octal: %o'.format([3.14]) != ''"), /octal clause can only be used on integers, was given double$/);
  });

  test('the declared types of fields: a select is placed at its dot, a call at its paren; an object is no %s argument', () => {
    assert.equal(compileError("'%d'.format([self.s]) != ''"), 'compilation failed: ERROR: <input>:1:18: error during formatting: decimal clause can only be used on integers, was given string');
    assert.match(compileError("'%s'.format([[1, self.o]]) != ''"), /1:22: error during formatting: string clause can only be used on .*, was given kgen_object_\d+$/);
    assert.match(compileError("'%f'.format([int(self.d)]) != ''"), /1:17: error during formatting: fixed-point clause/);
    // A member call at its '(' (optional.of is a namespaced function in cel-go, a member call here).
    assert.match(compileError("'%f'.format([self.s.size()]) != ''"), /1:25: error during formatting: fixed-point clause can only be used on doubles, was given int$/);
    assert.match(compileError("'%d'.format([optional.of(1)]) != ''"), /1:25: error during formatting: decimal clause can only be used on integers, was given optional_type$/);
  });

  test('what passes: matching types, dyn arguments, format strings or arguments that are not literals', () => {
    for (const rule of [
      "'%s has %d replicas'.format([self.s, self.i]) != ''",
      "'%d'.format([self.ios]) != ''",
      "'%f %e %x'.format(['NaN', self.d, b'a']) != ''",
      "self.s.format([1, 2]) != ''",
      "'%d %d'.format([self.i].map(x, x)) != ''",
      "'%s'.format([{'a': [1, 2u], 'b': null}]) != ''",
    ]) {
      assert.equal(compileError(rule), '', rule);
    }
  });
});

describe('format(): cost', () => {
  test('cel-go\'s estimate: the format string traversed, the list created (TestStringFormat\'s figures)', () => {
    const costOf = (messageExpression: string) =>
      estimateSchemaCost({ type: 'object', 'x-kubernetes-validations': [{ rule: 'true', messageExpression }] }).messageExpressions[0]!.maxCost;
    assert.equal(costOf("'no substitution'.format([])"), 12);
    assert.equal(costOf("'%%%s%%'.format(['text'])"), 11);
    assert.equal(costOf("'%d %d %d, %s %s %s, %d %d %d, %s %s %s'.format([1, 2, 3, 'A', 'B', 'C', 4, 5, 6, 'D', 'E', 'F'])"), 14);
  });
});

describe('format(): CRD values as rules see them', () => {
  test('objects print as maps under their CEL names (a keyword field once, escaped, as kube iterates it); numbers by schema type', () => {
    const v = compileSchemaValidator(
      {
        R: {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              properties: {
                items: { type: 'array', items: { type: 'object', properties: { namespace: { type: 'string' }, 'x-y': { type: 'integer' }, w: { type: 'number' } } } },
              },
              'x-kubernetes-validations': [{ rule: 'false', messageExpression: "'%s'.format([self.items])" }],
            },
          },
        },
      } as never,
      'R',
    );
    const errs = v.validate({ apiVersion: 'x.example.com/v1', kind: 'W', metadata: { name: 'w1', namespace: 'default' }, spec: { items: [{ namespace: 'ns', 'x-y': 2, w: 3 }] } }, undefined);
    assert.deepEqual(
      errs.map((e) => e.message),
      ['Invalid value: "object": [{"__namespace__":"ns", "w":3.000000, "x__dash__y":2}]'],
    );
  });
});

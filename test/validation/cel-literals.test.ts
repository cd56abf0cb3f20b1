/**
 * cel-go's AST validators in kube's CEL environment (k8s.io/apiserver/pkg/cel/environment/base.go):
 * rules whose literals kube refuses are refused when a CRD is written (celRuleErrors), with
 * cel-go's message; rules of CRDs already stored still evaluate (the validator does not re-check).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileSchemaValidator } from '../../runtime/validation/index.js';
import { celRuleErrors } from '../../runtime/validation/cel.js';

type Json = Record<string, unknown>;

/** Fields kgen types as kube does (int-or-string and preserved objects are dyn in both). */
const SPEC_PROPS: Json = {
  i: { type: 'integer' },
  i2: { type: 'integer' },
  s: { type: 'string' },
  ios: { 'x-kubernetes-int-or-string': true },
  dur: { type: 'string', format: 'duration' },
  o: { type: 'object', properties: { x: { type: 'integer' } } },
  free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
};

/** What celRuleErrors says of one rule written on `spec` (or on a dyn node with `onFree`), '' when it compiles. */
function compileError(rule: string, opts: { onFree?: boolean; props?: Json } = {}): string {
  const props = { ...(opts.props ?? SPEC_PROPS) } as Record<string, Json>;
  const spec: Json = { type: 'object', properties: props };
  if (opts.onFree) props.free = { ...props.free, 'x-kubernetes-validations': [{ rule }] };
  else spec['x-kubernetes-validations'] = [{ rule }];
  const errs = celRuleErrors({ type: 'object', properties: { spec } } as never, 'S');
  return errs.map((e) => e.message.replace(/^Invalid value: "(?:[^"\\]|\\.)*": /, '')).join('\n');
}

describe('HomogeneousAggregateLiterals (cel.ValidateHomogeneousAggregateLiterals)', () => {
  test('mixed list and map literals are refused with cel-go\'s message and position', () => {
    assert.equal(compileError("[1, 'a'].size() == 2"), "compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'");
    assert.equal(compileError("{'a': 1, 'b': 'x'}.size() == 2"), "compilation failed: ERROR: <input>:1:15: expected type 'int' but found 'string'");
    assert.equal(compileError("{'a': 1, 2: 1}.size() == 2"), "compilation failed: ERROR: <input>:1:10: expected type 'string' but found 'int'");
    assert.equal(compileError('[1, 1.0].size() == 2'), "compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'double'");
    assert.equal(compileError('[1, null].size() == 2'), "compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'null_type'");
    assert.equal(compileError('[[1], [1u]].size() == 2'), "compilation failed: ERROR: <input>:1:7: expected type 'list(int)' but found 'list(uint)'");
    // Nested and inside macros.
    assert.match(compileError("self.i in [1, 2] && [[1, 'a']].size() == 1"), /1:26: expected type 'int' but found 'string'/);
    assert.match(compileError("[1, 2].all(x, [x, 'a'].size() == 2)"), /1:19: expected type 'int' but found 'string'/);
  });

  test('fields of different declared types are refused; dyn fields mixed with typed values too', () => {
    assert.match(compileError('[self.i, self.s].size() == 2'), /expected type 'int' but found 'string'/);
    assert.match(compileError('[self.i, self.ios].size() == 2'), /expected type 'int' but found 'dyn'/);
    assert.match(compileError('[1, dyn(2)].size() == 2'), /expected type 'int' but found 'dyn'/);
    assert.match(compileError('{1: self.i, 2: self.o}.size() == 2'), /expected type 'int' but found 'kgen_object_\d+'/);
  });

  test('homogeneous literals compile', () => {
    for (const rule of [
      '[1, 2, self.i, self.i2].size() == 4',
      "[self.s, 'a'].size() == 2",
      '[[1], []].size() == 2',
      '[[], [1]].size() == 2',
      "[{'a': 1}, {}].size() == 2",
      "{'a': [1], 'b': []}.size() == 2",
      '[self.ios, dyn(1)].size() == 2',
      '[self.o, self.o].size() == 2',
      '[1, 2].map(x, [x]).size() == 2',
      "[self.dur, duration('1s')].size() == 2",
    ]) {
      assert.equal(compileError(rule), '', rule);
    }
  });

  test('on a dyn node, literals keep their own types', () => {
    assert.match(compileError("[1, 'a'].size() == 2", { onFree: true }), /1:5: expected type 'int' but found 'string'/);
    assert.equal(compileError('[self.a, self.b].size() == 2', { onFree: true }), '');
  });

  test('a self type kgen approximates (timestamps as dyn) does not refuse dyn mixes kube accepts', () => {
    const props = { ...SPEC_PROPS, ts: { type: 'string', format: 'date-time' } };
    // kube types self.ts as google.protobuf.Timestamp: both elements are timestamps.
    assert.equal(compileError("[self.ts, timestamp('2020-01-01T00:00:00Z')].size() == 2", { props }), '');
    // The same schema still refuses mixes of types kgen knows.
    assert.match(compileError("[self.i, 'a'].size() == 2", { props }), /expected type 'int' but found 'string'/);
  });

  test('rules of a stored CRD still evaluate (the check is made when the CRD is written)', () => {
    const v = compileSchemaValidator({
      R: { type: 'object', properties: { spec: { type: 'object', properties: { i: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: "[1, 'a'].size() == 3", message: 'm' }] } } },
    } as never, 'R');
    assert.deepEqual(v.validate({ apiVersion: 'x/v1', kind: 'R', metadata: { name: 'a' }, spec: { i: 1 } }).map((e) => e.message), ['Invalid value: "object": m']);
  });
});

describe('ValidateDurationLiterals, ValidateTimestampLiterals, ValidateRegexLiterals (kube 1.29)', () => {
  test('bad literals are refused at the literal with cel-go\'s message', () => {
    assert.equal(compileError("duration('1x') > duration('1s')"), 'compilation failed: ERROR: <input>:1:10: invalid duration argument');
    assert.equal(compileError("timestamp('bad') > timestamp('2020-01-01T00:00:00Z')"), 'compilation failed: ERROR: <input>:1:11: invalid timestamp argument');
    assert.equal(compileError("self.s.matches('[')"), 'compilation failed: ERROR: <input>:1:16: invalid matches argument');
    assert.equal(compileError("'a'.matches('(?=a)')"), 'compilation failed: ERROR: <input>:1:13: invalid matches argument');
    // cel-go checks the call's first argument: the string, in the global form.
    assert.equal(compileError("matches('[', 'a')"), 'compilation failed: ERROR: <input>:1:9: invalid matches argument');
    // On a dyn node too, and the first by position when there are several.
    assert.equal(compileError("duration('1x') > duration('?')", { onFree: true }), 'compilation failed: ERROR: <input>:1:10: invalid duration argument');
    assert.equal(compileError("[1, 'a'].size() == 2 && duration('1x') > duration('1s')"), "compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'");
    assert.equal(compileError("duration('1x') > duration('1s') && [1, 'a'].size() == 2"), 'compilation failed: ERROR: <input>:1:10: invalid duration argument');
  });

  test('good literals and non-literal arguments compile', () => {
    for (const rule of [
      "duration('1h30m') > duration('-1.5s')",
      "timestamp('2020-01-01T00:00:00Z') < timestamp('2021-06-01T10:00:00.5+02:00')",
      "self.s.matches('^[a-z]+(?i)x$')",
      "self.s.matches('\\\\p{L}+')",
      "matches(self.s, '[')", // the pattern is the second argument: not checked, as in cel-go
      'duration(self.s) > duration(self.s)',
      "self.s.matches(self.s + '[')",
    ]) {
      assert.equal(compileError(rule), '', rule);
    }
  });
});

describe('matches(string, string): the global form of CEL\'s matches', () => {
  test('compiles and matches as Go\'s regexp', () => {
    assert.equal(compileError("matches(self.s, '^[a-z]+$')"), '');
    const v = compileSchemaValidator({
      R: { type: 'object', properties: { spec: { type: 'object', properties: { s: { type: 'string' } }, 'x-kubernetes-validations': [{ rule: "matches(self.s, '^(?i)[a-z]+$')", message: 'm' }] } } },
    } as never, 'R');
    const run = (s: string) => v.validate({ apiVersion: 'x/v1', kind: 'R', metadata: { name: 'a' }, spec: { s } }).map((e) => e.message);
    assert.deepEqual(run('AbC'), []);
    assert.deepEqual(run('ab1'), ['Invalid value: "object": m']);
  });
});

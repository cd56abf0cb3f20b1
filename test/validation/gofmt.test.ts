import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { goBadValue, goFloat, goNumber, goQuote, goSharpV } from '../../runtime/validation/gofmt.js';
import { duplicate, notSupported, required, tooLong, tooMany } from '../../runtime/validation/field.js';

describe('Go value formatting', () => {
  it('numbers print as Go prints int64 and float64 (%v)', () => {
    assert.equal(goNumber(11), '11');
    assert.equal(goNumber(-3), '-3');
    assert.equal(goNumber(1.5), '1.5');
    assert.equal(goFloat(1e6), '1e+06');
    assert.equal(goFloat(123456), '123456');
    assert.equal(goFloat(1234567.5), '1.2345675e+06');
    assert.equal(goFloat(0.0001), '0.0001');
    assert.equal(goFloat(0.00001), '1e-05');
    assert.equal(goNumber(1e300), '1e+300');
  });

  it('strings quote like strconv.Quote', () => {
    assert.equal(goQuote('a"b\\c'), '"a\\"b\\\\c"');
    assert.equal(goQuote('tab\tnl\n\x01\x7f'), '"tab\\tnl\\n\\x01\\x7f"');
    assert.equal(goQuote('héllo 世界'), '"héllo 世界"');
    assert.equal(goQuote('\u00a0\u200b'), '"\\u00a0\\u200b"');
  });

  it('maps and slices print as %#v of interface{} values', () => {
    assert.equal(goSharpV({ b: 1, a: 'x', c: null, d: [true, 1.5] }), 'map[string]interface {}{"a":"x", "b":1, "c":interface {}(nil), "d":[]interface {}{true, 1.5}}');
    assert.equal(goSharpV({}), 'map[string]interface {}{}');
    assert.equal(goBadValue(null), '"null"');
    assert.equal(goBadValue('s'), '"s"');
    assert.equal(goBadValue(false), 'false');
  });
});

describe('field error constructors', () => {
  it('render ErrorBody as apimachinery does', () => {
    assert.deepEqual(required('spec.a'), { type: 'FieldValueRequired', field: 'spec.a', message: 'Required value' });
    assert.equal(required('spec.a', 'why').message, 'Required value: why');
    assert.equal(notSupported('f', 'x', ['a', 'b']).message, 'Unsupported value: "x": supported values: "a", "b"');
    assert.equal(notSupported('f', 'x', []).message, 'Unsupported value: "x"');
    assert.equal(duplicate('f', 'a').message, 'Duplicate value: "a"');
    assert.equal(tooLong('f', 5).message, 'Too long: may not be more than 5 bytes');
    assert.equal(tooMany('f', 4, 3).message, 'Too many: 4: must have at most 3 items');
    assert.equal(tooMany('f', 2, 1).message, 'Too many: 2: must have at most 1 item');
  });
});

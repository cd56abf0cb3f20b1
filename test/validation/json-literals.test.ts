/**
 * json-literals.ts: the number literals whose double is not the whole story (a fraction, an
 * exponent, 16 digits and more), found by their exact path; none for bodies without such a literal
 * as a value, whatever their strings hold; integer literals judged as strconv.ParseInt judges them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { indexSegment as i, integerLiteralError, keySegment as k, numberLiteralsOf } from '../../runtime/validation/json-literals.js';

describe('numberLiteralsOf', () => {
  it('is undefined without such a literal standing as a value, digits in strings or not', () => {
    assert.equal(numberLiteralsOf('{"a":1,"b":[2,3],"image":"nginx:1.14.2","ip":"10.0.0.1","v":"1.0","n":-12}'), undefined);
    assert.equal(numberLiteralsOf('{"big":900719925474099}'), undefined, '15 digits');
  });

  it('finds each by its path through objects and lists; keys with escapes and repeated keys as JSON.parse reads them', () => {
    const text = '{ "spec" : { "replicas" : 1.0 , "ports" : [ 80 , {"p": 1e3} , 2.5 ] }, "a\\"b": {"x":-0.0}, "n": 9007199254740993, "d": 1.5, "d": 2 }';
    assert.deepEqual(
      numberLiteralsOf(text),
      new Map([
        [k('spec') + k('replicas'), '1.0'],
        [k('spec') + k('ports') + i(1) + k('p'), '1e3'],
        [k('spec') + k('ports') + i(2), '2.5'],
        [k('a"b') + k('x'), '-0.0'],
        [k('n'), '9007199254740993'],
      ]),
    );
    // A string passing the quick test yields nothing by itself.
    assert.equal(numberLiteralsOf('{"note":"a:1.0,","n":1}'), undefined);
    // Keys cannot be confused whatever they hold.
    assert.notEqual(k('a') + k('b'), k('1:a1:b'));
  });
});

describe('integerLiteralError', () => {
  it('refuses what ParseInt refuses or int32 overflows, with the literal; flags int64s a double cannot keep', () => {
    assert.equal(integerLiteralError('1.0', 'int32'), 'number 1.0');
    assert.equal(integerLiteralError('1e3', 'int64'), 'number 1e3');
    assert.equal(integerLiteralError('2147483648', 'int32'), 'number 2147483648');
    assert.equal(integerLiteralError('-2147483648', 'int32'), undefined);
    assert.equal(integerLiteralError('9223372036854775808', 'int64'), 'number 9223372036854775808');
    assert.equal(integerLiteralError('-9223372036854775808', 'int64'), undefined, '-2^63 is a double');
    assert.equal(integerLiteralError('9223372036854775807', 'int64'), 'exact');
    assert.equal(integerLiteralError('9007199254740993', 'int64'), 'exact');
    assert.equal(integerLiteralError('9007199254740992', 'int64'), undefined);
  });
});

/**
 * json-literals.ts: the number literals whose double is not the whole story (a fraction, an
 * exponent, 16 digits and more), found by their exact path; none for bodies without such a literal
 * as a value, whatever their strings hold; integer literals judged as strconv.ParseInt judges them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { integerLiteralError, numberLiteralsOf, type NumberLiterals } from '../../runtime/validation/json-literals.js';
import { assertLinearGrowth } from '../support/linear-growth.js';

/** The tree as `path → literal` (keys as .key, indexes as [i]). */
function flat(tree: NumberLiterals | undefined, path = '', out = new Map<string, string>()): Map<string, string> | undefined {
  if (tree === undefined) return undefined;
  if (tree.literal !== undefined) out.set(path, tree.literal);
  for (const [place, child] of tree.children ?? []) flat(child, typeof place === 'number' ? `${path}[${place}]` : `${path}.${place}`, out);
  return out;
}

describe('numberLiteralsOf', () => {
  it('is undefined without such a literal standing as a value, digits in strings or not', () => {
    assert.equal(numberLiteralsOf('{"a":1,"b":[2,3],"image":"nginx:1.14.2","ip":"10.0.0.1","v":"1.0","n":-12}'), undefined);
    assert.equal(numberLiteralsOf('{"big":900719925474099}'), undefined, '15 digits');
    assert.equal(numberLiteralsOf('{"i":"1.5"}'), undefined);
  });

  it('finds each by its place through objects and lists; keys with escapes and repeated keys as JSON.parse reads them', () => {
    const text =
      '{ "spec" : { "replicas" : 1.0 , "ports" : [ 80 , {"p": 1e3} , 2.5 ] }, "a\\"b": {"x":-0.0}, "n": 9007199254740993, "d": 1.5, "d": 2, "o": {"q": 1.0}, "o": {"q": 1}, "r": 1E2, "r": {"s": 3} }';
    assert.deepEqual(
      flat(numberLiteralsOf(text)),
      new Map([
        ['.spec.replicas', '1.0'],
        ['.spec.ports[1].p', '1e3'],
        ['.spec.ports[2]', '2.5'],
        ['.a"b.x', '-0.0'],
        ['.n', '9007199254740993'],
      ]),
    );
    // Only the places on the way to a literal are in the tree.
    const tree = numberLiteralsOf('{"a":{"b":[1,2,{"c":1.5}],"d":{"e":1}},"f":2}')!;
    assert.deepEqual([...tree.children!.keys()], ['a']);
    assert.deepEqual([...tree.children!.get('a')!.children!.keys()], ['b']);
    assert.deepEqual([...tree.children!.get('a')!.children!.get('b')!.children!.keys()], [2]);
    // A string passing the quick test yields nothing by itself.
    assert.equal(numberLiteralsOf('{"note":"a:1.0,","n":1}'), undefined);
  });

  it('takes linear time on digit runs inside strings (no backtracking through them)', () => {
    // Quadratic backtracking took seconds for 40,000 digits. Checked as growth from 125,000 to
    // 10^6 digits, not against a clock (see linear-growth.ts).
    const texts: ((run: string) => string)[] = [(run) => `{"k":"x:${run}y"}`, (run) => `{"k":"x:${run}.1y"}`, (run) => `{"k":"x:1.${run}e"}`];
    for (const [i, text] of texts.entries()) {
      assert.equal(numberLiteralsOf(text('1'.repeat(1_000_000))), undefined);
      assertLinearGrowth(`text ${i}`, 125_000, (n) => text('1'.repeat(n)), (t) => assert.equal(numberLiteralsOf(t), undefined));
    }
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
    assert.equal(integerLiteralError('-' + '9'.repeat(20), 'int64'), 'number -' + '9'.repeat(20));
  });

  it('judges a literal of megabytes by its length, never by a BigInt of it', () => {
    // A BigInt of 3 M digits costs ~0.5 s (V8's parse is not linear); the length alone decides.
    // Proved by watching BigInt's calls, not by a clock: a timed assertion fails on a loaded machine.
    const real = globalThis.BigInt;
    const converted: number[] = [];
    const watched = Object.assign((value: string | number | bigint | boolean) => {
      if (typeof value === 'string') converted.push(value.length);
      return real(value);
    }, real);
    globalThis.BigInt = watched as typeof BigInt;
    try {
      const literal = '1'.repeat(3_000_000);
      assert.equal(integerLiteralError(literal, 'int32'), `number ${literal}`);
      assert.equal(integerLiteralError(`-${literal}`, 'int64'), `number -${literal}`);
      assert.equal(integerLiteralError('9223372036854775807', 'int64'), 'exact');
    } finally {
      globalThis.BigInt = real;
    }
    assert.deepEqual(converted, [19], 'only the 19-digit literal was converted to a BigInt');
  });
});

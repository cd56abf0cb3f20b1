/**
 * api/json-integers.ts: the integers a double cannot hold (beyond 2^53, within int64), found in
 * JSON text with their places, in linear time; none where a double, a string, or kube's own
 * float64 reading (fraction, exponent, beyond int64) holds the value.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inexactIntegerOf, inexactIntegersOf } from '../../runtime/api/json-integers.js';
import { assertLinearGrowth } from '../support/linear-growth.js';

/** The literal and path of the first one (places are checked below). */
const at = (text: string) => {
  const found = inexactIntegerOf(text);
  return found && { literal: found.literal, path: found.path };
};

describe('json-integers', () => {
  it('finds the first integer a double cannot hold, and where it stands', () => {
    assert.deepEqual(at('{"spec":{"a":[1,{"b":9007199254740993}]}}'), { literal: '9007199254740993', path: 'spec.a[1].b' });
    assert.deepEqual(at('[{"op":"add","value":-9223372036854775807}]'), { literal: '-9223372036854775807', path: '[0].value' });
    assert.deepEqual(at('{"a\\"b":{"c":9007199254740995}}'), { literal: '9007199254740995', path: 'a"b.c' });
    // A double holds it, a string holds it, or kube reads it as float64 too (fraction, exponent, beyond int64).
    for (const text of [
      '{"a":9007199254740992}',
      '{"a":-9007199254740991}',
      '{"a":"9007199254740993","b:9007199254740993,":1}',
      '{"a":9007199254740993.0}',
      '{"a":9007199254740993e0}',
      '{"a":9223372036854775808}',
      '{"a":123456789012345678901234567890}',
      '{"a":1234567890123456}',
    ]) {
      assert.equal(inexactIntegerOf(text), undefined, text);
    }
  });

  it('scans a body of megabytes in linear time', () => {
    const numbers = (n: number) => `[${Array(n).fill('9007199254740992').join(',')}]`;
    const string = (n: number) => `{"a":"${'1'.repeat(n)}"}`;
    assert.equal(inexactIntegerOf(numbers(150_000)), undefined);
    assert.equal(inexactIntegerOf(string(3_000_000)), undefined);
    // As growth (up to 2.5 and 3 MB), not against a clock: see linear-growth.ts.
    assertLinearGrowth('many numbers', 18_750, numbers, (text) => assert.equal(inexactIntegerOf(text), undefined));
    assertLinearGrowth('a long string', 375_000, string, (text) => assert.equal(inexactIntegerOf(text), undefined));
  });

  it('lists every such integer with its places, in text order, up to a limit', () => {
    const text = '{"items":[{"metadata":{"uid":"u1"},"spec":{"a":9007199254740993}},{"spec":{"b":[1,9007199254740995]}}]}';
    assert.deepEqual(inexactIntegersOf(text), [
      { literal: '9007199254740993', path: 'items[0].spec.a', places: ['items', 0, 'spec', 'a'] },
      { literal: '9007199254740995', path: 'items[1].spec.b[1]', places: ['items', 1, 'spec', 'b', 1] },
    ]);
    assert.equal(inexactIntegersOf(text, 1).length, 1);
    assert.deepEqual(inexactIntegersOf('{"a":1}'), []);
  });
});

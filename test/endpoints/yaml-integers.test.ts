/**
 * A YAML body is read as kube reads it (sigs.k8s.io/yaml's goyaml.v2, YAML 1.1: resolve.go):
 * `017` is octal 15, `1_000` is 1000, `0b101` is 5, `0o17` and `0X1F` as Go's strconv.ParseInt
 * reads them, while base 60 (`1:30`, which v2 does not read) and timestamps stay strings. Its
 * integers beyond 2^53 are refused in every form it writes an integer, not only as a run of
 * digits (`_`, `0…` octal, signed hexadecimal), where the yaml package rounds them to a double.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../runtime/api/status.js';
import { parseYAMLText } from '../../runtime/endpoints/serializer.js';

const YAML11 = '%YAML 1.1\n---\n';
const refused = (text: string, literal: string, path: string) => {
  assert.throws(
    () => parseYAMLText(text),
    (err: unknown) => {
      assert.ok(err instanceof StatusError, String(err));
      assert.equal(err.status.code, 400);
      assert.equal(err.status.reason, 'BadRequest');
      assert.match(err.status.message!, new RegExp(`^yaml: number ${literal.replace(/[+]/g, '\\+')} at ${path.replace(/[[\].]/g, '\\$&')} cannot be kept exactly`));
      return true;
    },
    text,
  );
};

describe('inexactYAMLIntegerOf', () => {
  it('refuses a YAML 1.1 integer beyond 2^53 written with _, octal, binary or signed hexadecimal', () => {
    refused(`${YAML11}spec:\n  count: 9_007_199_254_740_993\n`, '9_007_199_254_740_993', 'spec.count');
    refused(`${YAML11}a: [1, -0x20000000000001]\n`, '-0x20000000000001', 'a[1]');
    refused(`${YAML11}a: +0x20000000000001\n`, '+0x20000000000001', 'a');
    // 2^53 + 1 as 1.1's leading-zero octal, and without a %YAML directive (every body is 1.1).
    refused(`${YAML11}a: 0400_000_000_000_000_001\n`, '0400_000_000_000_000_001', 'a');
    refused('a: 0o400000000000000001\n', '0o400000000000000001', 'a');
    refused('a: 9_007_199_254_740_993\n', '9_007_199_254_740_993', 'a');
    refused('a: 0xFFFF_FFFF_FFFF_FF\n', '0xFFFF_FFFF_FFFF_FF', 'a');
    // Base 60 is a string to goyaml.v2: not an integer, whatever its value.
    assert.deepEqual(parseYAMLText(`${YAML11}a: 53:37:35:32:22:29:43:36:33\n`).value, { a: '53:37:35:32:22:29:43:36:33' });
    refused(`${YAML11}a: 0b100000000000000000000000000000000000000000000000000001\n`, '0b100000000000000000000000000000000000000000000000000001', 'a');
  });

  it('keeps what a double holds in those forms', () => {
    assert.deepEqual(parseYAMLText(`${YAML11}a: [9_007_199_254_740_992, -0x20000000000000, 1:30, 0_17, 0b101]\n`).value, {
      a: [9007199254740992, -9007199254740992, '1:30', 15, 5],
    });
  });
});

describe('a YAML body\'s plain scalars, as goyaml.v2 resolves them', () => {
  /** text → what sigs.k8s.io/yaml hands kube's JSON decoder (resolve.go, then encoding/json). */
  const FORMS: ReadonlyArray<readonly [string, unknown]> = [
    ['017', 15], // strconv.ParseInt(s, 0, 64): a leading 0 is octal
    ['-017', -15],
    ['0_17', 15], // `_` removed first
    ['1_000', 1000],
    ['1__0', 10],
    ['0b101', 5],
    ['-0b11', -3],
    ['0B11', 3], // Go's prefixes in either case
    ['0o17', 15],
    ['0O17', 15],
    ['0x1F', 31],
    ['0X1f', 31],
    ['08', 8], // not octal: ParseFloat reads it
    ['+12', 12],
    ['1e3', 1000],
    ['.5', 0.5],
    ['1_000.5', 1000.5],
    ['1:30', '1:30'], // base 60: not read by v2
    ['2001-12-14', '2001-12-14'], // a timestamp's text, in an interface{}
    ['2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z'],
    ['~', null],
    ['Null', null],
    ['true', true],
    ['False', false],
    ['"017"', '017'],
    ['!!str 017', '017'],
  ];
  it('each form', () => {
    for (const [text, value] of FORMS) assert.deepEqual(parseYAMLText(`a: ${text}\n`).value, { a: value }, text);
  });

  it('merges `<<` as v2 does; yes, on and y stay strings (a documented difference: v2 reads booleans)', () => {
    assert.deepEqual(parseYAMLText('base: &b {x: 1}\nm:\n  <<: *b\n  y: 2\n').value, { base: { x: 1 }, m: { x: 1, y: 2 } });
    assert.deepEqual(parseYAMLText('a: [yes, on, y, no, off, n]\n').value, { a: ['yes', 'on', 'y', 'no', 'off', 'n'] });
  });
});

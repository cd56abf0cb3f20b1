/**
 * A YAML body's integers beyond 2^53 are refused in every form YAML writes an integer, not only
 * as a run of digits: a `%YAML 1.1` document may write them with `_`, in base 60, as `0…` octal
 * or as signed hexadecimal, where the yaml package rounds them to a double as well.
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
  it('refuses a YAML 1.1 integer beyond 2^53 written with _, in base 60, octal or signed hexadecimal', () => {
    refused(`${YAML11}spec:\n  count: 9_007_199_254_740_993\n`, '9_007_199_254_740_993', 'spec.count');
    refused(`${YAML11}a: [1, -0x20000000000001]\n`, '-0x20000000000001', 'a[1]');
    refused(`${YAML11}a: +0x20000000000001\n`, '+0x20000000000001', 'a');
    // 2^53 + 1 in base 60 (no run of digits in the text) and as 1.1's leading-zero octal.
    refused(`${YAML11}a: 53:37:35:32:22:29:43:36:33\n`, '53:37:35:32:22:29:43:36:33', 'a');
    refused(`${YAML11}a: 0400_000_000_000_000_001\n`, '0400_000_000_000_000_001', 'a');
    refused(`${YAML11}a: 0b100000000000000000000000000000000000000000000000000001\n`, '0b100000000000000000000000000000000000000000000000000001', 'a');
  });

  it('keeps what a double holds in those forms', () => {
    assert.deepEqual(parseYAMLText(`${YAML11}a: [9_007_199_254_740_992, -0x20000000000000, 1:30, 0_17, 0b101]\n`).value, {
      a: [9007199254740992, -9007199254740992, 90, 15, 5],
    });
  });
});

/**
 * metav1.Time / MicroTime text as kube writes it back (time.go, micro_time.go): Go's
 * time.Parse(RFC3339) then UTC, truncated to seconds or to six fraction digits.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalMicroTime, canonicalTime, goTimeParseError, hasCanonicalShape } from '../../runtime/api/time.js';

describe('canonicalTime', () => {
  it('writes UTC at second precision, truncating the fraction and applying the offset', () => {
    assert.equal(canonicalTime('2024-01-01T00:00:00Z'), '2024-01-01T00:00:00Z');
    assert.equal(canonicalTime('2024-01-01T00:00:00.999999999Z'), '2024-01-01T00:00:00Z');
    assert.equal(canonicalTime('2024-01-01T02:00:00+02:00'), '2024-01-01T00:00:00Z');
    assert.equal(canonicalTime('2023-12-31T23:30:00,5-01:00'), '2024-01-01T00:30:00Z');
    assert.equal(canonicalTime('2024-02-29T00:00:00Z'), '2024-02-29T00:00:00Z');
  });

  it('refuses what Go’s parser refuses', () => {
    for (const bad of ['2024-01-01', '2024-01-01t00:00:00Z', '2024-01-01T00:00:00z', '2024-02-30T00:00:00Z', '2024-01-01T24:00:00Z', '2024-01-01T00:00:00', 'x']) {
      assert.equal(canonicalTime(bad), undefined, bad);
    }
  });
});

describe('canonicalMicroTime', () => {
  it('writes UTC with six fraction digits', () => {
    assert.equal(canonicalMicroTime('2024-01-01T00:00:00.123456Z'), '2024-01-01T00:00:00.123456Z');
    assert.equal(canonicalMicroTime('2024-01-01T01:00:00.000001+01:00'), '2024-01-01T00:00:00.000001Z');
  });

  it('pads or truncates any other fraction to six digits (kube’s reader refuses those with a 400)', () => {
    assert.equal(canonicalMicroTime('2024-01-01T00:00:00Z'), '2024-01-01T00:00:00.000000Z');
    assert.equal(canonicalMicroTime('2024-01-01T00:00:00.123Z'), '2024-01-01T00:00:00.123000Z');
    assert.equal(canonicalMicroTime('2024-01-01T00:00:00.123456789Z'), '2024-01-01T00:00:00.123456Z');
    assert.equal(canonicalMicroTime('2024-01-01'), undefined);
  });
});

describe('hasCanonicalShape', () => {
  it('is true only where canonicalTime / canonicalMicroTime would change nothing', () => {
    for (const [value, micro] of [['2024-01-01T00:00:00Z', false], ['2024-01-01T00:00:00.123456Z', true]] as const) {
      assert.equal(hasCanonicalShape(value, micro), true);
      assert.equal((micro ? canonicalMicroTime : canonicalTime)(value), value);
    }
    for (const [value, micro] of [['2024-01-01T00:00:00.1Z', false], ['2024-01-01T00:00:00Z', true], ['2024-01-01T00:00:00+00:00', false], ['2024-01-01 00:00:00Z', false]] as const) {
      assert.equal(hasCanonicalShape(value, micro), false, value);
    }
  });
});

describe('goTimeParseError: Go time.Parse\'s errors for RFC3339 and RFC3339Micro', () => {
  it('reads what Go reads and words the rest as Go does', () => {
    assert.equal(goTimeParseError('2024-01-01T00:00:00Z', false), undefined);
    assert.equal(goTimeParseError('2024-01-01T00:00:00.5+02:00', false), undefined);
    assert.equal(goTimeParseError('2024-02-29T23:59:59-00:30', false), undefined);
    assert.equal(goTimeParseError('2024-01-01T00:00:00.000001Z', true), undefined);
    assert.equal(goTimeParseError('2024-01-01T00:00:00.123Z', true), 'parsing time "2024-01-01T00:00:00.123Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".123Z" as ".000000"');
    assert.equal(goTimeParseError('', false), 'parsing time "" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "2006"');
    assert.equal(goTimeParseError('2024-01-01T24:00:00Z', false), 'parsing time "2024-01-01T24:00:00Z": hour out of range');
    assert.equal(goTimeParseError('2024-01-01T00:60:00Z', false), 'parsing time "2024-01-01T00:60:00Z": minute out of range');
    assert.equal(goTimeParseError('2024-01-01T00:00:00+25:00', false), 'parsing time "2024-01-01T00:00:00+25:00": time zone offset hour out of range');
    assert.equal(goTimeParseError('2024-1-01T00:00:00Z', false), 'parsing time "2024-1-01T00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "1-01T00:00:00Z" as "01"');
    assert.equal(goTimeParseError('2024-01-01T00:00:00Zé', false), 'parsing time "2024-01-01T00:00:00Z\\xc3\\xa9": extra text: "\\xc3\\xa9"');
  });
});

/** String formats: date-time's quick answer for kgen's own timestamps agrees with the general check. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDate, isDateTime } from '../../runtime/validation/formats.js';

/** strfmt.IsDateTime as the general path checks it (split at 't', regular expressions). */
function reference(value: string): boolean {
  if (value.length < 4) return false;
  const parts = value.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0]!)) return false;
  const m = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/.exec(parts[1]!);
  if (!m) return false;
  return m[1]! <= '23' && m[2]! <= '59' && m[3]! <= '59';
}

describe('date-time format', () => {
  it('accepts and rejects what the general check does', () => {
    const fixed = [
      '2026-11-22T04:05:06Z', '2026-11-22t04:05:06z', '2024-02-29T00:00:00Z', '2023-02-29T00:00:00Z', '1900-02-29T00:00:00Z',
      '2000-02-29T23:59:59Z', '2026-13-01T00:00:00Z', '2026-00-10T00:00:00Z', '2026-04-31T00:00:00Z', '2026-04-00T00:00:00Z',
      '2026-11-22T24:00:00Z', '2026-11-22T23:60:00Z', '2026-11-22T23:59:60Z', '2026-11-22 04:05:06Z', '2026-11-22T04:05:06+',
      '2026-11-22T04:05:06.5Z', '2026-11-22T04:05:06+01:00', '２026-11-22T04:05:06Z', '2026-1a-22T04:05:06Z', '0000-01-01T00:00:00Z',
    ];
    for (const v of fixed) assert.equal(isDateTime(v), reference(v), v);
    // Random strings of the canonical length over the characters that matter.
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const chars = '0123456789-:TtZz+. x';
    for (let n = 0; n < 20000; n++) {
      const base = [...'2026-11-22T04:05:06Z'];
      for (let k = next() % 4; k > 0; k--) base[next() % 20] = chars[next() % chars.length]!;
      const v = base.join('');
      assert.equal(isDateTime(v), reference(v), v);
    }
  });
});

/**
 * Go durations (runtime/api/duration.ts) against Go's own tables: time_test.go's
 * parseDurationTests, parseDurationErrorTests and durationTests (Duration.String).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DurationError, formatGoDuration, formatGoDurationNanos, parseGoDuration, parseGoDurationNanos } from '../../runtime/api/duration.js';

const NS = 1n;
const US = 1_000n * NS;
const MS = 1_000n * US;
const S = 1_000n * MS;
const MIN = 60n * S;
const H = 60n * MIN;
const MAX = (1n << 63n) - 1n;
const MIN_INT64 = -(1n << 63n);

describe('parseGoDuration (Go parseDurationTests)', () => {
  const table: Array<[string, bigint]> = [
    // simple
    ['0', 0n],
    ['5s', 5n * S],
    ['30s', 30n * S],
    ['1478s', 1478n * S],
    // sign
    ['-5s', -5n * S],
    ['+5s', 5n * S],
    ['-0', 0n],
    ['+0', 0n],
    // decimal
    ['5.0s', 5n * S],
    ['5.6s', 5n * S + 600n * MS],
    ['5.s', 5n * S],
    ['.5s', 500n * MS],
    ['1.0s', 1n * S],
    ['1.00s', 1n * S],
    ['1.004s', 1n * S + 4n * MS],
    ['1.0040s', 1n * S + 4n * MS],
    ['100.00100s', 100n * S + 1n * MS],
    // different units
    ['10ns', 10n * NS],
    ['11us', 11n * US],
    ['12µs', 12n * US], // U+00B5
    ['12μs', 12n * US], // U+03BC
    ['13ms', 13n * MS],
    ['14s', 14n * S],
    ['15m', 15n * MIN],
    ['16h', 16n * H],
    // composite durations
    ['3h30m', 3n * H + 30n * MIN],
    ['10.5s4m', 4n * MIN + 10n * S + 500n * MS],
    ['-2m3.4s', -(2n * MIN + 3n * S + 400n * MS)],
    ['1h2m3s4ms5us6ns', 1n * H + 2n * MIN + 3n * S + 4n * MS + 5n * US + 6n * NS],
    ['39h9m14.425s', 39n * H + 9n * MIN + 14n * S + 425n * MS],
    // large value
    ['52763797000ns', 52763797000n * NS],
    // more than 9 digits after decimal point, see https://golang.org/issue/6617
    ['0.3333333333333333333h', 20n * MIN],
    // 9007199254740993 = 1<<53+1 cannot be stored precisely in a float64
    ['9007199254740993ns', ((1n << 53n) + 1n) * NS],
    // largest duration that can be represented by int64 in nanoseconds
    ['9223372036854775807ns', MAX],
    ['9223372036854775.807us', MAX],
    ['9223372036s854ms775us807ns', MAX],
    ['-9223372036854775808ns', MIN_INT64],
    ['-9223372036854775.808us', MIN_INT64],
    ['-9223372036s854ms775us808ns', MIN_INT64],
    // largest negative round trip value, see https://golang.org/issue/48629
    ['-2562047h47m16.854775808s', MIN_INT64],
    // huge string; issue 15011.
    ['0.100000000000000000000h', 6n * MIN],
    // This value tests the first overflow check in leadingFraction.
    ['0.830103483285477580700h', 49n * MIN + 48n * S + 372539827n * NS],
  ];
  for (const [input, want] of table) {
    it(input, () => assert.equal(parseGoDurationNanos(input), want));
  }

  it('gives milliseconds, fractions kept', () => {
    assert.equal(parseGoDuration('1m30s'), 90_000);
    assert.equal(parseGoDuration('1.5h'), 5_400_000);
    assert.equal(parseGoDuration('1500us'), 1.5);
    assert.equal(parseGoDuration('-2s'), -2000);
    assert.equal(parseGoDuration('9223372036854775807ns'), 9223372036854.775807);
  });
});

describe('parseGoDuration errors (Go parseDurationErrorTests)', () => {
  const invalid: Array<[string, string]> = [
    ['', '""'],
    ['3', '"3"'],
    ['-', '"-"'],
    ['s', '"s"'],
    ['.', '"."'],
    ['-.', '"-."'],
    ['.s', '".s"'],
    ['+.s', '"+.s"'],
    ['1d', '"1d"'],
    ['\uFFFD', '"\\xef\\xbf\\xbd"'],
    ['\uFFFD hello \uFFFD world', '"\\xef\\xbf\\xbd hello \\xef\\xbf\\xbd world"'],
    // overflow
    ['9223372036854775810ns', '"9223372036854775810ns"'],
    ['9223372036854775808ns', '"9223372036854775808ns"'],
    ['-9223372036854775809ns', '"-9223372036854775809ns"'],
    ['9223372036854776us', '"9223372036854776us"'],
    ['3000000h', '"3000000h"'],
    ['9223372036854775.808us', '"9223372036854775.808us"'],
    ['9223372036854ms775us808ns', '"9223372036854ms775us808ns"'],
  ];
  for (const [input, quoted] of invalid) {
    it(JSON.stringify(input), () => {
      assert.throws(
        () => parseGoDurationNanos(input),
        (err: unknown) => err instanceof DurationError && err.message.includes(quoted),
      );
    });
  }

  it("words each error as Go's ParseDuration does", () => {
    const cases: Array<[string, string]> = [
      ['', 'time: invalid duration ""'],
      ['5', 'time: missing unit in duration "5"'],
      ['1.', 'time: missing unit in duration "1."'],
      ['5d', 'time: unknown unit "d" in duration "5d"'],
      ['5 m', 'time: unknown unit " m" in duration "5 m"'],
      ['5mm', 'time: unknown unit "mm" in duration "5mm"'],
      ['1h-2m', 'time: unknown unit "h-" in duration "1h-2m"'],
      [' 5s', 'time: invalid duration " 5s"'],
      ['12µ', 'time: unknown unit "\\xc2\\xb5" in duration "12\\xc2\\xb5"'],
      ['1"s', 'time: unknown unit "\\"s" in duration "1\\"s"'],
      ['3000000h', 'time: invalid duration "3000000h"'],
    ];
    for (const [input, message] of cases) assert.throws(() => parseGoDuration(input), { message }, input);
  });
});

describe('formatGoDuration (Go durationTests)', () => {
  const table: Array<[string, bigint]> = [
    ['0s', 0n],
    ['1ns', 1n * NS],
    ['1.1µs', 1100n * NS],
    ['2.2ms', 2200n * US],
    ['3.3s', 3300n * MS],
    ['4m5s', 4n * MIN + 5n * S],
    ['4m5.001s', 4n * MIN + 5001n * MS],
    ['5h6m7.001s', 5n * H + 6n * MIN + 7001n * MS],
    ['8m0.000000001s', 8n * MIN + 1n * NS],
    ['2562047h47m16.854775807s', MAX],
    ['-2562047h47m16.854775808s', MIN_INT64],
  ];
  for (const [want, d] of table) {
    it(want, () => assert.equal(formatGoDurationNanos(d), want));
  }

  it('prints milliseconds as kube prints flag defaults', () => {
    assert.deepEqual([0, 500, 30_000, 60_000, 120_000, 5_400_000, 1500, 1.5, 0.0015, -2000].map(formatGoDuration), ['0s', '500ms', '30s', '1m0s', '2m0s', '1h30m0s', '1.5s', '1.5ms', '1.5µs', '-2s']);
  });

  it('round-trips through parseGoDuration', () => {
    for (const [, d] of table) assert.equal(parseGoDurationNanos(formatGoDurationNanos(d)), d);
  });
});

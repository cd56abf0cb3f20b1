/**
 * Quantity's canonical text (apimachinery resource.Quantity String/MarshalJSON over
 * CanonicalizeBytes), with the cases of apimachinery's own tests (quantity_test.go:
 * TestQuantityString, TestQuantityParseEmit, TestJSONWhitespace, TestQuantityParse).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isCanonicalQuantity, parseQuantity, quantityString } from '../../runtime/validation/cel-quantity.js';

const canonical = (text: string) => quantityString(parseQuantity(text));

describe('quantityString, as apimachinery writes a parsed Quantity', () => {
  it('TestQuantityString: canonical text is kept as parsed, its alternates are written canonically', () => {
    // [canonical, alternate]: ParseQuantity(canonical) keeps the text; String() of the alternate is the canonical.
    const table: [string, string][] = [
      ['1Gi', '1024Mi'],
      ['300Mi', '307200Ki'],
      ['6Ki', ''],
      ['1001Gi', '1025024Mi'],
      ['1Ti', '1024Gi'],
      ['5', '5000m'],
      ['500m', '0.5'],
      ['1G', '1000M'],
      ['1G', '0.001T'],
      ['1m', '1000u'],
      ['80m', ''],
      ['1080m', '1.08'],
      ['1080m', '1080000000n'],
      ['300M', ''],
      ['1T', ''],
      ['1234567M', ''],
      ['1234567m', ''],
      ['3k', ''],
      ['1025', ''],
      ['0', '00'],
      ['1e9', '.001e12'],
      ['1e-3', '0.001e0'],
      ['1e-9', '1000e-12'],
      ['80e-3', ''],
      ['300e6', ''],
      ['1e12', ''],
      ['1e3', ''],
      ['3e3', ''],
      ['1n', ''],
      ['80n', ''],
      ['1080n', ''],
      ['1u', ''],
      ['80u', ''],
      ['1080u', ''],
    ];
    for (const [expect, alternate] of table) {
      const q = parseQuantity(expect);
      assert.equal(q.s, expect, `${expect} keeps its text`);
      assert.equal(quantityString(q), expect);
      if (alternate === '') continue;
      assert.equal(parseQuantity(alternate).s, undefined, `${alternate} is not canonical`);
      assert.equal(canonical(alternate), expect, alternate);
      if (expect !== '0') assert.equal(canonical(`-${alternate}`), `-${expect}`, `-${alternate}`);
    }
  });

  it('TestQuantityParseEmit', () => {
    const table: [string, string][] = [
      ['1Ki', '1Ki'],
      ['1Mi', '1Mi'],
      ['1Gi', '1Gi'],
      ['1024Mi', '1Gi'],
      ['1000M', '1G'],
      ['.001Ki', '1024m'],
      ['.000001Ki', '1024u'],
      ['.000000001Ki', '1024n'],
      ['.000000000001Ki', '2n'],
    ];
    for (const [input, expect] of table) {
      assert.equal(canonical(input), expect, input);
      assert.equal(canonical(`-${input}`), `-${expect}`, `-${input}`);
    }
  });

  it('TestQuantityParse: the values of its table, written canonically', () => {
    const table: [string, string][] = [
      ['0n', '0'],
      ['0Ki', '0'],
      ['50k', '50k'],
      ['40T', '40T'],
      ['1E', '1E'],
      ['1E-3', '1E-3'], // canonical already: the text is kept
      ['1E6', '1E6'],
      ['1e14', '100e12'],
      ['1e13', '10e12'],
      ['100.035k', '100.035k'], // canonical in ParseQuantity's eyes: kept
      ['0.0005k', '500m'],
      ['0.5e0', '500e-3'],
      ['0.5e-1', '50e-3'],
      ['10.035M', '10.035M'],
      ['1.2e3', '1200'],
      ['1.3E+6', '1300e3'],
      ['1.7E18', '1700e15'],
      ['9.01', '9010m'],
      ['5.444T', '5.444T'],
      ['2.5P', '2500T'],
      ['1.01E', '1010P'],
      ['3.001n', '4n'],
      ['1.1E-9', '2e-9'],
      ['0.0000000005', '1n'],
      ['0.00000012345', '124n'],
      ['9Ei', '9223372036854775807'], // capped at MaxInt64, odd: no binary suffix
      ['12E', '12E'],
      ['100.035Ki', '102435840m'],
      ['0.5Mi', '512Ki'],
      ['0.05Gi', '53687091200m'],
      ['0.000000000001Ki', '2n'],
      ['.0001k', '100m'],
      ['1.', '1.'], // kept as parsed, as apimachinery keeps it
      ['1.G', '1.G'],
    ];
    for (const [input, expect] of table) assert.equal(canonical(input), expect, input);
  });

  it('TestJSONWhitespace and the JSON numbers a body may hold', () => {
    // UnmarshalJSON: ParseQuantity(TrimSpace(text)), a number's literal as its text.
    for (const [input, expect] of [
      ['1', '1'],
      ['10', '10'],
      ['-1', '-1'],
      ['0.5', '500m'],
      ['1000', '1k'],
      ['1.5Gi', '1536Mi'],
      ['1000Mi', '1000Mi'],
      ['1e3', '1e3'],
      ['2', '2'],
    ]) {
      assert.equal(canonical(input!), expect, input);
    }
  });
});

describe('isCanonicalQuantity: the shortcut agrees with quantityString', () => {
  it('for every text of the tables above and many common ones', () => {
    const texts = ['500m', '2', '128Mi', '64Mi', '1Ki', '1024Ki', '1000', '100', '1000m', '10', '999999Ti', '1048576Ki', '8Ki', '0', '01', '1.5', '1e3', '1E', '12E', '1000E', '250m', '1Pi', '1000000000000000000', '123456789012345678', '1234567890123456789', '7Ti', '1024Gi', '3u', '1000n', 'Mi', '1ki', '1Ei'];
    for (let n = 1; n < 3000; n += 7) for (const suffix of ['', 'm', 'k', 'Ki', 'Mi', 'Gi']) texts.push(`${n}${suffix}`);
    for (const text of texts) {
      let canonicalText: string | undefined;
      try {
        canonicalText = canonical(text);
      } catch {
        canonicalText = undefined;
      }
      if (isCanonicalQuantity(text)) assert.equal(canonicalText, text, text);
    }
    assert.ok(isCanonicalQuantity('500m') && isCanonicalQuantity('128Mi') && isCanonicalQuantity('2'));
  });
});

/**
 * bin/loader/bundle.js asciiOnly: kgen's bundles are written in ASCII where that only changes
 * comments (a one-byte string for V8), and left as they are where an escape would change the
 * program (a tagged template's raw text, a regular expression's source).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import vm from 'node:vm';
// @ts-expect-error bin/ is plain JavaScript without declarations.
import { asciiOnly } from '../../../bin/loader/bundle.js';

const ascii = asciiOnly as (text: string) => string;

describe('asciiOnly', () => {
  it('escapes the non-ASCII characters of comment lines', () => {
    const text = '/**\n * at most ≤ 5 → more …\n */\nconst x = 1; // plain\n  // nested ≤\n';
    const out = ascii(text);
    assert.doesNotMatch(out, /[^\x00-\x7f]/);
    assert.equal(out, text.replace('≤ 5 → more …', '\\u2264 5 \\u2192 more \\u2026').replace('nested ≤', 'nested \\u2264'));
  });

  it('leaves a text whose non-ASCII characters are in code as it is: String.raw and regex sources keep their value', () => {
    const text = '// ≤\nglobalThis.r = String.raw`a→b`;\nglobalThis.s = /é+/u.source;\n';
    assert.equal(ascii(text), text);
    const context: Record<string, unknown> = {};
    vm.runInNewContext(ascii(text), context);
    assert.equal(context.r, 'a→b');
    assert.equal(context.s, 'é+');
  });

  it('returns an ASCII text unchanged', () => {
    assert.equal(ascii('const a = "\\u2192";\n'), 'const a = "\\u2192";\n');
  });
});

/**
 * Differential test of re2.ts against re2js, a port of RE2 with Go's regexp semantics (the
 * reference kube's schema patterns are matched with): seeded random Go patterns (flags, scoped
 * flags, Perl, ASCII and Unicode classes, assertions, repeats, alternations) must compile where
 * re2js compiles them and answer the same on random values built from characters where the two
 * engines could differ (case-folding pairs such as K/U+212A, ſ/s, ß/ẞ, non-ASCII letters, line
 * ends). One known difference is left out: V8 matches `\B` inside an astral character (between
 * its two UTF-16 halves), so the values hold none. FUZZ_SEED / FUZZ_COUNT replay or widen a run.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import type { RE2JS as RE2JSType } from 're2js';
import { compileRE2, RE2SyntaxError } from '../../runtime/validation/re2.js';
import { random } from '../security/fuzz-requests.js';

const { RE2JS } = createRequire(import.meta.url)('re2js') as { RE2JS: typeof RE2JSType };
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_127);
const COUNT = Number(process.env.FUZZ_COUNT ?? 3_000);

const ATOMS = ['a', 'b', 'A', 'K', 'k', '\u212a', 'ß', 'ſ', 's', 'S', '.', '\\d', '\\w', '\\s', '\\S', '\\W', '\\D', '[a-c]', '[^a]', '[[:alpha:]]', '[[:^digit:]]', '[[:^alpha:]]', '\\pL', '\\p{Greek}', '\\PL', 'é', 'É', '\\n', '-', '_', '[\\d-z]', '\\x{41}', '\\Qa.b\\E', '\\b', '\\B', '^', '$', '\\A', '\\z', '[k]', '[K-k]', '[^\\n]', '\\.', '[\\W]', '[^\\w]'];
const REPEATS = ['*', '+', '?', '{2}', '{1,3}', '*?', '+?'];
const FLAGS = ['', '(?i)', '(?s)', '(?m)', '(?U)', '(?is)', '(?im)'];
const GROUPS = ['', '?i:', '?:', '?-i:', '?s:'];
const CHARS = ['a', 'b', 'A', 'k', 'K', '\u212a', 's', 'S', 'ſ', 'ß', '\u1e9e', 'é', 'É', '\n', ' ', '1', '_', '-', '.', 'α', 'Ω', '\u2126', '\u00a0', '\t', '\r'];

describe('schema patterns against re2js (Go semantics)', () => {
  it(`compile and match as Go does (seed ${SEED}, ${COUNT} patterns)`, () => {
    const rand = random(SEED);
    const pick = <T>(a: readonly T[]): T => a[Math.floor(rand() * a.length)]!;
    const gen = (depth: number): string => {
      const r = rand();
      if (depth <= 0 || r < 0.4) return pick(ATOMS) + (rand() < 0.3 ? pick(REPEATS) : '');
      if (r < 0.6) return gen(depth - 1) + gen(depth - 1);
      if (r < 0.75) return `(${pick(GROUPS)}${gen(depth - 1)}|${gen(depth - 1)})${rand() < 0.4 ? pick(['*', '+', '?']) : ''}`;
      return `${pick(FLAGS)}${gen(depth - 1)}`;
    };
    const problems: string[] = [];
    for (let i = 0; i < COUNT && problems.length < 10; i++) {
      const pattern = gen(3);
      let ours: RegExp | undefined;
      let go: RE2JSType | undefined;
      try {
        ours = compileRE2(pattern);
      } catch (err) {
        if (!(err instanceof RE2SyntaxError)) throw err;
      }
      try {
        go = RE2JS.compile(pattern);
      } catch {
        go = undefined;
      }
      if (!ours !== !go) {
        problems.push(`${JSON.stringify(pattern)}: compiles ${ours ? 'here' : 'in Go'} only`);
        continue;
      }
      if (!ours || !go) continue;
      for (let j = 0; j < 8; j++) {
        const value = Array.from({ length: Math.floor(rand() * 6) }, () => pick(CHARS)).join('');
        if (ours.test(value) !== go.test(value)) {
          problems.push(`${JSON.stringify(pattern)} on ${JSON.stringify(value)}: ${ours.test(value)} here, ${go.test(value)} in Go`);
          break;
        }
      }
    }
    assert.deepEqual(problems, []);
  });
});

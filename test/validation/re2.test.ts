/**
 * Schema `pattern`s are Go (RE2) regular expressions: re2.ts translates what differs from JS and
 * refuses what Go refuses, with Go's messages; the schema validator uses it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mayBacktrackSuperLinearly } from '../../runtime/validation/re2-ambiguity.js';
import { compileRE2, compiledRE2Size, RE2SyntaxError, translateRE2 } from '../../runtime/validation/re2.js';

const mayBacktrack = (p: string): boolean => mayBacktrackSuperLinearly(translateRE2(p).source, translateRE2(p).flags);
import { compileSchemaValidator } from '../../runtime/validation/index.js';
import { v8RunsOf } from '../support/v8-regexp-runs.js';

function matches(pattern: string, yes: string[], no: string[]): void {
  const re = compileRE2(pattern);
  for (const s of yes) assert.ok(re.test(s), `${pattern} should match ${JSON.stringify(s)} (${re})`);
  for (const s of no) assert.ok(!re.test(s), `${pattern} should not match ${JSON.stringify(s)} (${re})`);
}

describe('RE2 patterns', () => {
  it('turns leading flags into JS flags (prometheus-operator: ^(?i)(abort|warn)?$)', () => {
    matches('^(?i)(abort|warn)?$', ['ABORT', 'warn', 'Warn', ''], ['x', 'abortx']);
    assert.equal(translateRE2('^(?i)(abort|warn)?$').flags, 'iu');
    matches('(?i)^[a-z]+$', ['AbC'], ['a1']);
  });

  it('rewrites s and m flags and Go\'s `.`, `^`, `$`, \\A and \\z', () => {
    matches('^(?s)a.b$', ['a\nb'], []);
    matches('^a.b$', ['a\rb', 'a\u2028b'], ['a\nb']);
    matches('(?m)^b$', ['a\nb\nc'], ['a\rb\rc']);
    matches('^abc$', ['abc'], ['abc\n']);
    matches('\\Aabc\\z', ['abc'], ['abc\n', 'xabc']);
  });

  it('scopes flags to their group and case-folds there only', () => {
    matches('^a(?i)b$', ['aB', 'ab'], ['AB']);
    matches('^a(?i:b)c$', ['aBc'], ['aBC', 'ABc']);
    matches('^(?i)a(?-i)b$', ['Ab'], ['AB']);
    matches('^x(?i)[^k]$', ['xa'], ['xK', 'xk', 'x\u212a']);
    matches('(?U)^(a+)$', ['aaa'], []);
  });

  it('translates named groups, \\Q…\\E, hex, octal and escaped punctuation', () => {
    matches('^(?P<name>[a-z]+)-(?<v>\\d+)$', ['x-1'], ['x-']);
    matches('^\\Qa.b*\\E$', ['a.b*'], ['axb']);
    matches('^\\x{41}\\x42\\103$', ['ABC'], []);
    matches('^a\\:b\\-c\\/d\\"$', ['a:b-c/d"'], []);
    matches('^a{,2}}$', ['a{,2}}'], ['aa']);
  });

  it('uses Go\'s ASCII classes: \\s, \\d, \\w and [[:name:]]', () => {
    matches('^\\s+$', [' \t\n\r\f'], ['\v', '\u00a0']);
    matches('^[\\S]+$', ['\u00a0a\v'], [' ']);
    matches('^[[:alpha:]_]+$', ['ab_C'], ['a1']);
    matches('^[[:^digit:]]+$', ['ab'], ['a1']);
    matches('^\\pL+\\p{Greek}$', ['aα'], ['a1']);
    matches('^[]a]+$', [']a'], ['b']);
  });

  it('case-folds under (?i) as Go does: Perl and ASCII classes folded before their negation, \\b ASCII, ß with ẞ', () => {
    // Go's answers (re2js agrees). K is U+212A (Kelvin), ſ U+017F (long s): they fold to k and s.
    matches('^(?i)\\w$', ['k', '\u212a', '\u017f'], ['-']);
    matches('^(?i)\\W$', ['-'], ['\u212a', '\u017f', 'k']);
    matches('^(?i)[[:^alpha:]]$', ['1'], ['\u212a', '\u017f']);
    matches('^(?i)[\\W]$', ['-'], ['\u212a']);
    // Without (?i), \W holds K, and a later (?i) does not fold it into k.
    matches('^\\W(?i)a$', ['\u212aA', '-a'], ['ka', 'Ka']);
    matches('^[[:^alpha:]](?i)a$', ['\u017fa'], ['sa']);
    // \b is ASCII in Go, whatever the flags (a JS RegExp with i and u counts K as a word character).
    matches('(?i)a\\b', ['a\u212a', 'A-'], ['ab']);
    matches('^(?i)a\\B', [], ['a\u212a']);
    matches('^(?i)ß$', ['ß', '\u1e9e'], ['s']);
  });

  it('repeats an assertion as Go does (`^*`, `\\b+`, `$?`: each matches empty), where a JS `u` RegExp refuses a bare one', () => {
    matches('^*abc$*', ['abc', 'xabcx'], ['ab']);
    matches('a\\b+', ['a-', 'a'], ['ab']);
    matches('^x\\B{2}y$', ['xy'], ['x-y']);
    matches('(?m)^*a\\z?$', ['a', 'b\na'], ['ab']);
  });

  it('refuses what Go refuses, with Go\'s messages', () => {
    const refused: [string, string][] = [
      ['(?=a)', 'invalid or unsupported Perl syntax: `(?=`'],
      ['a**', 'invalid nested repetition operator: `**`'],
      ['+', 'missing argument to repetition operator: `+`'],
      ['(a)\\1', 'invalid escape sequence: `\\1`'],
      ['(a', 'missing closing ): `(a`'],
      ['a)', 'unexpected ): `a)`'],
      ['[a', 'missing closing ]: `[a`'],
      ['x{1001}', 'invalid repeat count: `{1001}`'],
      ['a\\Z', 'invalid escape sequence: `\\Z`'],
      ['[z-a]', 'invalid character class range: `z-a`'],
    ];
    for (const [pattern, reason] of refused) {
      assert.throws(() => compileRE2(pattern), { message: `error parsing regexp: ${reason}` }, pattern);
    }
  });

  it('validates values against a Go pattern in a schema', () => {
    const schemas = { Thing: { type: 'object', properties: { mode: { type: 'string', pattern: '^(?i)(abort|warn)?$' }, bad: { type: 'string', pattern: '(?=x)' } } } };
    const v = compileSchemaValidator(schemas as never, 'Thing');
    assert.deepEqual(v.validate({ mode: 'Abort' }), []);
    const [mode, ...rest] = v.validate({ mode: 'stop' });
    assert.deepEqual(rest, []);
    assert.equal(mode!.message, `Invalid value: "stop": mode in body should match '^(?i)(abort|warn)?$'`);
    // A pattern Go refuses fails the value with Go's reason, as kube-openapi reports it.
    const [bad] = v.validate({ bad: 'x' });
    assert.equal(bad!.message, 'Invalid value: "x": bad in body should match \'(?=x), but pattern is invalid: error parsing regexp: invalid or unsupported Perl syntax: `(?=`\'');
  });
});

describe('compileRE2 keeps what it compiled', () => {
  it('the same pattern gives the same (stateless) RegExp, and a bad one the same error, without translating again', () => {
    const pattern = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
    const re = compileRE2(pattern);
    assert.equal(compileRE2(pattern), re);
    assert.equal(re.global || re.sticky, false);
    assert.equal(re.test('abc') && re.test('abc'), true);
    let first: unknown;
    assert.throws(() => compileRE2('a(b'), (err) => ((first = err), err instanceof RE2SyntaxError));
    assert.throws(() => compileRE2('a(b'), (err) => err === first);
  });

  it('refuses a pattern too large for the engine when compiling it, not when a value is tested later', () => {
    // V8 accepts `new RegExp` of a 100,000-character literal and throws "Regular expression too
    // large" at its first use: that would be an exception in every validation against the pattern.
    assert.throws(() => compileRE2(`^${'b'.repeat(100_000)}$`), (err) => err instanceof RE2SyntaxError && /too large/.test((err as Error).message));
    const fine = compileRE2(`^${'c'.repeat(5_000)}$`);
    assert.equal(fine.test('c'.repeat(5_000)), true);
    assert.equal(fine.test('\u0100'), false);
  });

  it('keeps a bounded amount of pattern text: long patterns of CRDs a server is given do not pile up', () => {
    // 150 patterns of 9,000 characters each: 1,350,000 characters offered, at most 1,000,000 kept.
    for (let i = 0; i < 150; i++) compileRE2(`^${String(i).padStart(3, '0')}${'a'.repeat(8_995)}$`);
    const size = compiledRE2Size();
    assert.ok(size.chars <= 1_000_000, `${size.chars} characters of pattern text kept`);
    assert.ok(size.patterns >= 1 && size.patterns <= 112);
  });
});

describe('patterns V8 would backtrack exponentially on', () => {
  // Go matches in linear time; V8 backtracks. ^(a+)+$ on 27 "a"s and a "!" took 0.6 s of the
  // server's only thread, 35 took minutes: a custom resource value could stop the server.
  const risky = ['^(a+)+$', '^(a|a)*$', '^([a-z0-9]+(-[a-z0-9]+)*)+$', '(?:a*b?)+', '^(\\d+){2,}$', '^(x|y+){3,5}z$'];
  // ^((ab)*c)+$ nests a repeat but has one way to go at each step (no two paths on one value): safe.
  const safe = ['^((ab)*c)+$', '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', '^(a+)?$', '^[(+)*]+$', '^\\(a+\\)+$', '^(ab){2}$', '^(?i)(abort|warn)?$', '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$'];

  it('finds a repeated group that can match one value in two ways, and not the others', () => {
    for (const p of risky) assert.equal(mayBacktrack(p), true, p);
    for (const p of safe) assert.equal(mayBacktrack(p), false, p);
  });

  it('matches such patterns in linear time, with Go\'s answers', () => {
    const near = 'a'.repeat(50_000) + '!';
    for (const p of ['^(a+)+$', '^(a|a)*$', '^([a-z0-9]+(-[a-z0-9]+)*)+$']) {
      const re = compileRE2(p);
      // Proved by the engine that answers, not by a clock: re2js's RegExp, and V8's engine never
      // ran the pattern on the value.
      assert.notEqual(Object.getPrototypeOf(re), RegExp.prototype, `${p} is on re2js`);
      assert.deepEqual(v8RunsOf([p], near, () => assert.equal(re.test(near), false, p)), [0], p);
    }
    // The count sees V8's runs: a pattern V8 keeps is counted.
    assert.deepEqual(v8RunsOf(['^a+!$'], near, () => assert.equal(compileRE2('^a+!$').test(near), true)), [1]);
    matches('^(a+)+$', ['a', 'aaaa'], ['', 'aab', 'ba']);
    matches('^([a-z0-9]+(-[a-z0-9]+)*)+$', ['abc', 'a-b-c', 'x9-y'], ['-a', 'a-', 'A', 'a--b']);
    // Go's syntax and semantics go to the linear engine as written: flags, \\pL, \\z, unanchored search.
    matches('(?i)^(ab+)+$', ['ABbB', 'abAB'], ['ba']);
    matches('^(\\pL+\\s?)+\\z', ['héllo wörld', 'ab', 'ab\n'], ['a1', 'ab!']);
    matches('(x+)+y', ['aaxxy', 'xyz'], ['xxx']);
    // The same answers as V8 on the translated source, for short values.
    for (const p of risky) {
      const linear = compileRE2(p);
      const { source, flags } = translateRE2(p);
      const v8 = new RegExp(source, flags);
      for (const s of ['', 'a', 'aa!', 'ab', 'abc', 'aabbc', '12', '1212', 'xyyz', 'xyyyz', 'a-b', 'ababcabc', 'bbb']) {
        assert.equal(linear.test(s), v8.test(s), `${p} on ${JSON.stringify(s)}`);
      }
    }
  });

  it('answers a custom resource value against such a pattern at once', () => {
    const schemas = { Thing: { type: 'object', properties: { name: { type: 'string', pattern: '^([a-z0-9]+-?)+$' } } } };
    const v = compileSchemaValidator(schemas as never, 'Thing');
    const value = 'a'.repeat(40) + '!';
    let errs: unknown[] = [];
    // V8's engine never ran the pattern on the value (the engine, not a clock, proves it).
    assert.deepEqual(v8RunsOf(['^([a-z0-9]+-?)+$'], value, () => (errs = v.validate({ name: value }))), [0]);
    assert.equal(errs.length, 1);
    assert.deepEqual(v.validate({ name: 'ab-cd' }), []);
  });
});


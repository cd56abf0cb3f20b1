/**
 * Schema patterns and CEL regexes on which V8 would backtrack POLYNOMIALLY (`^a*a*a*b$` on n
 * characters: n^3 steps) go to re2js (linear, Go's answers), as exponential ones did already;
 * kube's common patterns (Quantity, DNS-1123 label and subdomain, the bench's) stay on V8.
 * Timing is checked as growth (2,000 vs 16,000 characters, CPU time, best of 3), never against
 * a wall-clock limit: linear is x8, quadratic x64, cubic x512; the bound is x30.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mayBacktrackSuperLinearly } from '../../runtime/validation/re2-ambiguity.js';
import { compileRE2, translateRE2 } from '../../runtime/validation/re2.js';
import { compileSchemaValidator } from '../../runtime/validation/index.js';

const routed = (p: string): boolean => {
  const { source, flags } = translateRE2(p);
  return mayBacktrackSuperLinearly(source, flags);
};
/** Whether compileRE2 gave re2js's RegExp (a subclass) rather than V8's. */
const onRe2js = (p: string): boolean => Object.getPrototypeOf(compileRE2(p)) !== RegExp.prototype;

const QUANTITY = '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';
const DNS1123_LABEL = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
const DNS1123_SUBDOMAIN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
const CONDITION_TYPE = '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$';
const STAY_ON_V8 = [
  QUANTITY,
  CONDITION_TYPE, // metav1.Condition's type (re2js before this analysis, by the nested repeat)
  '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$', // metav1.Condition's reason
  DNS1123_LABEL, // also the bench's pattern (bench/synth/kgen.ts, tsoa.ts)
  DNS1123_SUBDOMAIN,
  '^[a-z]([-a-z0-9]*[a-z0-9])?$', // DNS-1035 label
  '^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$', // qualified name
  '^[-._a-zA-Z0-9]+$',
  '^\\d+(\\.\\d+)*$',
  '^((ab)*c)+$', // nested, but each step has one way to go
  '^(a+)?$',
  '^\\(a+\\)+$',
  '^(?i)(abort|warn)?$',
  '^.*$',
  'foo[0-9]+bar', // unanchored, but the search for "foo" separates the starts
];

/** [pattern, near-miss value of about n characters]. */
const POLYNOMIAL: [string, (n: number) => string][] = [
  ['^a*a*a*a*a*a*b$', (n) => 'a'.repeat(n)],
  ['^\\s*.*\\s*$', (n) => ' '.repeat(n) + 'x\nx'], // two lines of text: no match
  ['^[a-z]+[a-z0-9]*x$', (n) => 'a'.repeat(n)],
  ['^[a-z]{0,900}[a-z]{0,900}[a-z]{0,900}x$', (n) => 'a'.repeat(Math.min(n, 2_600))],
  ['[a-z]+x', (n) => 'a'.repeat(n)], // unanchored: every start is tried
  ['^(?i)a*A*$', (n) => 'a'.repeat(n) + '!'],
  ['^(?m)\\w+\\d+$', (n) => '1'.repeat(n) + 'x'],
  ['^([a-z]+\\.)*[a-z]+[a-z]+$', (n) => 'a.'.repeat(n / 4) + 'a'.repeat(n / 2) + '!'],
];
const EXPONENTIAL = ['^(a+)+$', '^(a|a)*$', '^([a-z0-9]+(-[a-z0-9]+)*)+$', '(?:a*b?)+', '^(\\d+){2,}$', '^(x|y+){3,5}z$', '^(?:(?:a?|b?)c)*$'];

/** CPU milliseconds of fn, best of 3. */
function cpu(fn: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = process.cpuUsage();
    fn();
    const d = process.cpuUsage(start);
    best = Math.min(best, (d.user + d.system) / 1000);
  }
  return best;
}

/** Asserts that fn(n) grows at most ~linearly from n = 2,000 to 16,000. */
function assertLinear(label: string, fn: (n: number) => void): void {
  fn(100); // warm-up (compiling, loading re2js)
  const small = cpu(() => fn(2_000));
  const big = cpu(() => fn(16_000));
  assert.ok(big <= 30 * Math.max(small, 1), `${label}: ${small.toFixed(2)} ms at 2,000 characters, ${big.toFixed(2)} ms at 16,000`);
}

describe('patterns V8 would backtrack polynomially on', () => {
  it('are routed to re2js, with the exponential ones; kube\'s common patterns stay on V8', () => {
    for (const [p] of POLYNOMIAL) assert.equal(routed(p), true, p);
    for (const p of EXPONENTIAL) assert.equal(routed(p), true, p);
    for (const p of STAY_ON_V8) assert.equal(routed(p), false, p);
    for (const p of STAY_ON_V8) assert.equal(onRe2js(p), false, p);
    assert.equal(onRe2js('^a*a*a*a*a*a*b$'), true);
  });

  it('a pattern too big or too tangled to analyse is routed (unsure), at a bounded compile cost', () => {
    for (const p of ['[a-z]*'.repeat(150), '(?:a|b|c|d|e|f|g|h|i|j|k|l|m|n|o|p)*'.repeat(9), `^${'(?:[a-z]+x)?'.repeat(70)}$`]) {
      const took = cpu(() => routed(p));
      assert.equal(routed(p), true, p);
      assert.ok(took < 1_000, `${p.slice(0, 30)}…: ${took} ms`);
    }
    // Long patterns without a loop are not analysed at all: V8.
    assert.equal(routed(`^${'c'.repeat(5_000)}$`), false);
  });

  it('validate values in time linear in their length, with Go\'s answers', () => {
    for (const [pattern, value] of POLYNOMIAL) {
      const v = compileSchemaValidator({ T: { type: 'object', properties: { s: { type: 'string', pattern } } } } as never, 'T');
      assertLinear(pattern, (n) => assert.equal(v.validate({ s: value(n) }).length, 1, pattern));
    }
    const re = compileRE2('^a*a*a*a*a*a*b$');
    assert.equal(re.test('aaab'), true);
    assert.equal(re.test('b'), true);
    assert.equal(re.test('aaa'), false);
    assert.equal(compileRE2('^\\s*.*\\s*$').test('x\ny'), false);
    assert.equal(compileRE2('^\\s*.*\\s*$').test(' x '), true);
  });

  it('exponential patterns on re2js too: near-miss values in time linear in their length', () => {
    // (test/validation/re2.test.ts proves these run on re2js, not V8; here, re2js's growth.)
    for (const p of ['^(a+)+$', '^(a|a)*$', '^([a-z0-9]+(-[a-z0-9]+)*)+$']) {
      const re = compileRE2(p);
      assertLinear(p, (n) => assert.equal(re.test('a'.repeat(n) + '!'), false, p));
    }
  });

  it('common patterns keep V8 and answer long values in linear time too', () => {
    const values: [string, (n: number) => string][] = [
      [QUANTITY, (n) => '1'.repeat(n / 2) + '.' + '1'.repeat(n / 2) + 'e1!'],
      [DNS1123_SUBDOMAIN, (n) => 'a-'.repeat(n / 2) + '!'],
      [DNS1123_SUBDOMAIN, (n) => 'a.'.repeat(n / 2) + '-'],
      [DNS1123_LABEL, (n) => 'a'.repeat(n) + '-'],
      [CONDITION_TYPE, (n) => 'a.'.repeat(n / 2) + '/-'],
      [CONDITION_TYPE, (n) => 'a-'.repeat(n / 2) + '/a.'.repeat(n / 4) + '!'],
      [CONDITION_TYPE, (n) => 'a.'.repeat(n / 2) + '-'],
    ];
    for (const [pattern, value] of values) {
      const re = compileRE2(pattern);
      assertLinear(pattern, (n) => assert.equal(re.test(value(n)), false));
    }
  });

  it('CEL find() and findAll() (Go patterns, the same routing) and matches() answer in linear time', () => {
    const v = compileSchemaValidator(
      {
        T: {
          type: 'object',
          properties: {
            s: {
              type: 'string',
              'x-kubernetes-validations': [
                { rule: "self.find('a*a*a*b') == ''", message: 'find' },
                { rule: "self.findAll('\\\\s*.*\\\\s*x').size() == 0", message: 'findAll' },
                { rule: "!self.matches('^a*a*a*a*b$')", message: 'matches' },
              ],
            },
          },
        },
      } as never,
      'T',
    );
    assertLinear('CEL', (n) => assert.deepEqual(v.validate({ s: 'a'.repeat(n) }), []));
    assert.deepEqual(v.validate({ s: 'aab' }).map((e) => e.message), ['Invalid value: "string": find', 'Invalid value: "string": matches']);
    assert.deepEqual(v.validate({ s: ' x' }).map((e) => e.message), ['Invalid value: "string": findAll']);
  });
});

/**
 * kube's CEL URL library (runtime/validation/cel-url.ts): the examples of
 * k8s.io/apiserver/pkg/cel/library/urls.go's doc comment (the spec), net/url's errors as rule
 * evaluation errors, and the library's cost.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileSchemaValidator } from '../../runtime/validation/index.js';
import { celEnvironment, celEnvironmentWithVariables } from '../../runtime/validation/cel-env.js';
import { estimateSchemaCost } from '../../runtime/validation/cel-cost.js';

const run = (expr: string): unknown => {
  const parsed = celEnvironment().parse(expr);
  const checked = parsed.check();
  if (!checked.valid) throw new Error(`compile: ${checked.error?.message}`);
  return parsed({});
};

describe('url library: urls.go doc examples', () => {
  const cases: [string, unknown][] = [
    ["isURL('https://user:pass@example.com:80/path?query=val#fragment')", true],
    ["isURL('/absolute-path')", true],
    ["isURL('https://a:b:c/')", false],
    ["isURL('../relative-path')", false],
    ["isURL('')", false],
    ["isURL('example.com')", false],
    ["isURL('https://example.com/%zz')", false],
    ["isURL('https://exa mple.com/')", false],
    ["url('/path').getScheme()", ''],
    ["url('https://example.com/').getScheme()", 'https'],
    ["url('HTTPS://example.com/').getScheme()", 'https'],
    ["url('https://example.com:80/').getHost()", 'example.com:80'],
    ["url('https://example.com/').getHost()", 'example.com'],
    ["url('https://[::1]:80/').getHost()", '[::1]:80'],
    ["url('https://[::1]/').getHost()", '[::1]'],
    ["url('/path').getHost()", ''],
    ["url('https://user:pass@example.com:80/path?query=val#fragment').getHost()", 'example.com:80'],
    ["url('https://example.com:80/').getHostname()", 'example.com'],
    ["url('https://127.0.0.1:80/').getHostname()", '127.0.0.1'],
    ["url('https://[::1]:80/').getHostname()", '::1'],
    ["url('/path').getHostname()", ''],
    ["url('https://example.com:80/').getPort()", '80'],
    ["url('https://example.com/').getPort()", ''],
    ["url('/path').getPort()", ''],
    ["url('https://example.com/path').getEscapedPath()", '/path'],
    ["url('https://example.com/path with spaces/').getEscapedPath()", '/path%20with%20spaces/'],
    ["url('https://example.com').getEscapedPath()", ''],
    ["url('https://example.com/a%2Fb!').getEscapedPath()", '/a%2Fb!'],
    ["url('https://example.com/path#frag').getEscapedPath()", '/path'],
    ["url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()", { k1: ['a'], k2: ['b', 'c'] }],
    ["url('https://example.com/path?key with spaces=value with spaces').getQuery()", { 'key with spaces': ['value with spaces'] }],
    ["url('https://example.com/path?a=1+2&b=%41&bad=%zz&c;d=1').getQuery()", { a: ['1 2'], b: ['A'] }],
    ["url('https://example.com/path?').getQuery()", {}],
    ["url('https://example.com/path').getQuery()", {}],
    ["url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}", true],
  ];
  for (const [expr, want] of cases) test(expr, () => assert.deepEqual(run(expr), want));

  const errors: [string, string][] = [
    ["url('https://a:b:c/')", 'URL parse error during conversion from string: parse "https://a:b:c/": invalid port ":c" after host'],
    ["url('../relative-path')", 'URL parse error during conversion from string: parse "../relative-path": invalid URI for request'],
    ["url('')", 'URL parse error during conversion from string: parse "": empty url'],
    ["url(':x')", 'URL parse error during conversion from string: parse ":x": missing protocol scheme'],
    ["url('https://example.com/%zz')", 'URL parse error during conversion from string: parse "https://example.com/%zz": invalid URL escape "%zz"'],
    ["url('https://exa mple.com/')", 'URL parse error during conversion from string: parse "https://exa mple.com/": invalid character " " in host name'],
  ];
  for (const [expr, want] of errors) {
    test(`${expr} fails`, () => assert.throws(() => run(expr), (err: Error) => err.message === want || assert.fail(err.message)));
  }
});

describe('url library in CRD rules', () => {
  test('a rule on a URL field; a value that is no URL is an evaluation error with net/url\'s message', () => {
    const v = compileSchemaValidator(
      { R: { type: 'object', properties: { endpoint: { type: 'string', maxLength: 100, 'x-kubernetes-validations': [{ rule: "url(self).getScheme() == 'https'" }] } } } } as never,
      'R',
    );
    const errs = (o: Record<string, unknown>) => v.validate(o).map((e) => `${e.field}: ${e.message}`);
    assert.deepEqual(errs({ endpoint: 'https://example.com/x' }), []);
    assert.deepEqual(errs({ endpoint: 'http://example.com/x' }), ['endpoint: Invalid value: "string": failed rule: url(self).getScheme() == \'https\'']);
    assert.deepEqual(errs({ endpoint: 'example.com' }), [
      'endpoint: Invalid value: "string": URL parse error during conversion from string: parse "example.com": invalid URI for request evaluating rule: url(self).getScheme() == \'https\'',
    ]);
  });

  test("cost: url() and isURL() traverse the string, the accessors cost 1 (kube's library/cost.go)", () => {
    const cost = (rule: string) =>
      estimateSchemaCost({ type: 'object', properties: { s: { type: 'string', maxLength: 100, 'x-kubernetes-validations': [{ rule }] } } }).rules[0]!.expressionCost;
    assert.equal(cost('isURL(self)'), 1 + 40);
    assert.equal(cost("url(self).getHost() == 'x'"), 1 + 40 + 1 + 1);
  });
});

describe('url library in authentication CEL', () => {
  test('a claim validation expression may parse a URL claim (the same libraries as rules)', () => {
    const parsed = celEnvironmentWithVariables(['claims']).parse("url(claims.website).getHostname() == 'example.com' && quantity(claims.quota).isLessThan(quantity('1Gi'))");
    assert.equal(parsed.check().valid, true);
    assert.equal(parsed({ claims: { website: 'https://example.com/me', quota: '10Mi' } }), true);
  });
});

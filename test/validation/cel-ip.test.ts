/**
 * kube's CEL IP and CIDR libraries (runtime/validation/cel-ip.ts): the cases of
 * k8s.io/apiserver/pkg/cel/library/ip_test.go and cidr_test.go and the libraries' doc comments
 * (the spec), netip's parse errors as rule evaluation errors, and the libraries' costs.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileSchemaValidator } from '../../runtime/validation/index.js';
import { celEnvironment } from '../../runtime/validation/cel-env.js';
import { estimateSchemaCost } from '../../runtime/validation/cel-cost.js';

const run = (expr: string): unknown => {
  const parsed = celEnvironment().parse(expr);
  const checked = parsed.check();
  if (!checked.valid) throw new Error(`compile: ${checked.error?.message}`);
  return parsed({});
};

const table = (cases: [string, unknown][]) => {
  for (const [expr, want] of cases) test(expr, () => assert.deepEqual(run(expr), want));
};
const errors = (cases: [string, string][]) => {
  for (const [expr, want] of cases) test(`${expr} fails`, () => assert.throws(() => run(expr), (err: Error) => err.message === want || assert.fail(err.message)));
};

describe('ip library: kube ip_test.go and doc examples', () => {
  table([
    ['isIP("192.168.0.1")', true],
    ['isIP("192.168.0.1.0")', false],
    ['isIP("127.0.0.1")', true],
    ['isIP("::1")', true],
    ['isIP("127.0.0.256")', false],
    ['isIP(":::1")', false],
    ['isIP("2001:db8::68")', true],
    ['isIP("2001:db8:::68")', false],
    ['isIP("::ffff:1.2.3.4")', false],
    ['isIP("fe80::1%eth0")', false],
    ['isIP("01.2.3.4")', false],
    ['ip.isCanonical("127.0.0.1")', true],
    ['ip.isCanonical("2001:db8::abcd")', true],
    ['ip.isCanonical("2001:DB8::ABCD")', false],
    ['ip.isCanonical("2001:db8::0:0:0:abcd")', false],
    ['ip.isCanonical("2001:db8::68")', true],
    ['ip("192.168.0.1").family()', 4n],
    ['ip("127.0.0.1").family() == 4', true],
    ['ip("::1").family() == 6', true],
    ['ip("2001:db8::68").family()', 6n],
    ['ip("0.0.0.0").isUnspecified()', true],
    ['ip("127.0.0.1").isUnspecified()', false],
    ['ip("::").isUnspecified()', true],
    ['ip("::1").isUnspecified()', false],
    ['ip("127.0.0.1").isLoopback()', true],
    ['ip("192.168.0.1").isLoopback()', false],
    ['ip("1.2.3.4").isLoopback()', false],
    ['ip("::1").isLoopback()', true],
    ['ip("2001:db8::abcd").isLoopback()', false],
    ['ip("224.0.0.1").isLinkLocalMulticast()', true],
    ['ip("224.0.1.1").isLinkLocalMulticast()', false],
    ['ip("ff02::1").isLinkLocalMulticast()', true],
    ['ip("fd00::1").isLinkLocalMulticast()', false],
    ['ip("169.254.169.254").isLinkLocalUnicast()', true],
    ['ip("192.168.0.1").isLinkLocalUnicast()', false],
    ['ip("fe80::1").isLinkLocalUnicast()', true],
    ['ip("fd80::1").isLinkLocalUnicast()', false],
    ['ip("192.168.0.1").isGlobalUnicast()', true],
    ['ip("255.255.255.255").isGlobalUnicast()', false],
    ['ip("2001:db8::abcd").isGlobalUnicast()', true],
    ['ip("ff00::1").isGlobalUnicast()', false],
    ['string(ip("192.168.0.1"))', '192.168.0.1'],
    ['string(ip("2001:0DB8:0:0:1:0:0:1"))', '2001:db8::1:0:0:1'],
    ['string(ip("1:0:0:2:0:0:0:3"))', '1:0:0:2::3'],
    ['string(ip("::1.2.3.4"))', '::102:304'],
    ['ip("::1") == ip("0:0::1")', true],
    ['ip("::1") == ip("::2")', false],
    ["['10.0.0.1', '::1'].all(ip, isIP(ip))", true],
  ]);
  errors([
    ['ip("192.168.0.1.0")', 'IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long'],
    ['ip.isCanonical("127.0.0.1.0")', 'IP Address "127.0.0.1.0" parse error during conversion from string: ParseAddr("127.0.0.1.0"): IPv4 address too long'],
    ['ip("2001:db8:::68")', 'IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")'],
    ['ip.isCanonical("2001:db8:::68")', 'IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")'],
    ['ip("127.0.0.256")', 'IP Address "127.0.0.256" parse error during conversion from string: ParseAddr("127.0.0.256"): IPv4 field has value >255'],
    ['ip("01.2.3.4")', 'IP Address "01.2.3.4" parse error during conversion from string: ParseAddr("01.2.3.4"): IPv4 field has octet with leading zero'],
    ['ip("1.2.3")', 'IP Address "1.2.3" parse error during conversion from string: ParseAddr("1.2.3"): IPv4 address too short'],
    ['ip("foo")', 'IP Address "foo" parse error during conversion from string: ParseAddr("foo"): unable to parse IP'],
    ['ip("::ffff:1.2.3.4")', 'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed'],
    ['ip("fe80::1%eth0")', 'IP address "fe80::1%eth0" with zone value is not allowed'],
  ]);
  test('isIP of a CIDR does not compile; q.family() on a string neither', () => {
    assert.equal(celEnvironment().parse('isIP(cidr("192.168.0.0/24"))').check().valid, false);
    assert.equal(celEnvironment().parse('"1.2.3.4".family() == 4').check().valid, false);
  });
});

describe('cidr library: kube cidr_test.go and doc examples', () => {
  table([
    ['isCIDR("192.168.0.0/16")', true],
    ['isCIDR("::1/128")', true],
    ['isCIDR("192.168.0.0/33")', false],
    ['isCIDR("::1/129")', false],
    ['isCIDR("::ffff:1.2.3.4/120")', false],
    ['isCIDR("10.0.0.0/08")', false],
    ['cidr("192.168.0.0/24").containsIP(ip("192.168.0.1"))', true],
    ['cidr("192.168.0.0/24").containsIP(ip("192.168.1.1"))', false],
    ['cidr("192.168.0.0/24").containsIP("192.168.0.1")', true],
    ['cidr("192.168.0.0/24").containsIP("192.168.1.1")', false],
    ['cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/25"))', true],
    ['cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.1/32"))', true],
    ['cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/23"))', false],
    ['cidr("192.168.0.0/24").containsCIDR(cidr("192.169.0.1/32"))', false],
    ['cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25")', true],
    ['cidr("192.168.0.0/24").containsCIDR("192.168.0.0/23")', false],
    ['cidr("192.168.0.0/16").containsCIDR(cidr("192.168.10.0/24"))', true],
    ['cidr("192.168.1.0/24").containsCIDR("192.168.2.0/24")', false],
    ['cidr("0.0.0.0/0").containsCIDR("10.0.0.0/8")', true],
    ['cidr("0.0.0.0/0").containsIP("::1")', false],
    ['cidr("192.168.0.0/24").ip() == ip("192.168.0.0")', true],
    ['cidr("192.168.0.1/24").ip() == ip("192.168.0.1")', true],
    ['cidr("192.168.0.1/24").ip().family()', 4n],
    ['cidr("::1/128").ip().family()', 6n],
    ['cidr("192.168.0.1/24").masked() == cidr("192.168.0.0/24")', true],
    ['cidr("192.168.0.0/24") == cidr("192.168.0.0/24").masked()', true],
    ['cidr("192.168.0.1/24") == cidr("192.168.0.1/24").masked()', false],
    ['cidr("192.168.0.0/16").prefixLength()', 16n],
    ['cidr("::1/128").prefixLength()', 128n],
    ['cidr("2001:db8::/32").containsIP(ip("2001:db8::1"))', true],
    ['cidr("2001:db8::/32").containsIP(ip("2001:dc8::1"))', false],
    ['cidr("2001:db8::/32").containsIP("2001:db8::1")', true],
    ['cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/33"))', true],
    ['cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/31"))', false],
    ['cidr("2001:db8::/32").containsCIDR("2001:db8::/33")', true],
    ['cidr("2001:db8:1::/32").masked() == cidr("2001:db8::/32")', true],
    ['cidr("2001:db8::/32").prefixLength()', 32n],
    ['string(cidr("192.168.0.0/24"))', '192.168.0.0/24'],
    ['string(cidr("2001:DB8:1::/32"))', '2001:db8:1::/32'],
    ['string(cidr("2001:db8:1::/32").masked())', '2001:db8::/32'],
  ]);
  const E = 'network address parse error during conversion from string: ';
  errors([
    ['cidr("192.168.0.0/")', `${E}${E}netip.ParsePrefix("192.168.0.0/"): bad bits after slash: ""`],
    ['cidr("2001:db8::/")', `${E}${E}netip.ParsePrefix("2001:db8::/"): bad bits after slash: ""`],
    ['cidr("192.168.0.0/33")', `${E}${E}netip.ParsePrefix("192.168.0.0/33"): prefix length out of range`],
    ['cidr("192.168.0.0")', `${E}${E}netip.ParsePrefix("192.168.0.0"): no '/'`],
    ['cidr("192.168.0.256/24")', `${E}${E}netip.ParsePrefix("192.168.0.256/24"): ParseAddr("192.168.0.256"): IPv4 field has value >255`],
    ['cidr("fe80::%eth0/64")', `${E}${E}netip.ParsePrefix("fe80::%eth0/64"): IPv6 zones cannot be present in a prefix`],
    ['cidr("::ffff:1.2.3.0/120")', `${E}IPv4-mapped IPv6 address "::ffff:1.2.3.0/120" is not allowed`],
    ['cidr("10.0.0.0/8").containsIP("10.0.0.256")', 'IP Address "10.0.0.256" parse error during conversion from string: ParseAddr("10.0.0.256"): IPv4 field has value >255'],
  ]);
});

describe('ip and cidr in CRD rules', () => {
  const v = compileSchemaValidator(
    {
      R: {
        type: 'object',
        properties: {
          addr: { type: 'string', maxLength: 45, 'x-kubernetes-validations': [{ rule: 'ip(self).family() == 4', message: 'must be an IPv4 address' }] },
        },
      },
    } as never,
    'R',
  );
  const errs = (o: Record<string, unknown>) => v.validate(o).map((e) => `${e.field}: ${e.message}`);
  test('a family rule passes and fails; a value that is no IP is an evaluation error with kube\'s message', () => {
    assert.deepEqual(errs({ addr: '10.0.0.1' }), []);
    assert.deepEqual(errs({ addr: '2001:db8::1' }), ['addr: Invalid value: "string": must be an IPv4 address']);
    assert.deepEqual(errs({ addr: '10.0.0.256' }), [
      'addr: Invalid value: "string": IP Address "10.0.0.256" parse error during conversion from string: ParseAddr("10.0.0.256"): IPv4 field has value >255 evaluating rule: must be an IPv4 address',
    ]);
  });

  test("cost: parsing traverses the string, accessors cost 1, containsIP/containsCIDR compare up to 16 bytes (kube's library/cost.go)", () => {
    const cost = (rule: string) =>
      estimateSchemaCost({ type: 'object', properties: { s: { type: 'string', maxLength: 100, 'x-kubernetes-validations': [{ rule }] } } }).rules[0]!.expressionCost;
    // self (1) + ceil(400 bytes × 0.1) = 40, + family() 1.
    assert.equal(cost('isIP(self)'), 1 + 40);
    assert.equal(cost('ip(self).family() == 4'), 1 + 40 + 1 + 1);
    // ip.isCanonical parses and prints: twice the traversal.
    assert.equal(cost('ip.isCanonical(self)'), 1 + 80);
    // cidr('10.0.0.0/8') (10 bytes: 1) + containsIP of an IP (4) + ip(self) (41).
    assert.equal(cost("cidr('10.0.0.0/8').containsIP(ip(self))"), 1 + 4 + 41);
    // The string overload also parses its argument (40).
    assert.equal(cost("cidr('10.0.0.0/8').containsIP(self)"), 1 + 4 + 40 + 1);
    assert.equal(cost("cidr('10.0.0.0/8').containsCIDR(self)"), 1 + 7 + 40 + 1);
  });
});

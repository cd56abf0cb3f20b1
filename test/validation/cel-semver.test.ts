/**
 * kube's CEL Semver library (runtime/validation/cel-semver.ts): the cases of
 * k8s.io/apiserver/pkg/cel/library/semver_test.go and the doc comment (the spec), blang/semver's
 * errors as rule evaluation errors, and the library's cost.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { celEnvironment } from '../../runtime/validation/cel-env.js';
import { estimateSchemaCost } from '../../runtime/validation/cel-cost.js';

const run = (expr: string): unknown => {
  const parsed = celEnvironment().parse(expr);
  const checked = parsed.check();
  if (!checked.valid) throw new Error(`compile: ${checked.error?.message}`);
  return parsed({});
};

describe('semver library: kube semver_test.go and doc examples', () => {
  const cases: [string, unknown][] = [
    ['isSemver("1.2.3-beta.1+build.1")', true],
    ['isSemver("1.0.0")', true],
    ['isSemver("hello")', false],
    ['isSemver("")', false],
    ['isSemver("v1.0.0")', false],
    ['isSemver("v1.0")', false],
    ['isSemver(" 1.0.0")', false],
    ['isSemver("1. 0.0")', false],
    ['isSemver("1.0.0 ")', false],
    ['isSemver("01.01.01")', false],
    ['isSemver("1")', false],
    ['isSemver("1.1")', false],
    ['isSemver("", true)', false],
    ['isSemver(" 1.0.0", true)', false],
    ['isSemver("1. 0.0", true)', false],
    ['isSemver("1.0.0 ", true)', false],
    ['isSemver("v1.0.0", true)', true],
    ['isSemver("v1.0", true)', true],
    ['isSemver("01.01.01", true)', true],
    ['isSemver("1", true)', true],
    ['isSemver("1.1", true)', true],
    ['isSemver("1.1-beta", true)', false],
    ['semver("v01.01", true) == semver("1.1.0")', true],
    ['semver("v1.0.0", true) == semver("1.0.0")', true],
    ['semver("1.0", true) == semver("1.0.0")', true],
    ['semver("01.01.01", true) == semver("1.1.1")', true],
    ['semver("1.2.3") == semver("1.2.3")', true],
    ['semver("1.2.3") == semver("1.0.0")', false],
    ['semver("1.2.3+a") == semver("1.2.3+b")', true],
    ['semver("1.0.0").isLessThan(semver("1.2.3"))', true],
    ['semver("1.0.0").isLessThan(semver("1.0.0"))', false],
    ['semver("1.2.3").isGreaterThan(semver("1.0.0"))', true],
    ['semver("1.0.0").isGreaterThan(semver("1.0.0"))', false],
    ['semver("1.2.3").compareTo(semver("1.2.3"))', 0n],
    ['semver("1.0.0").compareTo(semver("1.2.3"))', -1n],
    ['semver("1.2.3").compareTo(semver("1.0.0"))', 1n],
    ['semver("1.2.3").compareTo(semver("2.0.0"))', -1n],
    ['semver("1.2.3").compareTo(semver("0.1.2"))', 1n],
    // semver.org §11: 1.0.0-alpha < 1.0.0-alpha.1 < 1.0.0-alpha.beta < 1.0.0-beta < 1.0.0-beta.2 < 1.0.0-beta.11 < 1.0.0-rc.1 < 1.0.0
    ['["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0"].map(v, semver(v)).all(v, true)', true],
    ['semver("1.0.0-alpha").isLessThan(semver("1.0.0-alpha.1")) && semver("1.0.0-alpha.1").isLessThan(semver("1.0.0-alpha.beta")) && semver("1.0.0-beta.2").isLessThan(semver("1.0.0-beta.11")) && semver("1.0.0-rc.1").isLessThan(semver("1.0.0"))', true],
    ['semver("1.2.3").major()', 1n],
    ['semver("1.2.3").minor()', 2n],
    ['semver("1.2.3").patch()', 3n],
    ['semver("0.1.0-alpha.1").minor()', 1n],
  ];
  for (const [expr, want] of cases) test(expr, () => assert.deepEqual(run(expr), want));

  const errors: [string, string][] = [
    ['semver("v1.0")', 'No Major.Minor.Patch elements found'],
    ['semver("200K")', 'No Major.Minor.Patch elements found'],
    ['semver("")', 'Version string empty'],
    ['semver("01.1.1")', 'Major number must not contain leading zeroes "01"'],
    ['semver("1.x.1")', 'Invalid character(s) found in minor number "x"'],
    ['semver("1.1.1-01")', 'Numeric PreRelease version must not contain leading zeroes "01"'],
    ['semver("1.1.1+")', 'Build meta data is empty'],
    ['semver("1.1", true) == semver("1.1-x", true)', 'short version cannot contain PreRelease/Build meta data'],
  ];
  for (const [expr, want] of errors) {
    test(`${expr} fails`, () => assert.throws(() => run(expr), (err: Error) => err.message === want || assert.fail(err.message)));
  }

  test('isSemver of a list does not compile', () => {
    assert.equal(celEnvironment().parse('isSemver([1, 2, 3])').check().valid, false);
  });

  test("cost: semver() and isSemver() traverse the string, the methods cost 1 (kube's library/cost.go)", () => {
    const cost = (rule: string) =>
      estimateSchemaCost({ type: 'object', properties: { s: { type: 'string', maxLength: 100, 'x-kubernetes-validations': [{ rule }] } } }).rules[0]!.expressionCost;
    assert.equal(cost('isSemver(self)'), 1 + 40);
    assert.equal(cost("semver(self).isLessThan(semver('2.0.0'))"), 1 + 40 + 1 + 1);
  });
});

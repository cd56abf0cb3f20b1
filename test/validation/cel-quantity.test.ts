/**
 * kube's CEL Quantity library (runtime/validation/cel-quantity.ts): the cases of
 * k8s.io/apiserver/pkg/cel/library/quantity_test.go and of the library's doc comments (the spec),
 * apimachinery's ParseQuantity errors as rule evaluation errors, and the library's cost.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileSchemaValidator } from '../../runtime/validation/index.js';
import { celEnvironment } from '../../runtime/validation/cel-env.js';
import { celRuleErrors } from '../../runtime/validation/cel.js';
import { estimateSchemaCost } from '../../runtime/validation/cel-cost.js';
import { CelQuantity, ERR_FORMAT_WRONG, ERR_NUMERIC, parseQuantity } from '../../runtime/validation/cel-quantity.js';

const run = (expr: string): unknown => {
  const parsed = celEnvironment().parse(expr);
  const checked = parsed.check();
  if (!checked.valid) throw new Error(`compile: ${checked.error?.message}`);
  return parsed({});
};

describe('quantity library: kube quantity_test.go and doc examples', () => {
  const values: [string, unknown][] = [
    ['isQuantity("20")', true],
    ['isQuantity("20M")', true],
    ['isQuantity("20Mi")', true],
    ['isQuantity("20Mo")', false],
    ['isQuantity("10Mm")', false],
    ['isQuantity("1.3G")', true],
    ['isQuantity("1.3Gi")', true],
    ['isQuantity("1,3G")', false],
    ['isQuantity("10000k")', true],
    ['isQuantity("200K")', false],
    ['isQuantity("Three")', false],
    ['quantity("200M") == quantity("200M")', true],
    ['quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")', true],
    ['quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")', true],
    ['quantity("200M") == quantity("0.3G")', false],
    ['quantity("200M") != quantity("0.3G")', true],
    ['quantity("50M").isLessThan(quantity("50Mi"))', true],
    ['quantity("50M").isLessThan(quantity("100M"))', true],
    ['quantity("100M").isLessThan(quantity("50M"))', false],
    ['quantity("50Mi").isGreaterThan(quantity("50M"))', true],
    ['quantity("150Mi").isGreaterThan(quantity("100Mi"))', true],
    ['quantity("50M").isGreaterThan(quantity("100M"))', false],
    ['quantity("200M").compareTo(quantity("0.2G"))', 0n],
    ['quantity("50M").compareTo(quantity("50Mi"))', -1n],
    ['quantity("50Mi").compareTo(quantity("50M"))', 1n],
    ['quantity("50k").add(quantity("20")) == quantity("50.02k")', true],
    ['quantity("50k").add(20).isLessThan(quantity("50020"))', false],
    ['quantity("50k").add(20) == quantity("50020")', true],
    ['quantity("50k").sub(quantity("20")) == quantity("49.98k")', true],
    ['quantity("50k").sub(20) == quantity("49980")', true],
    ['quantity("50k").sub(20000) == quantity("30k")', true],
    ['quantity("50k").add(20).sub(quantity("100k")).asInteger()', -49980n],
    ['quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger()', 20n],
    ['quantity("50k").add(20).sub(quantity("100k")).sub(-50000) == quantity("20")', true],
    ['quantity("50k").asInteger()', 50000n],
    ['quantity("50k").asInteger() == 50000', true],
    ['quantity("50000000G").isInteger()', true],
    ['quantity("50k").isInteger()', true],
    ['quantity("9999999999999999999999999999999999999G").isInteger()', false],
    ['quantity("50").isInteger()', true],
    ['quantity("50.703k").asApproximateFloat()', 50703],
    ['quantity("50k").sub(20000).asApproximateFloat() == 30000.0', true],
    ['[quantity("9999999999999999999999999999999999999")].all(x, x.add(quantity("1")).compareTo(x.add(quantity("2"))) == -1)', true],
    ['sign(quantity("-50k"))', -1n],
    ['sign(quantity("0"))', 0n],
    ['sign(quantity("1m"))', 1n],
  ];
  for (const [expr, want] of values) {
    test(expr, () => assert.deepEqual(run(expr), want));
  }

  const errors: [string, RegExp][] = [
    ['quantity("10Mo")', /^quantities must match the regular expression/],
    ['quantity("10Mm")', /^unable to parse quantity's suffix$/],
    ['quantity("200K")', /^unable to parse quantity's suffix$/],
    ['quantity("Three")', /^quantities must match the regular expression/],
    ['quantity("9999999999999999999999999999999999999G").asInteger()', /^cannot convert value to integer$/],
  ];
  for (const [expr, want] of errors) {
    test(`${expr} fails`, () => assert.throws(() => run(expr), (err: Error) => want.test(err.message)));
  }

  test('isQuantity of a list and q.sign() do not compile (no matching overload, as in cel-go)', () => {
    assert.equal(celEnvironment().parse('isQuantity([1, 2, 3])').check().valid, false);
    assert.equal(celEnvironment().parse('quantity("1").sign() == 1').check().valid, false);
    assert.equal(celEnvironment().parse('quantity("1") == 1').check().valid, false);
  });
});

describe('ParseQuantity, as apimachinery', () => {
  const q = (s: string) => parseQuantity(s);
  test('the int64 form keeps value and scale; the decimal form is rounded up to nano', () => {
    assert.deepEqual(q('12Mi'), new CelQuantity(12n * 2n ** 20n, 0, false, 'BinarySI', '12Mi')) // canonical text: kept;
    assert.deepEqual(q('1.5G'), new CelQuantity(15n, 8, false, 'DecimalSI'));
    assert.deepEqual(q('0.5'), new CelQuantity(5n, -1, false, 'DecimalSI'));
    assert.deepEqual(q('1e-12'), new CelQuantity(1n, -9, true, 'DecimalExponent')); // rounded up: some is not none
    assert.deepEqual(q('-1e-12'), new CelQuantity(-1n, -9, true, 'DecimalExponent'));
    assert.deepEqual(q('1.5Ki'), new CelQuantity(1536n * 10n ** 9n, -9, true, 'BinarySI'));
  });
  test('BinarySI above MaxInt64 is capped at MaxInt64; decimal is not', () => {
    assert.deepEqual(q('9999999999Ei'), new CelQuantity((1n << 63n) - 1n, 0, true, 'BinarySI'));
    assert.equal(q('9999999999999999999999999999999999999').n, 9999999999999999999999999999999999999n * 10n ** 9n);
  });
  test('1000m is not an integer for kube (the int64 form has a negative scale)', () => {
    assert.equal(run('quantity("1000m").isInteger()'), false);
    assert.equal(run('quantity("1000m") == quantity("1")'), true);
  });
  test('grammar corners: signs, bare dots, exponents', () => {
    assert.equal(run('quantity("+1.") == quantity("1")'), true);
    assert.equal(run('quantity(".5") == quantity("500m")'), true);
    assert.equal(run('quantity("1e3") == quantity("1k")'), true);
    assert.equal(run('quantity("1E-3") == quantity("1m")'), true);
    assert.equal(run('quantity("5e+2").asInteger()'), 500n);
    assert.throws(() => q(''), { message: ERR_FORMAT_WRONG });
    assert.throws(() => q('1e'), /suffix/);
    assert.throws(() => q('1 k'), { message: ERR_FORMAT_WRONG });
    assert.throws(() => q('-Ei'), /numeric/);
  });
  test('a huge exponent: the int64 form keeps it as a scale (as kube); compared without expanding it', () => {
    assert.deepEqual(q('1.5e2000000000'), new CelQuantity(15n, 1999999999, false, 'DecimalExponent'));
    assert.equal(run('quantity("1.5e2000000000").isGreaterThan(quantity("1e1999999999"))'), true);
    assert.equal(run('quantity("-1.5e2000000000").isLessThan(quantity("1m"))'), true);
    assert.equal(run('quantity("1.5e2000000000").isInteger()'), false);
    assert.equal(run('quantity("0e2000000000").isInteger()'), true);
  });
  test('where apimachinery would expand a huge exponent into digits, a rule evaluation error instead', () => {
    assert.throws(() => q('1234567890123456789e2000000000'), /numeric/);
    assert.throws(() => run('quantity("1.5e2000000000").add(1)'), /too large/);
  });
});

describe('quantity library in CRD rules', () => {
  const v = compileSchemaValidator(
    {
      R: {
        type: 'object',
        properties: {
          size: {
            type: 'string',
            maxLength: 20,
            'x-kubernetes-validations': [{ rule: "isQuantity(self) && quantity(self).isLessThan(quantity('10Gi'))", message: 'size must be below 10Gi' }],
          },
          max: { type: 'string', maxLength: 20, 'x-kubernetes-validations': [{ rule: "quantity(self).isGreaterThan(quantity('1'))" }] },
        },
      },
    } as never,
    'R',
  );
  const errs = (o: Record<string, unknown>) => v.validate(o).map((e) => `${e.field}: ${e.message}`);

  test('a quantity rule passes and fails as kube', () => {
    assert.deepEqual(errs({ size: '1Gi' }), []);
    assert.deepEqual(errs({ size: '10Gi' }), ['size: Invalid value: "string": size must be below 10Gi']);
    assert.deepEqual(errs({ size: '10Mo' }), ['size: Invalid value: "string": size must be below 10Gi']);
  });

  test("a value that is no quantity is a rule evaluation error with apimachinery's message", () => {
    assert.deepEqual(errs({ max: '10Mo' }), [
      `max: Invalid value: "string": ${ERR_FORMAT_WRONG} evaluating rule: quantity(self).isGreaterThan(quantity('1'))`,
    ]);
  });

  test('q.sign() is refused when the CRD is written (sign is a function of kube, not a method)', () => {
    const errors = celRuleErrors({ type: 'string', 'x-kubernetes-validations': [{ rule: 'quantity(self).sign() >= 0' }, { rule: 'sign(quantity(self)) >= 0' }] } as never, 'schema');
    assert.equal(errors.length, 1);
    assert.match(`${errors[0]!.field}: ${errors[0]!.message}`, /^schema\.x-kubernetes-validations\[0\]\.rule: Invalid value: "quantity\(self\)\.sign\(\) >= 0": compilation failed: ERROR: <input>:1:\d+: found no matching overload for 'kubernetes\.Quantity\.sign\(\)'$/);
  });

  test("cost: quantity() traverses its argument (0.1 per character), the methods cost 1 (kube's library/cost.go)", () => {
    const cost = (rule: string) =>
      estimateSchemaCost({ type: 'object', properties: { s: { type: 'string', maxLength: 100, 'x-kubernetes-validations': [{ rule }] } } }).rules[0]!.expressionCost;
    // self (1) + 400 bytes (maxLength 100 × 4) × 0.1; a literal of 4 bytes costs ceil(0.4) = 1.
    assert.equal(cost('isQuantity(self)'), 1 + 40);
    assert.equal(cost("quantity(self).isLessThan(quantity('10Gi'))"), 1 + 40 + 1 + 1);
  });
});

describe('ParseQuantity on very long text (a request body may hold a 3 MB quantity string)', () => {
  const cpu = (text: string): number => {
    const start = process.cpuUsage();
    try {
      parseQuantity(text);
    } catch {
      // refused or not: only the time counts here
    }
    const used = process.cpuUsage(start);
    return used.user + used.system;
  };

  test("leading zeros and a fraction's trailing zeros are read as Go reads them", () => {
    const pad = '0'.repeat(1_000_000);
    // The value in nano units (a parsed quantity's exponent is -9 or more).
    const nano = (text: string): bigint => {
      const q = parseQuantity(text);
      return q.n * 10n ** BigInt(q.e + 9);
    };
    assert.equal(nano(`${pad}5`), 5_000_000_000n);
    assert.equal(nano(`1.${pad}`), 1_000_000_000n);
    assert.equal(nano(`0.${pad}1`), 1n); // rounded up to 1n, as inf.Dec's RoundUp
    assert.equal(nano(`1e${pad}5`), 100_000_000_000_000n);
  });

  test('more than 10,000 significant digits are refused (ERR_NUMERIC), in linear time', () => {
    assert.throws(() => parseQuantity(`1${'0'.repeat(20_000)}`), { message: ERR_NUMERIC });
    assert.throws(() => parseQuantity(`0.${'1'.repeat(20_000)}`), { message: ERR_NUMERIC });
    // V8's BigInt parse is not linear: 3 M digits took 2 s before they were bounded. Linear is
    // ×10 for ten times the text; the bound allows ×40 for noise, far below the ×100 of a square.
    for (const make of [(n: number) => `1${'0'.repeat(n)}`, (n: number) => `9.${'9'.repeat(n)}`]) {
      cpu(make(300_000));
      const small = Math.min(cpu(make(300_000)), cpu(make(300_000)));
      const large = Math.min(cpu(make(3_000_000)), cpu(make(3_000_000)));
      assert.ok(large < Math.max(small, 2_000) * 40, `300k digits: ${small} µs, 3M digits: ${large} µs`);
    }
  });
});

describe('ParseQuantity: a zero keeps its scale (inf.Dec does not round a zero to nano)', () => {
  // Only the digits read into a BigInt were to be bounded (f306541); a zero's scale is all its
  // fraction digits, trailing zeros included, and AsApproximateFloat64 and Add read it.
  test('the scale of a zero in the inf.Dec form is its fraction digits, less the suffix exponent', () => {
    assert.deepEqual(parseQuantity('0.0000000000000000000'), new CelQuantity(0n, -19, true, 'DecimalSI'));
    assert.deepEqual(parseQuantity('0.000Ki'), new CelQuantity(0n, -3, true, 'BinarySI'));
    assert.deepEqual(parseQuantity('-0.00000000000000000000Mi'), new CelQuantity(0n, -20, true, 'BinarySI'));
    assert.deepEqual(parseQuantity('0.0000000000000000000e315'), new CelQuantity(0n, 296, true, 'DecimalExponent'));
  });

  test('as kube answers in CEL', () => {
    // Go: 0 × math.Pow10(296) = 0 (a scale of 315 would be 0 × +Inf = NaN).
    assert.equal(run('quantity("0.0000000000000000000e315").asApproximateFloat() == 0.0'), true);
    // Go: the sum keeps the larger scale, 10^21 × 10^-21 through math.Pow10's tables.
    assert.equal(run('quantity("00000000000000000000000.000000000000000000000").add(quantity("1")).asApproximateFloat()'), 0.9999999999999999);
  });
});

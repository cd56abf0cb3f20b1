/** cel-go ext.Strings' strings.quote (kube 1.29+, strings version 2): the examples of ext/strings.go's doc comment. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { celEnvironment, celQuote } from '../../runtime/validation/cel-env.js';

const run = (expr: string): unknown => {
  const parsed = celEnvironment().parse(expr);
  const checked = parsed.check();
  if (!checked.valid) throw new Error(`compile: ${checked.error?.message}`);
  return parsed({});
};

describe('strings.quote', () => {
  test('cel-go doc examples', () => {
    assert.equal(run(`strings.quote('single-quote with "double quote"')`), '"single-quote with \\"double quote\\""');
    assert.equal(run('strings.quote("two escape sequences \\a\\n")'), '"two escape sequences \\a\\n"');
  });
  test('every escape cel-go writes; other characters as they are; a lone surrogate as U+FFFD', () => {
    assert.equal(celQuote('\x07\b\f\n\r\t\v\\"é'), '"\\a\\b\\f\\n\\r\\t\\v\\\\\\"é"');
    assert.equal(celQuote('a\uD800b'), '"a\uFFFDb"');
  });
  test('a rule: a message built with it', () => {
    assert.equal(run(`'name ' + strings.quote('x"y') + ' is taken'`), 'name "x\\"y" is taken');
  });
});

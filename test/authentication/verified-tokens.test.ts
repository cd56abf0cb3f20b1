/**
 * VerifiedTokens (authentication/verified-tokens.ts): a token's signature is checked once per key;
 * tokens that fail are checked every time and never kept; the claims handed out are frozen; the
 * table is bounded.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VerifiedTokens } from '../../runtime/authentication/verified-tokens.js';

describe('VerifiedTokens', () => {
  it('checks a token once per key, and again under another key', () => {
    const tokens = new VerifiedTokens<{ sub: string; aud: string[] }>();
    const key = {};
    let checks = 0;
    const check = () => (checks++, { sub: 'alice', aud: ['api'] });
    for (let i = 0; i < 3; i++) assert.deepEqual(tokens.claims('t1', key, check), { sub: 'alice', aud: ['api'] });
    assert.equal(checks, 1);
    tokens.claims('t1', {}, check);
    assert.equal(checks, 2, 'a rotated key verifies again');
    tokens.claims('t2', key, check);
    assert.equal(checks, 3, 'another token verifies on its own');
  });

  it('keeps nothing for a token that fails, and hands out frozen claims', () => {
    const tokens = new VerifiedTokens<{ aud: string[] }>();
    const key = {};
    let checks = 0;
    for (let i = 0; i < 3; i++) assert.equal(tokens.claims('bad', key, () => (checks++, undefined)), undefined);
    assert.equal(checks, 3);
    assert.equal(tokens.size, 0);
    const claims = tokens.claims('good', key, () => ({ aud: ['api'] }))!;
    assert.throws(() => claims.aud.push('other'), TypeError);
    assert.throws(() => ((claims as { aud: unknown }).aud = []), TypeError);
  });

  it('holds at most its bound, forgetting the least recently used', () => {
    const tokens = new VerifiedTokens<{ n: number }>(2);
    const key = {};
    let checks = 0;
    const check = (n: number) => () => (checks++, { n });
    tokens.claims('a', key, check(1));
    tokens.claims('b', key, check(2));
    tokens.claims('a', key, check(1)); // a is now the most recent
    tokens.claims('c', key, check(3)); // b goes
    assert.equal(tokens.size, 2);
    checks = 0;
    tokens.claims('a', key, check(1));
    tokens.claims('c', key, check(3));
    assert.equal(checks, 0);
    tokens.claims('b', key, check(2));
    assert.equal(checks, 1);
  });
});

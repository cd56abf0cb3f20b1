import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { continueExpired, decodeContinue, encodeContinue } from '../../runtime/storage/continue.js';
import { StorageError } from '../../runtime/storage/interface.js';

const PREFIX = '/registry/core/pods/';
const b64 = (s: string) => Buffer.from(s).toString('base64url');

describe('continue tokens', () => {
  it('encode as kube does: unpadded base64url JSON with the key relative to the prefix', () => {
    const token = encodeContinue(`${PREFIX}ns1/web-1\u0000`, PREFIX, 42);
    assert.doesNotMatch(token, /[=+/]/);
    assert.equal(Buffer.from(token, 'base64url').toString(), '{"v":"meta.k8s.io/v1","rv":42,"start":"ns1/web-1\\u0000"}');
    assert.deepEqual(decodeContinue(token, PREFIX), { startKey: `${PREFIX}ns1/web-1\u0000`, revision: 42 });
  });

  it('decode the bytes Go EncodeContinue produces', () => {
    // base64.RawURLEncoding of {"v":"meta.k8s.io/v1","rv":1234,"start":"default/nginx\u0000"}
    const token = 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzNCwic3RhcnQiOiJkZWZhdWx0L25naW54XHUwMDAwIn0';
    assert.deepEqual(decodeContinue(token, PREFIX), { startKey: `${PREFIX}default/nginx\u0000`, revision: 1234 });
  });

  it('take a negative rv, as kube\'s DecodeContinue does, as "the latest revision"', () => {
    // The rv -1 of the "inconsistent continue" a compacted token's 410 carries (continueExpired).
    const expired = continueExpired(PREFIX, `${PREFIX}ns1/web-1\u0000`);
    assert.equal(expired.code, 'Expired');
    assert.match(expired.message, /use the continue token in this response/);
    assert.equal(Buffer.from(expired.continueToken ?? '', 'base64url').toString(), '{"v":"meta.k8s.io/v1","rv":-1,"start":"ns1/web-1\\u0000"}');
    assert.deepEqual(decodeContinue(expired.continueToken ?? '', PREFIX), { startKey: `${PREFIX}ns1/web-1\u0000` });
    assert.deepEqual(decodeContinue(b64('{"v":"meta.k8s.io/v1","rv":-7,"start":"a"}'), PREFIX), { startKey: `${PREFIX}a` });
  });

  it('refuse a key outside the prefix when encoding', () => {
    assert.throws(() => encodeContinue('/registry/core/secrets/a', PREFIX, 1));
  });

  const bad: Array<[string, string, RegExp]> = [
    ['empty', '', /not base64url/],
    ['not base64', 'a b', /not base64url/],
    ['padded', `${b64('{}')}=`, /not base64url/],
    ['not JSON', b64('hello'), /not a JSON object/],
    ['an array', b64('[1]'), /not a JSON object/],
    ['wrong version', b64('{"v":"v2","rv":1,"start":"a"}'), /unrecognized encoded version/],
    ['rv zero', b64('{"v":"meta.k8s.io/v1","rv":0,"start":"a"}'), /resourceVersion/],
    ['rv string', b64('{"v":"meta.k8s.io/v1","rv":"5","start":"a"}'), /resourceVersion/],
    ['empty start', b64('{"v":"meta.k8s.io/v1","rv":5,"start":""}'), /start key empty/],
    ['path traversal', b64('{"v":"meta.k8s.io/v1","rv":5,"start":"../secrets/a"}'), /invalid start key/],
    ['dot segment', b64('{"v":"meta.k8s.io/v1","rv":5,"start":"a/./b"}'), /invalid start key/],
    ['double slash', b64('{"v":"meta.k8s.io/v1","rv":5,"start":"a//b"}'), /invalid start key/],
    // sec12: edited tokens.
    ['rv huge (not an int64)', b64('{"v":"meta.k8s.io/v1","rv":1e30,"start":"a"}'), /resourceVersion/],
    ['rv fractional', b64('{"v":"meta.k8s.io/v1","rv":1.5,"start":"a"}'), /resourceVersion/],
    ['climbing after a NUL', b64('{"v":"meta.k8s.io/v1","rv":5,"start":"a\\u0000/../../secrets/x"}'), /invalid start key/],
    ['climbing from the root', b64('{"v":"meta.k8s.io/v1","rv":5,"start":"/../x"}'), /invalid start key/],
    ['a bare ..', b64('{"v":"meta.k8s.io/v1","rv":5,"start":".."}'), /invalid start key/],
    ['a trailing slash', b64('{"v":"meta.k8s.io/v1","rv":5,"start":"ns1/"}'), /invalid start key/],
  ];
  for (const [what, token, message] of bad) {
    it(`reject ${what} as InvalidObject`, () => {
      assert.throws(
        () => decodeContinue(token, PREFIX),
        (err: unknown) => err instanceof StorageError && err.code === 'InvalidObject' && message.test(err.message),
      );
    });
  }

  it('keep a token taken from another resource\'s or namespace\'s list inside the prefix it is replayed against', () => {
    const token = encodeContinue(`${PREFIX}ns1/web-1\u0000`, PREFIX, 42);
    for (const prefix of ['/registry/core/secrets/', '/registry/core/secrets/ns2/']) {
      const { startKey } = decodeContinue(token, prefix);
      assert.ok(startKey.startsWith(prefix), startKey);
    }
    // A start that would be a sibling prefix (`ns10` for `ns1/`) is still a key under the prefix.
    assert.equal(decodeContinue(b64('{"v":"meta.k8s.io/v1","rv":5,"start":"0/x"}'), '/registry/core/pods/ns1/').startKey, '/registry/core/pods/ns1/0/x');
  });
});

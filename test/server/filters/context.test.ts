/**
 * The request URL is parsed once (runtime/server/filters/context.ts parseRequestURL) and read
 * from the request context by the filters, the handler and the servers behind it. The parse is
 * `new URL`'s, with request lines it would leave as they are only split: compared here with
 * `new URL` on hand-picked and random request lines.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newRequestContext, parseRequestURL, parseVerbatimURL } from '../../../runtime/server/filters/context.js';
import { hasDotSegment } from '../../../runtime/server/filters/dotsegments.js';
import { apiRequestOf } from '../../../runtime/server/handler.js';
import { buildHandlerChain } from '../../../runtime/server/filters/chain.js';
import { objectResponse } from '../../../runtime/endpoints/responsewriters.js';
import type { RequestContext } from '../../../runtime/server/filters/types.js';
import { request } from './helpers.js';

function whatwg(raw: string): URL {
  return new URL(`http://kgen.invalid${raw.startsWith('/') ? raw : `/${raw}`}`);
}

function same(raw: string): void {
  // A backslash in the path is a character, not the `/` new URL reads (see literalBackslashes).
  const q = raw.indexOf('?');
  const want = whatwg(q < 0 ? raw.replaceAll('\\', '%5C') : raw.slice(0, q).replaceAll('\\', '%5C') + raw.slice(q));
  const got = parseRequestURL(raw);
  assert.equal(got.pathname, want.pathname, `pathname of ${JSON.stringify(raw)}`);
  assert.equal(got.search, want.search, `search of ${JSON.stringify(raw)}`);
  assert.deepEqual([...got.searchParams], [...want.searchParams], `query of ${JSON.stringify(raw)}`);
}

describe('parseRequestURL', () => {
  it('reads request lines as new URL does', () => {
    const lines = [
      '/',
      '/api/v1/namespaces/default/pods/p1',
      '/apis/example.com/v1/namespaces/ns1/widgets?labelSelector=a%3Db,c+in+(x,y)&limit=5',
      '/apis/example.com/v1/widgets?',
      '/apis/example.com/v1/widgets?watch=1&resourceVersion=0&timeoutSeconds=300',
      '/apis/example.com/v1/widgets?a=%zz&b=%2e',
      '/apis/example.com/v1/widgets?x=1?y=2',
      '//apis/example.com/v1/widgets',
      '/healthz/../apis/x',
      '/healthz/./ping',
      '/apis/%2e%2e/x',
      '/apis/%2E/x',
      '/apis/.well-known',
      '/apis/a b?c d',
      '/apis/a\\b',
      '/apis/x#frag',
      '/apis/x?y#frag',
      '/apis/é?ü=1',
      '/apis/x\ty',
      '/apis/{x}`^|[]',
      "/apis/x?q='1'",
      '/apis/x?q="1"&<a>',
      'apis/x',
      '/apis/widgets;x=1:@!$&()*+,=~_-.',
    ];
    for (const raw of lines) same(raw);
  });

  it('reads random request lines as new URL does', () => {
    const alphabet = ['/', '/', 'a', 'Z', '0', '.', '..', '%', '%2e', '%2E', '%41', '?', '&', '=', '+', '#', ' ', '\\', "'", '"', '`', '{', '}', '<', '>', '^', '|', '[', ']', '~', ':', '@', ';', ',', '!', '$', '(', ')', '*', '_', '-', 'é', '\t', '\n'];
    let seed = 1;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 5000; i++) {
      let raw = '/';
      const length = random(16);
      for (let j = 0; j < length; j++) raw += alphabet[random(alphabet.length)];
      same(raw);
    }
  });
});

describe('parseVerbatimURL', () => {
  it('takes only lines without a dot segment (the chain checks the others), read as new URL reads them', () => {
    const alphabet = ['/', '/', '/', 'a', '0', '.', '..', '%', '%2e', '%2E', '%2', 'e', 'E', '?', '=', ' ', '\\', '#', '~', '-', '_'];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    let taken = 0;
    let dots = 0;
    for (let i = 0; i < 20000; i++) {
      let raw = '/';
      const length = random(12);
      for (let j = 0; j < length; j++) raw += alphabet[random(alphabet.length)];
      const url = parseVerbatimURL(raw);
      if (hasDotSegment(raw)) {
        dots++;
        assert.equal(url, undefined, `a dot segment taken: ${JSON.stringify(raw)}`);
      }
      if (url === undefined) continue;
      taken++;
      const want = whatwg(raw);
      assert.equal(url.pathname, want.pathname, raw);
      assert.equal(url.search, want.search, raw);
    }
    assert.ok(taken > 1000 && dots > 1000, `both kinds generated (${taken} taken, ${dots} with dot segments)`);
    for (const raw of ['/api/v1/namespaces/default/pods/..', '/api/%2E%2e/x', '/api/./x?y=1', '/.', '/..?x', '/a/.%2e/b']) assert.equal(parseVerbatimURL(raw), undefined, raw);
    assert.equal(parseVerbatimURL('/api/v1/namespaces/default/pods/a..b?x=/../')?.pathname, '/api/v1/namespaces/default/pods/a..b');
  });
});

describe('the chain\'s dot-segment check (only lines parseVerbatimURL does not take)', () => {
  it('refuses every line with a dot segment, whatever its form (encoded, absolute-form, `;`, `//`, backslashes, unicode dots)', async () => {
    const serve = buildHandlerChain(() => objectResponse(200, {}), {
      authenticator: { authenticate: () => ({ user: { username: 'alice', groups: ['system:authenticated'] } }) } as never,
      authorizer: { authorize: () => ({ decision: 'Allow' }) } as never,
    });
    const alphabet = ['/', '/', '//', 'api', 'v1', 'pods', 'a', '.', '..', '%2e', '%2E', '%252e', '%2', 'e', '%', '%2f', '%5c', '\\', ';', '?', '#', '&', '=', ' ', 'é', '\u3002', '\uff0e', '%c0%ae', '*', ':', '@', '~', '+'];
    const starts = ['/', '/', '/api/v1/namespaces/ns/', 'http://h/', 'http://h', '*', '', '//', 'api/', '\\', '%2e'];
    let seed = 5;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    let refused = 0;
    for (let i = 0; i < 20000; i++) {
      let raw = starts[random(starts.length)]!;
      for (let j = random(10); j > 0; j--) raw += alphabet[random(alphabet.length)];
      // 45ff31c checked every line before parsing it; the chain now skips lines parseVerbatimURL takes.
      if (parseVerbatimURL(raw) !== undefined) {
        assert.equal(hasDotSegment(raw), false, JSON.stringify(raw));
        continue;
      }
      if (!hasDotSegment(raw)) continue;
      const response = await serve(request('GET', raw));
      assert.equal((response as { code?: number }).code, 400, JSON.stringify(raw));
      refused++;
    }
    assert.ok(refused > 500, `refused ${refused}`);
  });
});

describe('the parsed URL on the request context', () => {
  it('is made once as the request enters the chain and is what the handler and the API request read', async () => {
    let seen: RequestContext | undefined;
    const serve = buildHandlerChain(
      (ctx) => {
        seen = ctx;
        return objectResponse(200, {});
      },
      { authenticator: { authenticate: () => ({ user: { username: 'alice', groups: ['system:authenticated'] } }) } as never, authorizer: { authorize: () => ({ decision: 'Allow' }) } as never },
    );
    const incoming = request('GET', '/apis/example.com/v1/namespaces/ns1/widgets?limit=5');
    await serve(incoming);
    assert.ok(seen);
    assert.equal(seen.url.pathname, '/apis/example.com/v1/namespaces/ns1/widgets');
    assert.equal(seen.info?.resource, 'widgets');
    const req = apiRequestOf(incoming, seen);
    assert.equal(req.query, seen.url.searchParams, 'the handler reads the context\'s query, not a new parse');
    assert.equal(req.query.get('limit'), '5');
  });

  it('is parsed by newRequestContext when the caller has none', () => {
    const ctx = newRequestContext(request('GET', '/api/v1/pods?watch=true'));
    assert.equal(ctx.url.pathname, '/api/v1/pods');
    assert.equal(ctx.url.searchParams.get('watch'), 'true');
  });
});

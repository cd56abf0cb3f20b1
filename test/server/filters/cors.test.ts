import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileOriginPatterns, corsAllowedOriginsProblems, withCORS } from '../../../runtime/server/filters/cors.js';
import { startTestServer } from '../testserver.js';
import { contextFor, recordingHandler } from './helpers.js';

describe('CORS filter', () => {
  it('is off without --cors-allowed-origins', async () => {
    const ctx = contextFor('GET', '/version', { headers: { origin: 'https://evil.example' } });
    await withCORS([])(recordingHandler())(ctx);
    assert.deepEqual(ctx.responseHeaders, {});
  });

  it('adds kube’s Access-Control headers for a matching origin and passes the request on', async () => {
    const next = recordingHandler();
    const ctx = contextFor('GET', '/api/v1/namespaces', { headers: { origin: 'https://ui.example.com' } });
    const response = await withCORS(['//ui\\.example\\.com$'])(next)(ctx);
    assert.equal(response.code, 200);
    assert.equal(next.calls.length, 1);
    assert.equal(ctx.responseHeaders['Access-Control-Allow-Origin'], 'https://ui.example.com');
    assert.equal(ctx.responseHeaders['Access-Control-Allow-Methods'], 'POST, GET, OPTIONS, PUT, DELETE, PATCH');
    assert.equal(ctx.responseHeaders['Access-Control-Allow-Headers'], 'Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, X-Requested-With, If-Modified-Since');
    assert.equal(ctx.responseHeaders['Access-Control-Expose-Headers'], 'Date');
    assert.equal(ctx.responseHeaders['Access-Control-Allow-Credentials'], 'true');
  });

  it('answers a matching preflight itself with 204, before authentication', async () => {
    const next = recordingHandler();
    const response = await withCORS(['example\\.com'])(next)(contextFor('OPTIONS', '/api/v1/namespaces', { headers: { origin: 'https://example.com' } }));
    assert.equal(response.code, 204);
    assert.equal(next.calls.length, 0);
  });

  it('gives a non-matching origin no CORS headers', async () => {
    const next = recordingHandler();
    const ctx = contextFor('OPTIONS', '/api/v1/namespaces', { headers: { origin: 'https://other.org' } });
    await withCORS(['example\\.com'])(next)(ctx);
    assert.equal(next.calls.length, 1);
    assert.deepEqual(ctx.responseHeaders, {});
  });

  it('refuses an invalid pattern at start-up', () => {
    assert.throws(() => compileOriginPatterns(['(']), /invalid CORS allowed origin, --cors-allowed-origins flag was set to \(/);
  });

  it('refuses, as kube does at start-up (CVE-2022-1996), patterns that do not pin the host', async () => {
    // Unpinned, `example\.com` lets https://example.com.evil.io read answers with credentials.
    const problems = corsAllowedOriginsProblems(['example\\.com', '^https://ok\\.example$', '//ok\\.example(:|$)', 'https://ok\\.example', '', '^example\\.com']);
    assert.equal(problems.length, 3, problems.join('\n'));
    assert.match(problems[0]!, /^--cors-allowed-origins has an invalid regular expression: regular expression does not pin to start\/end of host in the origin header, help: List of allowed origins for CORS/);
    assert.match(problems[1]!, /^empty value in --cors-allowed-origins, help: /);
    assert.match(problems[2]!, /does not pin to start\/end of host/);
    await assert.rejects(startTestServer({ corsAllowedOrigins: ['example\\.com'] }), /--cors-allowed-origins has an invalid regular expression: regular expression does not pin/);
    await assert.rejects(startTestServer({ corsAllowedOrigins: ['a\\.example', 'b\\.example'] }), (err: Error) => err.message.startsWith('[--cors-allowed-origins') && err.message.split('does not pin').length === 3);
    const ok = await startTestServer({ corsAllowedOrigins: ['^https://ui\\.example\\.com$'] });
    await ok.close();
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileOriginPatterns, withCORS } from '../../../runtime/server/filters/cors.js';
import { contextFor, recordingHandler } from './helpers.js';

describe('CORS filter', () => {
  it('is off without --cors-allowed-origins', async () => {
    const ctx = contextFor('GET', '/version', { headers: { origin: 'https://evil.example' } });
    await withCORS([])(ctx, recordingHandler());
    assert.deepEqual(ctx.responseHeaders, {});
  });

  it('adds kube’s Access-Control headers for a matching origin and passes the request on', async () => {
    const next = recordingHandler();
    const ctx = contextFor('GET', '/api/v1/namespaces', { headers: { origin: 'https://ui.example.com' } });
    const response = await withCORS(['//ui\\.example\\.com$'])(ctx, next);
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
    const response = await withCORS(['example\\.com'])(contextFor('OPTIONS', '/api/v1/namespaces', { headers: { origin: 'https://example.com' } }), next);
    assert.equal(response.code, 204);
    assert.equal(next.calls.length, 0);
  });

  it('gives a non-matching origin no CORS headers', async () => {
    const next = recordingHandler();
    const ctx = contextFor('OPTIONS', '/api/v1/namespaces', { headers: { origin: 'https://other.org' } });
    await withCORS(['example\\.com'])(ctx, next);
    assert.equal(next.calls.length, 1);
    assert.deepEqual(ctx.responseHeaders, {});
  });

  it('refuses an invalid pattern at start-up', () => {
    assert.throws(() => compileOriginPatterns(['(']), /invalid CORS allowed origin, --cors-allowed-origins flag was set to \(/);
  });
});

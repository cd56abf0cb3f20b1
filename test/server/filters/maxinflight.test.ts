import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { APIResponse } from '../../../runtime/endpoints/handler.js';
import { objectResponse } from '../../../runtime/endpoints/responsewriters.js';
import { InFlightCounters, withMaxInFlightLimit } from '../../../runtime/server/filters/maxinflight.js';
import { admin, alice, body, contextFor } from './helpers.js';

/** A handler that holds every request until release(). */
function held() {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const handler = async (): Promise<APIResponse> => {
    await gate;
    return objectResponse(200, {});
  };
  return { handler, release };
}

describe('max-in-flight filter', () => {
  it('refuses read-only requests past the limit with 429, Retry-After: 1 and a TooManyRequests Status', async () => {
    const counters = new InFlightCounters();
    const filter = withMaxInFlightLimit({ maxRequestsInflight: 2, maxMutatingRequestsInflight: 1 }, counters);
    const { handler, release } = held();
    const first = [1, 2].map(() => filter(contextFor('GET', '/api/v1/namespaces', { user: alice }), handler));
    assert.equal(counters.readOnly, 2);
    const refused = await filter(contextFor('GET', '/api/v1/namespaces/a', { user: alice }), handler);
    assert.equal(refused.code, 429);
    assert.equal(refused.headers['Retry-After'], '1');
    assert.equal(body(refused).reason, 'TooManyRequests');
    assert.equal(body(refused).message, 'Too many requests, please try again later.');
    // Mutating requests have their own limit.
    const write = filter(contextFor('POST', '/api/v1/namespaces', { user: alice }), handler);
    assert.equal(counters.mutating, 1);
    assert.equal((await filter(contextFor('DELETE', '/api/v1/namespaces/a', { user: alice }), handler)).code, 429);
    release();
    for (const r of await Promise.all([...first, write])) assert.equal(r.code, 200);
    assert.deepEqual({ ...counters }, { readOnly: 0, mutating: 0 });
    assert.equal((await filter(contextFor('GET', '/api/v1/namespaces', { user: alice }), handler)).code, 200);
  });

  it('does not count watches, and always serves system:masters', async () => {
    const counters = new InFlightCounters();
    const filter = withMaxInFlightLimit({ maxRequestsInflight: 1, maxMutatingRequestsInflight: 1 }, counters);
    const { handler, release } = held();
    const watch = filter(contextFor('GET', '/api/v1/namespaces?watch=true', { user: alice }), handler);
    assert.equal(counters.readOnly, 0);
    const one = filter(contextFor('GET', '/api/v1/namespaces', { user: alice }), handler);
    const masters = filter(contextFor('GET', '/api/v1/namespaces', { user: admin }), handler);
    release();
    for (const r of await Promise.all([watch, one, masters])) assert.equal(r.code, 200);
  });

  it('treats a limit of 0 as no limit', async () => {
    const counters = new InFlightCounters();
    const filter = withMaxInFlightLimit({ maxRequestsInflight: 0, maxMutatingRequestsInflight: 0 }, counters);
    const { handler, release } = held();
    const all = Array.from({ length: 5 }, () => filter(contextFor('POST', '/api/v1/namespaces', { user: alice }), handler));
    release();
    for (const r of await Promise.all(all)) assert.equal(r.code, 200);
  });
});

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
    const first = [1, 2].map(() => filter(handler)(contextFor('GET', '/api/v1/namespaces', { user: alice })));
    assert.equal(counters.readOnly, 2);
    const refused = await filter(handler)(contextFor('GET', '/api/v1/namespaces/a', { user: alice }));
    assert.equal(refused.code, 429);
    assert.equal(refused.headers['Retry-After'], '1');
    assert.equal(body(refused).reason, 'TooManyRequests');
    assert.equal(body(refused).message, 'Too many requests, please try again later.');
    // Mutating requests have their own limit.
    const write = filter(handler)(contextFor('POST', '/api/v1/namespaces', { user: alice }));
    assert.equal(counters.mutating, 1);
    assert.equal((await filter(handler)(contextFor('DELETE', '/api/v1/namespaces/a', { user: alice }))).code, 429);
    release();
    for (const r of await Promise.all([...first, write])) assert.equal(r.code, 200);
    assert.deepEqual({ ...counters }, { readOnly: 0, mutating: 0 });
    assert.equal((await filter(handler)(contextFor('GET', '/api/v1/namespaces', { user: alice }))).code, 200);
  });

  it('does not count watches, and always serves system:masters', async () => {
    const counters = new InFlightCounters();
    const filter = withMaxInFlightLimit({ maxRequestsInflight: 1, maxMutatingRequestsInflight: 1 }, counters);
    const { handler, release } = held();
    const watch = filter(handler)(contextFor('GET', '/api/v1/namespaces?watch=true', { user: alice }));
    assert.equal(counters.readOnly, 0);
    const one = filter(handler)(contextFor('GET', '/api/v1/namespaces', { user: alice }));
    const masters = filter(handler)(contextFor('GET', '/api/v1/namespaces', { user: admin }));
    release();
    for (const r of await Promise.all([watch, one, masters])) assert.equal(r.code, 200);
  });

  it('treats a limit of 0 as no limit', async () => {
    const counters = new InFlightCounters();
    const filter = withMaxInFlightLimit({ maxRequestsInflight: 0, maxMutatingRequestsInflight: 0 }, counters);
    const { handler, release } = held();
    const all = Array.from({ length: 5 }, () => filter(handler)(contextFor('POST', '/api/v1/namespaces', { user: alice })));
    release();
    for (const r of await Promise.all(all)) assert.equal(r.code, 200);
  });

  it('counts a request until its response is written, not until the chain answers', async () => {
    const counters = new InFlightCounters();
    const filter = withMaxInFlightLimit({ maxRequestsInflight: 1, maxMutatingRequestsInflight: 1 }, counters);
    const releases: Array<() => void> = [];
    const untilWritten = (release: () => void) => void releases.push(release);
    const answered = filter(() => objectResponse(200, {}))(contextFor('GET', '/api/v1/namespaces', { user: alice, extra: { untilWritten } }));
    assert.equal((answered as APIResponse).code, 200);
    // Answered synchronously, but not yet written: the slot is still taken.
    assert.equal(counters.readOnly, 1);
    const shed = await filter(() => objectResponse(200, {}))(contextFor('GET', '/api/v1/namespaces', { user: alice, extra: { untilWritten } }));
    assert.equal(shed.code, 429);
    assert.equal(releases.length, 1);
    releases[0]!();
    assert.equal(counters.readOnly, 0);
    assert.equal((await filter(() => objectResponse(200, {}))(contextFor('GET', '/api/v1/namespaces', { user: alice }))).code, 200);
  });

  it('never counts nor sheds /healthz, /livez and /readyz', async () => {
    const counters = new InFlightCounters();
    const filter = withMaxInFlightLimit({ maxRequestsInflight: 1, maxMutatingRequestsInflight: 1 }, counters);
    const { handler, release } = held();
    const busy = filter(handler)(contextFor('GET', '/api/v1/namespaces', { user: alice }));
    for (const path of ['/healthz', '/livez', '/readyz', '/readyz/ping', '/livez?verbose']) {
      assert.equal((await filter(() => objectResponse(200, {}))(contextFor('GET', path, { user: alice }))).code, 200, path);
    }
    assert.equal((await filter(() => objectResponse(200, {}))(contextFor('GET', '/healthzx', { user: alice }))).code, 429);
    release();
    await busy;
  });
});

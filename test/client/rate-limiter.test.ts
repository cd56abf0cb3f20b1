import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RestClient, TokenBucketRateLimiter, type Clock } from '@kgen/client';
import { sendJSON, startStub } from './stub-server.js';

/** A clock whose sleeps advance time instantly, recording each sleep. */
function fakeClock(): Clock & { sleeps: number[]; t: number } {
  const clock = {
    t: 0,
    sleeps: [] as number[],
    now: () => clock.t,
    sleep: async (ms: number) => {
      clock.sleeps.push(ms);
      clock.t += ms;
    },
  };
  return clock;
}

describe('TokenBucketRateLimiter', () => {
  it('lets a burst through at once, then spaces calls 1/qps apart', async () => {
    const clock = fakeClock();
    const limiter = new TokenBucketRateLimiter(10, 3, clock);
    for (let i = 0; i < 3; i++) await limiter.wait();
    assert.deepEqual(clock.sleeps, []);
    await limiter.wait();
    await limiter.wait();
    assert.equal(clock.sleeps.length, 2);
    for (const ms of clock.sleeps) assert.ok(Math.abs(ms - 100) < 1e-6, `slept ${ms}`);
    assert.ok(Math.abs(clock.t - 200) < 1e-6);
  });

  it('refills with elapsed time, never above burst', async () => {
    const clock = fakeClock();
    const limiter = new TokenBucketRateLimiter(2, 2, clock);
    assert.ok(limiter.tryAccept());
    assert.ok(limiter.tryAccept());
    assert.ok(!limiter.tryAccept());
    clock.t += 500; // one token back
    assert.ok(limiter.tryAccept());
    assert.ok(!limiter.tryAccept());
    clock.t += 60_000; // refills to burst, not 120
    assert.ok(limiter.tryAccept());
    assert.ok(limiter.tryAccept());
    assert.ok(!limiter.tryAccept());
  });

  it('reserves in arrival order for concurrent waiters', async () => {
    const clock = fakeClock();
    // Sleeps that do not advance time, so each waiter's reservation is visible.
    const sleeps: number[] = [];
    const limiter = new TokenBucketRateLimiter(4, 1, { now: () => 0, sleep: async (ms) => void sleeps.push(ms) });
    await Promise.all([limiter.wait(), limiter.wait(), limiter.wait()]);
    assert.deepEqual(sleeps, [250, 500]);
    assert.equal(clock.sleeps.length, 0);
  });

  it('returns the token of an aborted waiter', async () => {
    const sleeps: number[] = [];
    const limiter = new TokenBucketRateLimiter(1, 1, { now: () => 0, sleep: async (ms) => void sleeps.push(ms) });
    await limiter.wait();
    const ac = new AbortController();
    ac.abort(new Error('gave up'));
    await assert.rejects(limiter.wait(ac.signal), /gave up/);
    const aborting = new TokenBucketRateLimiter(1, 1, {
      now: () => 0,
      sleep: async (ms, signal) => {
        sleeps.push(ms);
        if (signal) throw new Error('aborted while waiting');
      },
    });
    await aborting.wait();
    await assert.rejects(aborting.wait(new AbortController().signal), /aborted while waiting/);
    await aborting.wait();
    // The failed waiter gave its reservation back: the next one waits one interval, not two.
    assert.deepEqual(sleeps, [1000, 1000]);
  });

  it('rejects a nonsensical configuration', () => {
    assert.throws(() => new TokenBucketRateLimiter(0, 1), /qps/);
    assert.throws(() => new TokenBucketRateLimiter(1, 0), /burst/);
  });
});

describe('RestClient rate limiting', () => {
  it('spaces real requests by qps after the burst', async () => {
    const stub = await startStub((_req, res) => sendJSON(res, 200, {}));
    const client = new RestClient({ server: stub.url, qps: 20, burst: 1 });
    const start = performance.now();
    for (let i = 0; i < 5; i++) await client.request({ method: 'GET', path: '/' });
    const elapsed = performance.now() - start;
    // Four waits of 50 ms after the one-token burst.
    assert.ok(elapsed >= 190, `5 requests at 20 qps took ${elapsed}ms`);
    assert.ok(elapsed < 3000, `took ${elapsed}ms`);
    client.close();
    await stub.close();
  });

  it('does not limit when qps is 0 or negative', async () => {
    const stub = await startStub((_req, res) => sendJSON(res, 200, {}));
    for (const qps of [0, -1]) {
      const client = new RestClient({ server: stub.url, qps, burst: 1 });
      for (let i = 0; i < 20; i++) await client.request({ method: 'GET', path: '/' });
      // Proved by the limiter, not by a clock (a bound on elapsed time fails on a loaded machine):
      // no token bucket, and a token still there after 20 requests, where a burst of 1 has none.
      assert.ok(!(client.rateLimiter instanceof TokenBucketRateLimiter));
      for (let i = 0; i < 20; i++) assert.ok(client.rateLimiter.tryAccept());
      client.close();
    }
    await stub.close();
  });

  it('defaults to qps 5, burst 10, as client-go', () => {
    const client = new RestClient({ server: 'http://127.0.0.1:1' });
    const limiter = client.rateLimiter as TokenBucketRateLimiter;
    assert.equal(limiter.qps, 5);
    assert.equal(limiter.burst, 10);
    client.close();
  });
});

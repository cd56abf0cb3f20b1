import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { objectResponse } from '../../../runtime/endpoints/responsewriters.js';
import { parseGoDuration } from '../../../runtime/api/duration.js';
import { requestTimeout, TIMEOUT_MESSAGE, withTimeout } from '../../../runtime/server/filters/timeout.js';
import { parseRequestURL } from '../../../runtime/server/filters/context.js';
import { body, contextFor } from './helpers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('timeout filter', () => {
  it('answers 504 Timeout when a non-long-running request outlives the deadline, aborting its signal', async () => {
    const ctx = contextFor('GET', '/apis/example.com/v1/widgets');
    let aborted = false;
    const response = await withTimeout(30)(async (c) => {
      c.request.signal.addEventListener('abort', () => (aborted = true));
      await sleep(200);
      return objectResponse(200, {});
    })(ctx);
    assert.equal(response.code, 504);
    assert.equal(body(response).reason, 'Timeout');
    assert.equal(body(response).message, TIMEOUT_MESSAGE);
    assert.equal(aborted, true);
  });

  it("keeps no process alive with the deadline of a request that never ends (a stuck handler at shutdown)", async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    void withTimeout(60_000)(async () => {
      started();
      return new Promise<never>(() => undefined);
    })(contextFor('GET', '/api/v1/namespaces'));
    await running;
    assert.equal(timers(), before, 'the 60 s deadline timer is not among the resources that keep the process alive');
  });

  it('passes responses that arrive in time', async () => {
    const response = await withTimeout(1000)(async () => objectResponse(200, {}))(contextFor('GET', '/api/v1/namespaces'));
    assert.equal(response.code, 200);
  });

  it('exempts watches', async () => {
    const response = await withTimeout(10)(async () => {
      await sleep(50);
      return objectResponse(200, {});
    })(contextFor('GET', '/api/v1/namespaces?watch=true'));
    assert.equal(response.code, 200);
  });

  it('shortens the deadline to a smaller ?timeout= and refuses a malformed one with 400', async () => {
    assert.equal(requestTimeout(parseRequestURL('/x?timeout=32s'), 60_000), 32_000);
    assert.equal(requestTimeout(parseRequestURL('/x?timeout=5m'), 60_000), 60_000);
    assert.equal(requestTimeout(parseRequestURL('/x?timeout=0s'), 60_000), 60_000);
    assert.equal(requestTimeout(parseRequestURL('/x'), 60_000), 60_000);
    const response = await withTimeout(1000)(async () => objectResponse(200, {}))(contextFor('GET', '/api/v1/namespaces?timeout=abc'));
    assert.equal(response.code, 400);
    assert.equal(body(response).message, 'invalid timeout specified in the request URL - time: invalid duration "abc"');
    const short = await withTimeout(60_000)(async () => {
      await sleep(200);
      return objectResponse(200, {});
    })(contextFor('GET', '/api/v1/namespaces?timeout=20ms'));
    assert.equal(short.code, 504);
  });
});

describe('parseGoDuration', () => {
  it('parses Go durations into milliseconds, with Go’s errors', () => {
    assert.equal(parseGoDuration('1m30s'), 90_000);
    assert.equal(parseGoDuration('1.5h'), 5_400_000);
    assert.equal(parseGoDuration('250ms'), 250);
    assert.equal(parseGoDuration('0'), 0);
    assert.equal(parseGoDuration('-2s'), -2000);
    assert.throws(() => parseGoDuration('5'), /time: missing unit in duration "5"/);
    assert.throws(() => parseGoDuration('5d'), /time: unknown unit "d" in duration "5d"/);
    assert.throws(() => parseGoDuration(''), /time: invalid duration ""/);
    assert.throws(() => parseGoDuration('s'), /time: invalid duration "s"/);
  });
});

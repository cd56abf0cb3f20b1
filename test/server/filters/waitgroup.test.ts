import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SafeWaitGroup, withWaitGroup } from '../../../runtime/server/filters/waitgroup.js';
import { body, contextFor, recordingHandler } from './helpers.js';

describe('in-flight wait group filter', () => {
  it('counts non-long-running requests while they run and wait() resolves when they finish', async () => {
    const wg = new SafeWaitGroup();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const inner = recordingHandler();
    const running = withWaitGroup(wg)(async (ctx) => {
      await gate;
      return inner(ctx);
    })(contextFor('GET', '/api/v1/namespaces'));
    assert.equal(wg.size, 1);
    let drained = false;
    const waiting = wg.wait().then(() => (drained = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(drained, false);
    release();
    assert.equal((await running).code, 200);
    await waiting;
    assert.equal(wg.size, 0);
  });

  it('refuses new requests with 503 and Retry-After once shutdown waits', async () => {
    const wg = new SafeWaitGroup();
    await wg.wait();
    const response = await withWaitGroup(wg)(recordingHandler())(contextFor('GET', '/api/v1/namespaces'));
    assert.equal(response.code, 503);
    assert.equal(response.headers['Retry-After'], '1');
    assert.equal(body(response).message, 'apiserver is shutting down');
    assert.equal(body(response).reason, 'ServiceUnavailable');
  });

  it('does not count watches, which end on their own at shutdown', async () => {
    const wg = new SafeWaitGroup();
    const next = recordingHandler();
    await withWaitGroup(wg)(async (ctx) => {
      assert.equal(wg.size, 0);
      return next(ctx);
    })(contextFor('GET', '/api/v1/namespaces?watch=1'));
    await wg.wait();
    assert.equal((await withWaitGroup(wg)(next)(contextFor('GET', '/api/v1/namespaces?watch=1'))).code, 200);
  });

  it('releases the count when the handler throws', async () => {
    const wg = new SafeWaitGroup();
    await assert.rejects(Promise.resolve(withWaitGroup(wg)(async () => Promise.reject(new Error('x')))(contextFor('GET', '/'))));
    assert.equal(wg.size, 0);
  });
});

/** The bounded steps of a graceful shutdown (runtime/controlplane/shutdown.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stopStep, untilOr } from '../../runtime/controlplane/shutdown.js';

/** A promise's outcome as far as it got: `now()` lets pending callbacks run, then answers. */
function settledValue<T>(promise: Promise<T>): { now(): Promise<T | 'pending'> } {
  let state: { value: T } | undefined;
  void promise.then((value) => (state = { value }));
  // setImmediate is not mocked: it runs once the promise jobs queued so far have run.
  return { now: () => new Promise((resolve) => setImmediate(() => resolve(state ? state.value : 'pending'))) };
}

describe('shutdown steps', () => {
  it('untilOr says whether the promise finished before the deadline', async (t) => {
    assert.equal(await untilOr(Promise.resolve(), Date.now() + 1000), true);
    // The deadline ends the wait, exactly when it passes: proved on a mocked clock, not a real one
    // (a bound on elapsed time fails on a loaded machine).
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
    const answer = settledValue(untilOr(new Promise(() => undefined), 50));
    t.mock.timers.tick(49);
    assert.equal(await answer.now(), 'pending', 'still waiting before the deadline');
    t.mock.timers.tick(1);
    assert.equal(await answer.now(), false);
  });

  it('a step that never finishes is logged by name and left behind', async (t) => {
    const lines: string[] = [];
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
    const stopped = settledValue(stopStep('the controllers', () => new Promise(() => undefined), (l) => lines.push(l), 50));
    t.mock.timers.tick(49);
    assert.equal(await stopped.now(), 'pending', 'still waiting before its bound');
    t.mock.timers.tick(1);
    assert.equal(await stopped.now(), undefined, 'left behind at its bound');
    assert.deepEqual(lines, ['shutdown: the controllers did not finish within 0.05 s; going on without it']);
  });

  it('a step that fails in time fails the shutdown; a late failure is only logged', async () => {
    await assert.rejects(stopStep('storage', () => Promise.reject(new Error('boom')), () => undefined, 1000), /boom/);
    await assert.rejects(
      stopStep('storage', () => {
        throw new Error('sync boom');
      }, () => undefined, 1000),
      /sync boom/,
    );
    const lines: string[] = [];
    let fail!: (err: Error) => void;
    await stopStep('the aggregator', () => new Promise((_, reject) => (fail = reject)), (l) => lines.push(l), 20);
    const unhandled: unknown[] = [];
    const onUnhandled = (err: unknown) => unhandled.push(err);
    process.on('unhandledRejection', onUnhandled);
    try {
      fail(new Error('late'));
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    assert.deepEqual(unhandled, []);
    assert.deepEqual(lines, ['shutdown: the aggregator did not finish within 0.02 s; going on without it', 'shutdown: the aggregator failed after its bound: late']);
  });

  it('a step that fails in time leaves no timer behind (it would hold the process open for the bound)', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    await assert.rejects(untilOr(Promise.reject(new Error('boom')), Date.now() + 60_000), /boom/);
    await assert.rejects(stopStep('storage', () => Promise.reject(new Error('boom')), () => undefined, 60_000), /boom/);
    assert.equal(timers(), before);
  });

  it('a step that finishes in time logs nothing', async () => {
    const lines: string[] = [];
    await stopStep('serving', () => undefined, (l) => lines.push(l));
    await stopStep('serving', async () => undefined, (l) => lines.push(l));
    assert.deepEqual(lines, []);
  });
});

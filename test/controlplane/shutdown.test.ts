/** The bounded steps of a graceful shutdown (runtime/controlplane/shutdown.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stopStep, untilOr } from '../../runtime/controlplane/shutdown.js';

describe('shutdown steps', () => {
  it('untilOr says whether the promise finished before the deadline', async () => {
    assert.equal(await untilOr(Promise.resolve(), Date.now() + 1000), true);
    const started = Date.now();
    assert.equal(await untilOr(new Promise(() => undefined), Date.now() + 50), false);
    assert.ok(Date.now() - started < 1000);
  });

  it('a step that never finishes is logged by name and left behind', async () => {
    const lines: string[] = [];
    const started = Date.now();
    await stopStep('the controllers', () => new Promise(() => undefined), (l) => lines.push(l), 50);
    assert.ok(Date.now() - started < 1000);
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

/**
 * runtime/storage/cacher/memory-release.ts: after a bulk load of RELEASE_THRESHOLD_BYTES or
 * more, COLLECTIONS full collections run, each after QUIET_MS of quiet; a small load runs none,
 * and a load while they are pending starts the burst again. The collection function is
 * globalThis.gc when it is one (node --expose-gc), here a counting stand-in set before the
 * module first looks for it. Real timers (the module's are unref'd, so the test keeps itself alive).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

let collections = 0;
(globalThis as { gc?: () => void }).gc = () => {
  collections++;
};
const { COLLECTIONS, QUIET_MS, RELEASE_THRESHOLD_BYTES, loaded } = await import('../../runtime/storage/cacher/memory-release.js');

describe('memory release after bulk loads', () => {
  it('runs no collection for loads below the threshold', async () => {
    collections = 0;
    loaded(RELEASE_THRESHOLD_BYTES / 4);
    loaded(RELEASE_THRESHOLD_BYTES / 4);
    await sleep(QUIET_MS * 2.5);
    assert.equal(collections, 0);
    // What was reported counts towards the next burst: bring it to the threshold, and let it run out.
    loaded(RELEASE_THRESHOLD_BYTES / 2);
    await sleep(QUIET_MS * (COLLECTIONS + 1.5));
  });

  it('runs two collections, one quiet moment apart, after a large load, and no more', async () => {
    assert.equal(COLLECTIONS, 2);
    collections = 0;
    loaded(RELEASE_THRESHOLD_BYTES);
    await sleep(QUIET_MS * 0.5);
    assert.equal(collections, 0, 'not before the process has been quiet');
    await sleep(QUIET_MS);
    assert.equal(collections, 1, 'the first after a quiet moment');
    await sleep(QUIET_MS);
    assert.equal(collections, 2, 'the second after another');
    await sleep(QUIET_MS * 2);
    assert.equal(collections, 2, 'then none');
  });

  it('starts again when a large load comes between the collections', async () => {
    collections = 0;
    loaded(RELEASE_THRESHOLD_BYTES);
    await sleep(QUIET_MS * 1.5);
    assert.equal(collections, 1);
    loaded(RELEASE_THRESHOLD_BYTES);
    await sleep(QUIET_MS * 0.5);
    assert.equal(collections, 1, 'the load postponed the second');
    await sleep(QUIET_MS * 1.1);
    assert.equal(collections, 2);
    await sleep(QUIET_MS);
    assert.equal(collections, 3, 'a full burst of two again');
    await sleep(QUIET_MS * 2);
    assert.equal(collections, 3);
  });
});

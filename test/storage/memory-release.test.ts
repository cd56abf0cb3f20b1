/**
 * runtime/storage/cacher/memory-release.ts: after a bulk load of RELEASE_THRESHOLD_BYTES or
 * more, COLLECTIONS full collections run, each after QUIET_MS of quiet, with up to YOUNG_SAMPLES
 * minor ones between the first two; a small load runs none, and a load while they are pending
 * starts the burst again. The collection function is globalThis.gc when it is one (node
 * --expose-gc), here a counting stand-in set before the module first looks for it (it shrinks
 * nothing; but the module stops the minor ones once the process's real young generation has shrunk,
 * which V8 may do on its own in this process, so their count is asserted as a bound). The module's
 * timers run on node:test's mocked setTimeout, moved on by exactly the times the contract names
 * (no real waiting, and no margin a loaded machine could miss). The last test runs V8's own
 * collector, on real timers, in a child process.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
// test/run.js's TypeScript loader for the child, not tsx's costlier hooks (~1 s of CPU less per process).
const TS_LOADER = fileURLToPath(new URL('../support/ts-loader.mjs', import.meta.url));

let collections = 0;
let minor = 0;
(globalThis as { gc?: (options?: { type?: string }) => void }).gc = (options) => {
  if (options?.type === 'minor') minor++;
  else collections++;
};
const { COLLECTIONS, QUIET_MS, RELEASE_THRESHOLD_BYTES, YOUNG_INTERVAL_MS, YOUNG_SAMPLES, loaded } = await import('../../runtime/storage/cacher/memory-release.js');

/**
 * Mocks setTimeout for this test (node:test restores it after the test) and returns the function
 * that moves the clock on by `ms`, running the module's timers that fall due on the way. It moves
 * 1 ms at a time: a timer set by a callback during one tick() counts from the tick's end, so a
 * longer tick would start the module's next timer late.
 */
function mockedClock(t: TestContext): (ms: number) => void {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  return (ms) => {
    for (let moved = 0; moved < ms; moved++) t.mock.timers.tick(1);
  };
}

describe('memory release after bulk loads', () => {
  it('runs no collection for loads below the threshold', (t) => {
    const advance = mockedClock(t);
    collections = 0;
    loaded(RELEASE_THRESHOLD_BYTES / 4);
    loaded(RELEASE_THRESHOLD_BYTES / 4);
    advance(QUIET_MS * 2.5);
    assert.equal(collections, 0);
    // What was reported counts towards the next burst: bring it to the threshold, and let it run out.
    loaded(RELEASE_THRESHOLD_BYTES / 2);
    advance(QUIET_MS * (COLLECTIONS + 1.5));
  });

  it('runs two collections, one quiet moment apart, after a large load, and no more', (t) => {
    const advance = mockedClock(t);
    assert.equal(COLLECTIONS, 2);
    assert.ok(YOUNG_SAMPLES * YOUNG_INTERVAL_MS < QUIET_MS * 0.8, 'the minor collections fit between the full ones');
    collections = 0;
    minor = 0;
    loaded(RELEASE_THRESHOLD_BYTES);
    advance(QUIET_MS * 0.5);
    assert.equal(collections, 0, 'not before the process has been quiet');
    assert.equal(minor, 0);
    advance(QUIET_MS);
    assert.equal(collections, 1, 'the first after a quiet moment');
    assert.ok(minor >= 1, 'then the minor ones');
    advance(QUIET_MS);
    assert.equal(collections, 2, 'the second after another');
    advance(QUIET_MS * 2);
    assert.equal(collections, 2, 'then none');
    assert.ok(minor >= 1 && minor <= YOUNG_SAMPLES, `the minor ones, no more than ${YOUNG_SAMPLES} (${minor})`);
    const settled = minor;
    advance(QUIET_MS);
    assert.equal(minor, settled, 'and none after the burst');
  });

  it('starts again when a large load comes between the collections', (t) => {
    const advance = mockedClock(t);
    collections = 0;
    minor = 0;
    loaded(RELEASE_THRESHOLD_BYTES);
    advance(QUIET_MS);
    // The first minor one, a few 5 ms steps on (bounded: the burst's minor ones end within it).
    for (let ms = 0; minor === 0 && ms < QUIET_MS; ms += 5) advance(5);
    assert.equal(collections, 1);
    assert.ok(minor < YOUNG_SAMPLES, `some minor collections ran (${minor})`);
    const before = minor;
    loaded(RELEASE_THRESHOLD_BYTES);
    advance(YOUNG_INTERVAL_MS * 3);
    assert.equal(minor, before, 'the load stopped the minor ones');
    advance(QUIET_MS * 0.5 - YOUNG_INTERVAL_MS * 3);
    assert.equal(collections, 1, 'the load postponed the second');
    advance(QUIET_MS * 1.1);
    assert.equal(collections, 2);
    advance(QUIET_MS);
    assert.equal(collections, 3, 'a full burst of two again');
    advance(QUIET_MS * 2);
    assert.equal(collections, 3);
    assert.ok(minor > before && minor <= before + YOUNG_SAMPLES, `with its minor ones, no more than ${YOUNG_SAMPLES} (${minor - before})`);
  });

  it('gives the young generation back: V8 shrinks it once minor collections sample the quiet process', async () => {
    // A child with V8's real collector: a load that keeps most of what it allocates grows the
    // young generation to its maximum; after loaded(), the young generation is small again.
    const script = fileURLToPath(new URL('./memory-release-child.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', TS_LOADER, script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0, err);
    const { grown, after } = JSON.parse(out) as { grown: number; after: number };
    assert.ok(grown >= 16 * 1024 * 1024, `the load grew the young generation (${grown} bytes committed)`);
    assert.ok(after <= grown / 4, `given back after the release: ${grown} -> ${after} bytes committed`);
  });
});

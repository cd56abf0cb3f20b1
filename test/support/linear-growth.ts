/**
 * "Linear time" checked as growth, never against a wall-clock limit (a bound on elapsed time fails
 * on a loaded machine): the CPU time of work(n) and of work(8n), best of 3 each, in the same
 * moments. Linear is ×8, quadratic ×64; the bound is ×30. (test/validation/re2-redos.test.ts
 * checks its patterns the same way.)
 */
import assert from 'node:assert/strict';

/** CPU microseconds of fn, best of 3. */
export function cpuMicros(fn: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = process.cpuUsage();
    fn();
    const used = process.cpuUsage(start);
    best = Math.min(best, used.user + used.system);
  }
  return best;
}

/**
 * Asserts that work(8 × n) costs at most 30 times work(n). Inputs are made outside the timing:
 * `input(n)` first, then `work(input)`. Below 1 ms the small run is taken as 1 ms (timer noise).
 */
export function assertLinearGrowth<T>(label: string, n: number, input: (n: number) => T, work: (input: T) => void): void {
  const small = input(n);
  const big = input(8 * n);
  work(small); // warm-up (compiling)
  const smallUs = cpuMicros(() => work(small));
  const bigUs = cpuMicros(() => work(big));
  assert.ok(bigUs <= 30 * Math.max(smallUs, 1_000), `${label}: ${smallUs} µs at n = ${n}, ${bigUs} µs at 8n`);
}

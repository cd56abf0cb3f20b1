/**
 * Child of memory-release.test.ts: grows V8's young generation with a load that keeps what it
 * allocates (as the watch cache's initial list does), reports a bulk load, and prints the young
 * generation's committed bytes before and after as JSON: after, once it is a quarter of before or
 * less (looked at every 100 ms, which allocates far below the rate V8 shrinks under), or when the
 * release's whole burst is over, whichever comes first.
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { setTimeout as sleep } from 'node:timers/promises';
import { COLLECTIONS, QUIET_MS, RELEASE_THRESHOLD_BYTES, loaded } from '../../runtime/storage/cacher/memory-release.js';

function young(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}

const kept: Array<{ json: string; tags: number[] }> = [];
for (let i = 0; i < 200_000; i++) {
  kept.push({ json: `{"name":"object-${i}","pad":"${'x'.repeat(200)}"}`, tags: [i, i + 1] });
  if (i % 500 === 0) {
    // Each page's garbage, as the reflector's decoded pages.
    const page: unknown[] = [];
    for (let j = 0; j < 500; j++) page.push(JSON.parse(`{"spec":[1,2,3],"s":"${'y'.repeat(300)}${j}"}`));
  }
}
const grown = young();
loaded(RELEASE_THRESHOLD_BYTES);
const deadline = performance.now() + QUIET_MS * (COLLECTIONS + 1);
while (young() > grown / 4 && performance.now() < deadline) await sleep(100);
process.stdout.write(JSON.stringify({ grown, after: young(), kept: kept.length }));

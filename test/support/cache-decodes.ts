/** Counting the objects decoded from the watch cache (CacheEntry.object() calls) while a test step runs. */
import { CacheEntry } from '../../runtime/storage/cacher/cache-entry.js';

/** Counts CacheEntry.object() calls from now until `stop()`, which puts the method back. */
function countObjectCalls(): { count(): number; stop(): void } {
  const original = CacheEntry.prototype.object;
  let count = 0;
  CacheEntry.prototype.object = function (this: CacheEntry) {
    count++;
    return original.call(this);
  };
  return { count: () => count, stop: () => (CacheEntry.prototype.object = original) };
}

/** The decodes while fn runs (synchronously). */
export function decodes<T>(fn: () => T): { result: T; count: number } {
  const counter = countObjectCalls();
  try {
    return { result: fn(), count: counter.count() };
  } finally {
    counter.stop();
  }
}

/** The decodes until fn's promise settles. */
export async function decodesAsync<T>(fn: () => Promise<T>): Promise<{ result: T; count: number }> {
  const counter = countObjectCalls();
  try {
    return { result: await fn(), count: counter.count() };
  } finally {
    counter.stop();
  }
}

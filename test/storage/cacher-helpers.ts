/** Helpers of the watch cache tests: a counting backend proxy and fixtures. */
import type { Storage } from '../../runtime/storage/interface.js';

export type CallCounts = Record<string, number>;

/**
 * Wraps a backend so every Storage method call is counted (by name), without changing behaviour
 * (compactedRevision, a synchronous read of an in-memory number, is not counted).
 * `instanceof` still sees the backend's class, so the Cacher keeps its progress guarantee.
 */
export function countingProxy<T extends Storage>(backend: T): { storage: T; calls: CallCounts; reset(): void } {
  const calls: CallCounts = {};
  const storage = new Proxy(backend, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      // compactedRevision() reads a number the backend keeps in memory (no I/O): not a call.
      if (typeof value !== 'function' || typeof prop !== 'string' || prop === 'compactedRevision') return value;
      return (...args: unknown[]) => {
        calls[prop] = (calls[prop] ?? 0) + 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return {
    storage,
    calls,
    reset() {
      for (const k of Object.keys(calls)) delete calls[k];
    },
  };
}

/** Resolves when check() holds; rejects after timeoutMs. */
export async function eventually(check: () => boolean, timeoutMs = 3000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

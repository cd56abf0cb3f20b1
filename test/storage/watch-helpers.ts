/** Test helpers for consuming a Watcher without sleeps or dangling next() calls. */
import type { StorageEvent, Watcher } from '../../runtime/storage/interface.js';

/** Drains a watcher in the background into `events`; `error` and `done` record how it ended. */
export class EventCollector {
  readonly events: StorageEvent[] = [];
  error: unknown;
  done = false;
  readonly finished: Promise<void>;

  constructor(readonly watcher: Watcher) {
    this.finished = (async () => {
      try {
        for await (const event of watcher) this.events.push(event);
      } catch (err) {
        this.error = err;
      } finally {
        this.done = true;
      }
    })();
  }

  /** Resolves once at least n events arrived (or the watch ended); rejects after timeoutMs. */
  async waitFor(n: number, timeoutMs = 3000): Promise<StorageEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.events.length < n && !this.done) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${n} events, got ${this.events.length}`);
      await new Promise((r) => setTimeout(r, 2));
    }
    return this.events.slice();
  }

  /** Resolves when the watch has ended; rejects after timeoutMs. */
  async waitDone(timeoutMs = 3000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('watch did not end')), timeoutMs);
    });
    try {
      await Promise.race([this.finished, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  stop(): void {
    this.watcher.stop();
  }
}

/** A compact view of events for deep-equal assertions: `TYPE key rv`. */
export function summary(events: StorageEvent[]): string[] {
  return events.map((e) => `${e.type} ${e.key} ${e.resourceVersion}`);
}

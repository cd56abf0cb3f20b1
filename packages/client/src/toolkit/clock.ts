/**
 * The time source the toolkit runs on (client-go's k8s.io/utils/clock): real timers by default, a
 * FakeClock in tests so queues, backoff and leader election are tested without sleeping.
 */

import { realQueueClock, type QueueClock, type QueueTimer } from '../../../../runtime/api/workqueue.js';

/** What after() returns (the one definition is the work queue's, runtime/api/workqueue.ts). */
export type TimerHandle = QueueTimer;

/** Milliseconds since the epoch, and timers (the work queue's QueueClock: the queue takes one as is). */
export type ToolkitClock = QueueClock;

/** Real timers. */
export const realClock: ToolkitClock = realQueueClock;

/** Resolves after ms on clock; rejects with the signal's reason when it aborts first. */
export function sleep(clock: ToolkitClock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      handle.cancel();
      reject(signal!.reason);
    };
    const handle = clock.after(ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A clock that moves only when told (client-go's clock/testing.FakeClock). */
export class FakeClock implements ToolkitClock {
  private timers: { at: number; seq: number; fn: () => void }[] = [];
  private seq = 0;

  constructor(private time = Date.UTC(2026, 0, 1)) {}

  now(): number {
    return this.time;
  }

  after(ms: number, fn: () => void): TimerHandle {
    const timer = { at: this.time + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return { cancel: () => (this.timers = this.timers.filter((t) => t !== timer)) };
  }

  /** Timers waiting. */
  get pending(): number {
    return this.timers.length;
  }

  /**
   * Moves time forward by ms, firing due timers in order; lets promise continuations run between
   * them (so code awaiting a timer can set the next one).
   */
  async step(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await settle();
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = Math.max(this.time, due.at);
      due.fn();
    }
    this.time = end;
    await settle();
  }
}

/** Lets queued promise continuations (and I/O-free async chains) run. */
export async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

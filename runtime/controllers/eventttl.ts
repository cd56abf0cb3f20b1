/**
 * Event expiry (kube-apiserver's --event-ttl, default 1h). kube stores each Event under an etcd
 * lease of that TTL, renewed by every write; kgen's backends have no leases, so this sweeper
 * deletes every Event whose last write is older than the TTL. The last write is the latest of
 * lastTimestamp, series.lastObservedTime, eventTime, the managedFields times and
 * creationTimestamp, which every recorder (client-go's, the toolkit's) moves on each update.
 * Sweeps run every min(ttl/2, 1 min), so an Event goes at most that long after it expired.
 */
import type { KubeObject } from '../api/meta.js';
import { isNotFound } from '../api/status.js';
import type { RequestScope } from '../endpoints/handler.js';
import type { Log } from './informer.js';

export const DEFAULT_EVENT_TTL_MS = 60 * 60 * 1000;
const MAX_SWEEP_INTERVAL_MS = 60_000;
const PAGE = 500;

function time(value: unknown): number {
  if (typeof value !== 'string' || value === '') return 0;
  const t = Date.parse(value);
  return Number.isNaN(t) ? 0 : t;
}

/** When the Event was last written, as far as its fields tell. */
export function lastWrite(event: KubeObject): number {
  const series = event.series as { lastObservedTime?: string } | undefined;
  const managed = (event.metadata.managedFields ?? []) as { time?: string }[];
  return Math.max(time(event.lastTimestamp), time(series?.lastObservedTime), time(event.eventTime), time(event.metadata.creationTimestamp), ...managed.map((m) => time(m.time)));
}

export class EventTTLController {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;

  constructor(
    private readonly events: RequestScope,
    private readonly ttlMs: number,
    private readonly log: Log,
    private readonly now: () => number = Date.now,
  ) {}

  run(): void {
    if (this.ttlMs <= 0 || this.timer) return;
    const interval = Math.max(10, Math.min(this.ttlMs / 2, MAX_SWEEP_INTERVAL_MS));
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep()
        .then(() => undefined)
        .catch((err: unknown) => this.log(`event ttl: ${(err as Error).message}`))
        .finally(() => (this.sweeping = undefined));
    }, interval);
    this.timer.unref();
  }

  /** Deletes every expired Event now; resolves with how many went. */
  async sweep(): Promise<number> {
    const { store } = this.events;
    const deadline = this.now() - this.ttlMs;
    let removed = 0;
    let continueToken: string | undefined;
    do {
      const page = await store.list(undefined, { limit: PAGE, continue: continueToken });
      for (const event of page.items) {
        if (lastWrite(event) > deadline) continue;
        try {
          await store.delete(event.metadata.namespace, event.metadata.name ?? '', { preconditions: { uid: event.metadata.uid } });
          removed++;
        } catch (err) {
          // Gone already, or rewritten (a new uid, or a newer write): the next sweep decides.
          if (!isNotFound(err)) this.log(`event ttl: ${event.metadata.namespace}/${event.metadata.name}: ${(err as Error).message}`);
        }
      }
      continueToken = page.metadata.continue;
    } while (continueToken);
    return removed;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.sweeping;
  }
}

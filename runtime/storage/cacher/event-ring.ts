/**
 * EventRing: the bounded history of recent changes the watch cache keeps (kube's watchCache
 * `cache []*watchCacheEvent` with startIndex/endIndex). Events are appended in strictly
 * increasing revision order; when full, the oldest is evicted.
 */
import type { KubeObject } from '../../api/meta.js';
import type { StorageEventType } from '../interface.js';
import type { CacheEntry } from './cache-entry.js';

/**
 * One change as the cache recorded it. Objects are shared and must never be mutated. The
 * previous state is kept as its cache entry and decoded only when read.
 */
export class CachedEvent {
  constructor(
    readonly type: StorageEventType,
    readonly key: string,
    /** The new state; for DELETED the last state at the deletion revision. */
    readonly object: KubeObject,
    readonly revision: number,
    /** The key's entry before this change; absent for ADDED. */
    readonly prev?: CacheEntry,
  ) {}

  /** The key's state before this change; undefined for ADDED. */
  get prevObject(): KubeObject | undefined {
    return this.prev?.object();
  }
}

export class EventRing {
  /**
   * Grown by push until it holds `capacity` events, then reused in place: a server keeps a ring
   * per cached resource (124 in the bench's server of 100 kinds), most of which see few changes,
   * and an array allocated at full capacity costs 8 bytes a slot from the start (~1 MB of old
   * space for 124 rings of 1,000).
   * While the ring is not full, `start` is 0 and slot i holds the i-th oldest event.
   */
  private slots: (CachedEvent | undefined)[] = [];
  private start = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new Error(`event ring capacity must be a positive integer, got ${capacity}`);
  }

  get size(): number {
    return this.count;
  }

  /** Slots the ring has allocated (tests): grows with the events up to capacity. */
  get allocated(): number {
    return this.slots.length;
  }

  /** Appends event; returns the evicted oldest event when the ring was full. */
  push(event: CachedEvent): CachedEvent | undefined {
    if (this.count < this.capacity) {
      // Not full yet: start is 0 and the array holds exactly the events.
      this.slots.push(event);
      this.count++;
      return undefined;
    }
    const evicted = this.slots[this.start];
    this.slots[this.start] = event;
    this.start = (this.start + 1) % this.capacity;
    return evicted;
  }

  clear(): void {
    this.slots = [];
    this.start = 0;
    this.count = 0;
  }

  /** The i-th oldest event (0 ≤ i < size). */
  at(i: number): CachedEvent {
    return this.slots[(this.start + i) % this.capacity] as CachedEvent;
  }

  /** Every event with a revision greater than `revision`, oldest first. */
  since(revision: number): CachedEvent[] {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.at(mid).revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    const out: CachedEvent[] = [];
    for (let i = lo; i < this.count; i++) out.push(this.at(i));
    return out;
  }
}

/**
 * WatchCache: the in-memory state of one resource prefix (kube's watchCache): the current object
 * of every key, the entries sorted by key for ordered and paged lists, and a bounded ring of
 * recent changes.
 *
 * Contracts:
 * - `revision` is the revision the cache is current at: every change at or below it has been
 *   applied. It advances with each applied change and with progress notifications (no change
 *   under this prefix happened up to some later revision).
 * - The state at any revision in [historyStart, revision] can be rebuilt by undoing the ring's
 *   changes after it; older states cannot (the caller then asks the backend, which keeps MVCC
 *   history until compaction).
 * - The state is kept as entries (./cache-entry.ts: JSON bytes plus the attributes selectors
 *   read); objects are decoded on demand, frozen (./cached-object.ts), shared with the ring and
 *   handed out as they are. Selectors are evaluated on the entries' attributes, so only the
 *   objects a list returns are decoded.
 */
import type { KubeObject } from '../../api/meta.js';
import type { StorageEvent } from '../interface.js';
import { type KeyRange } from '../revision-log.js';
import { CacheEntry, entryMatches, entryOf } from './cache-entry.js';
import { CachedEvent, EventRing } from './event-ring.js';

export interface CachePage {
  /** The entries of the page, in key order (their objects are decoded when read: CacheEntry.object()). */
  entries: CacheEntry[];
  /** Key of the last item. */
  lastKey?: string;
  /** More keys (matching or not) follow the last item. */
  more: boolean;
}

interface Waiter {
  target: number;
  resolve: (reached: boolean) => void;
  timer: NodeJS.Timeout;
}

export class WatchCache {
  private objects = new Map<string, CacheEntry>();
  /**
   * The entries in key order (lists walk an array, not the map). No array of the keys beside it:
   * the binary search reads values[i].key (one load more per comparison, 8 bytes less per object).
   */
  private values: CacheEntry[] = [];
  /**
   * Keys created since `values` was last brought up to date, not in it yet (their entries are in
   * `objects`). A create costs a set insert instead of two array splices (a memmove of the whole
   * array: ~9 µs at 25,000 keys); the first ordered read merges them in (settle()).
   */
  private added = new Set<string>();
  private readonly ring: EventRing;
  private current = 0;
  private oldest = 0;
  private readonly waiters = new Set<Waiter>();

  constructor(capacity: number) {
    this.ring = new EventRing(capacity);
  }

  get revision(): number {
    return this.current;
  }

  /** The oldest revision whose state the cache can still serve. */
  get historyStart(): number {
    return this.oldest;
  }

  get size(): number {
    return this.objects.size;
  }

  /** Replaces the whole state with a list read at `revision` (kube's watchCache.Replace). */
  replace(entries: CacheEntry[], revision: number): void {
    this.objects = new Map();
    for (const entry of entries) this.objects.set(entry.key, entry);
    this.values = [...this.objects.values()].sort(compareEntries);
    this.added.clear();
    this.ring.clear();
    this.current = revision;
    this.oldest = revision;
    this.wake();
  }

  /**
   * Applies one change from the backend's watch and records it. Changes must arrive in
   * strictly increasing revision order; anything else means the cache lost track of the
   * backend, and the caller must re-list.
   */
  apply(event: StorageEvent): CachedEvent {
    const revision = Number(event.resourceVersion);
    if (!(revision > this.current)) {
      throw new Error(`watch cache: change at revision ${event.resourceVersion} arrived at revision ${this.current}`);
    }
    const prev = this.objects.get(event.key);
    // One string per key: the map, the entries and the ring share the first
    // entry's flat key (the event's key is often a tree of concatenated parts).
    let key: string;
    if (event.type === 'DELETED') {
      key = prev?.key ?? event.key;
      if (prev) this.removeKey(key);
    } else {
      const entry = entryOf(prev ? prev.key : event.key, event.object, true, prev !== undefined);
      key = entry.key;
      this.objects.set(key, entry);
      if (!prev) this.added.add(key);
      else if (!this.added.has(key)) this.values[lowerBound(this.values, key)] = entry;
    }
    const cached = new CachedEvent(event.type, key, event.object, revision, prev);
    const evicted = this.ring.push(cached);
    if (evicted) this.oldest = evicted.revision;
    this.current = revision;
    this.wake();
    return cached;
  }

  /** A progress notification: nothing under this prefix changed up to `revision`. */
  advanceTo(revision: number): void {
    if (revision <= this.current) return;
    this.current = revision;
    this.wake();
  }

  /** Forgets history at or below `revision` (the backend compacted it); its state stays readable. */
  forgetBefore(revision: number): void {
    this.oldest = Math.max(this.oldest, revision);
  }

  /** The current live entries in `range` that pass `predicate`, in key order. */
  snapshot(range: KeyRange, predicate?: (obj: KubeObject) => boolean): CacheEntry[] {
    const out: CacheEntry[] = [];
    for (const entry of this.entriesAt(this.current, range.start, range.end)) {
      if (!predicate || entryMatches(entry, predicate)) out.push(entry);
    }
    return out;
  }

  get(key: string): KubeObject | undefined {
    return this.objects.get(key)?.object();
  }

  /** The current entry of key. */
  entry(key: string): CacheEntry | undefined {
    return this.objects.get(key);
  }

  /** Changes after `revision` (which must be ≥ historyStart), oldest first. */
  eventsSince(revision: number): CachedEvent[] {
    return this.ring.since(revision);
  }

  /** Resolves true once revision ≥ target, or false after timeoutMs. */
  waitFor(target: number, timeoutMs: number): Promise<boolean> {
    if (this.current >= target) return Promise.resolve(true);
    if (timeoutMs <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        target,
        resolve,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** Releases every waiter with false (the cache is closing). */
  cancelWaiters(): void {
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(false);
    }
    this.waiters.clear();
  }

  /**
   * One page of the state at `revision` (historyStart ≤ revision ≤ this.revision): live keys
   * in [startKey, range.end) in key order, up to `limit` that pass `predicate` (0: no limit).
   */
  list(range: KeyRange, revision: number, startKey: string, limit: number, predicate?: (obj: KubeObject) => boolean): CachePage {
    if (revision >= this.current) return this.listCurrent(range, startKey, limit, predicate);
    const entries: CacheEntry[] = [];
    let lastKey: string | undefined;
    for (const entry of this.entriesAt(revision, startKey, range.end)) {
      if (limit > 0 && entries.length === limit) return { entries, lastKey, more: true };
      if (predicate && !entryMatches(entry, predicate)) continue;
      entries.push(entry);
      lastKey = entry.key;
    }
    return { entries, lastKey, more: false };
  }

  /** list() at the current revision: a plain walk of the sorted entries (the hot path of LIST). */
  private listCurrent(range: KeyRange, startKey: string, limit: number, predicate?: (obj: KubeObject) => boolean): CachePage {
    this.settle();
    const { values } = this;
    const first = lowerBound(values, startKey);
    const end = lowerBound(values, range.end);
    if (!predicate) {
      // Without a predicate a page is a slice: `limit` keys, and whether any follow.
      const last = limit > 0 && end - first > limit ? first + limit : end;
      return { entries: values.slice(first, last), lastKey: last > first ? values[last - 1]!.key : undefined, more: last < end };
    }
    const entries: CacheEntry[] = [];
    let lastKey: string | undefined;
    for (let i = first; i < end; i++) {
      if (limit > 0 && entries.length === limit) return { entries, lastKey, more: true };
      const entry = values[i]!;
      if (!entryMatches(entry, predicate)) continue;
      entries.push(entry);
      lastKey = entry.key;
    }
    return { entries, lastKey, more: false };
  }

  /** The number of live keys in [startKey, end) at `revision`. */
  count(revision: number, startKey: string, end: string): number {
    this.settle();
    if (revision >= this.current) return lowerBound(this.values, end) - lowerBound(this.values, startKey);
    let n = 0;
    for (const _ of this.entriesAt(revision, startKey, end)) n++;
    return n;
  }

  /**
   * Live entries in [startKey, end) at `revision`, in key order: the current state with the
   * ring's later changes undone (each key takes the state before its earliest later change).
   */
  private *entriesAt(revision: number, startKey: string, end: string): Generator<CacheEntry> {
    this.settle();
    const later = revision < this.current ? this.ring.since(revision) : [];
    if (later.length === 0) {
      const values = this.values;
      for (let i = lowerBound(values, startKey); i < values.length && values[i]!.key < end; i++) yield values[i]!;
      return;
    }
    const undo = new Map<string, CacheEntry | null>();
    for (let i = later.length - 1; i >= 0; i--) undo.set(later[i].key, later[i].prev ?? null);
    const gone = [...undo.keys()].filter((k) => k >= startKey && k < end && !this.objects.has(k)).sort(compareKeys);
    const values = this.values;
    let i = lowerBound(values, startKey);
    let j = 0;
    for (;;) {
      const a = i < values.length && values[i]!.key < end ? values[i]!.key : undefined;
      const b = j < gone.length ? gone[j] : undefined;
      if (a === undefined && b === undefined) return;
      const key = b === undefined || (a !== undefined && a < b) ? (i++, a as string) : (j++, b);
      const entry = undo.has(key) ? undo.get(key) : this.objects.get(key);
      if (entry) yield entry;
    }
  }

  /**
   * Brings `values` up to date with the keys created since: a few are spliced in, more
   * are sorted and merged in one pass (O(n + k log k) for k keys, instead of k splices of n).
   */
  private settle(): void {
    const added = this.added;
    if (added.size === 0) return;
    if (added.size <= SPLICE_LIMIT) {
      for (const key of added) {
        this.values.splice(lowerBound(this.values, key), 0, this.objects.get(key)!);
      }
      added.clear();
      return;
    }
    const fresh = [...added].sort(compareKeys);
    added.clear();
    const { values, objects } = this;
    const n = values.length + fresh.length;
    const merged: CacheEntry[] = new Array(n);
    let i = 0;
    let j = 0;
    for (let k = 0; k < n; k++) {
      if (j >= fresh.length || (i < values.length && values[i]!.key < fresh[j]!)) merged[k] = values[i++]!;
      else merged[k] = objects.get(fresh[j++]!)!;
    }
    this.values = merged;
  }

  private removeKey(key: string): void {
    this.objects.delete(key);
    // A key created since the last ordered read is not in the arrays.
    if (this.added.delete(key)) return;
    const i = lowerBound(this.values, key);
    if (this.values[i]?.key === key) this.values.splice(i, 1);
  }

  private wake(): void {
    for (const waiter of this.waiters) {
      if (waiter.target > this.current) continue;
      clearTimeout(waiter.timer);
      this.waiters.delete(waiter);
      waiter.resolve(true);
    }
  }
}

/** Up to this many pending keys are spliced in one by one; more are merged in one pass. */
const SPLICE_LIMIT = 8;

/** Plain code-unit order, the order the backends list keys in. */
function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareEntries(a: CacheEntry, b: CacheEntry): number {
  return compareKeys(a.key, b.key);
}

/** The first index whose entry's key is ≥ key. */
function lowerBound(values: CacheEntry[], key: string): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]!.key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

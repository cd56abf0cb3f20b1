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
 * - Keys are kept without the cache's prefix (every key under it shares it: `/registry/<group>/
 *   <resource>/`, ~40 bytes a key): the entries, the map and the order hold `<namespace>/<name>`.
 *   The methods take and give whole keys, as the backends do; a change's key in the ring stays
 *   whole (watchers compare it with their ranges; the ring is bounded).
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

  /** With `prefix`, the one every key of the cache starts with (see the contracts above). */
  constructor(
    capacity: number,
    readonly prefix = '',
  ) {
    this.ring = new EventRing(capacity);
  }

  /** The key as the cache keeps it (without the prefix); undefined for a key outside the prefix. */
  localKey(key: string): string | undefined {
    return key.startsWith(this.prefix) ? key.slice(this.prefix.length) : undefined;
  }

  /** The whole key of an entry of this cache. */
  keyOf(entry: CacheEntry): string {
    return this.prefix + entry.key;
  }

  /** A bound of a key range as a local key: '' below the prefix, PAST beyond it. */
  private bound(key: string): string | Past {
    if (key.startsWith(this.prefix)) return key.slice(this.prefix.length);
    return key < this.prefix ? '' : PAST;
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

  /** Replaces the whole state with a list read at `revision` (kube's watchCache.Replace); the entries' keys are local (localKey). */
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
    const local = this.localKey(event.key);
    if (local === undefined) throw new Error(`watch cache: change of ${event.key}, outside ${this.prefix}`);
    const prev = this.objects.get(local);
    // One string per key: the map, the sorted entries and the entries share the first entry's
    // flat key (the event's key is often a tree of concatenated parts).
    if (event.type === 'DELETED') {
      if (prev) this.removeKey(prev.key);
    } else {
      const entry = entryOf(prev ? prev.key : local, event.object, true, prev !== undefined);
      const key = entry.key;
      this.objects.set(key, entry);
      if (!prev) this.added.add(key);
      else if (!this.added.has(key)) this.values[lowerBound(this.values, key)] = entry;
    }
    const cached = new CachedEvent(event.type, event.key, event.object, revision, prev);
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
    for (const entry of this.entriesAt(this.current, this.bound(range.start), this.bound(range.end))) {
      if (!predicate || entryMatches(entry, predicate)) out.push(entry);
    }
    return out;
  }

  get(key: string): KubeObject | undefined {
    return this.entry(key)?.object();
  }

  /** The current entry of key. */
  entry(key: string): CacheEntry | undefined {
    const local = this.localKey(key);
    return local === undefined ? undefined : this.objects.get(local);
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
    const start = this.bound(startKey);
    const end = this.bound(range.end);
    if (revision >= this.current) return this.listCurrent(start, end, limit, predicate);
    const entries: CacheEntry[] = [];
    let last: CacheEntry | undefined;
    for (const entry of this.entriesAt(revision, start, end)) {
      if (limit > 0 && entries.length === limit) return { entries, lastKey: this.keyOf(last!), more: true };
      if (predicate && !entryMatches(entry, predicate)) continue;
      entries.push(entry);
      last = entry;
    }
    return { entries, lastKey: last && this.keyOf(last), more: false };
  }

  /** list() at the current revision: a plain walk of the sorted entries (the hot path of LIST). */
  private listCurrent(startKey: string | Past, endKey: string | Past, limit: number, predicate?: (obj: KubeObject) => boolean): CachePage {
    this.settle();
    const { values } = this;
    const first = lowerBound(values, startKey);
    const end = lowerBound(values, endKey);
    if (!predicate) {
      // Without a predicate a page is a slice: `limit` keys, and whether any follow.
      const last = limit > 0 && end - first > limit ? first + limit : end;
      return { entries: values.slice(first, last), lastKey: last > first ? this.keyOf(values[last - 1]!) : undefined, more: last < end };
    }
    const entries: CacheEntry[] = [];
    let lastEntry: CacheEntry | undefined;
    for (let i = first; i < end; i++) {
      if (limit > 0 && entries.length === limit) return { entries, lastKey: this.keyOf(lastEntry!), more: true };
      const entry = values[i]!;
      if (!entryMatches(entry, predicate)) continue;
      entries.push(entry);
      lastEntry = entry;
    }
    return { entries, lastKey: lastEntry && this.keyOf(lastEntry), more: false };
  }

  /** The number of live keys in [startKey, end) at `revision`. */
  count(revision: number, startKey: string, endKey: string): number {
    this.settle();
    const start = this.bound(startKey);
    const end = this.bound(endKey);
    if (revision >= this.current) return lowerBound(this.values, end) - lowerBound(this.values, start);
    let n = 0;
    for (const _ of this.entriesAt(revision, start, end)) n++;
    return n;
  }

  /**
   * Live entries in [startKey, end) (local bounds) at `revision`, in key order: the current state
   * with the ring's later changes undone (each key takes the state before its earliest later change).
   */
  private *entriesAt(revision: number, startKey: string | Past, end: string | Past): Generator<CacheEntry> {
    this.settle();
    const later = revision < this.current ? this.ring.since(revision) : [];
    if (later.length === 0) {
      const values = this.values;
      for (let i = lowerBound(values, startKey); i < values.length && below(values[i]!.key, end); i++) yield values[i]!;
      return;
    }
    const undo = new Map<string, CacheEntry | null>();
    for (let i = later.length - 1; i >= 0; i--) {
      const local = this.localKey(later[i].key);
      if (local !== undefined) undo.set(local, later[i].prev ?? null);
    }
    const gone = [...undo.keys()].filter((k) => !below(k, startKey) && below(k, end) && !this.objects.has(k)).sort(compareKeys);
    const values = this.values;
    let i = lowerBound(values, startKey);
    let j = 0;
    for (;;) {
      const a = i < values.length && below(values[i]!.key, end) ? values[i]!.key : undefined;
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

/** A local bound past every key of the cache (a range ending beyond the prefix). */
const PAST = null;
type Past = typeof PAST;

/** key < bound. */
function below(key: string, bound: string | Past): boolean {
  return bound === PAST || key < bound;
}

/** The first index whose entry's key is ≥ key. */
function lowerBound(values: CacheEntry[], key: string | Past): number {
  if (key === PAST) return values.length;
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]!.key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

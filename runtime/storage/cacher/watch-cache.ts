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
 *   <resource>/`): `<namespace>/<name>`. And as no string: an entry whose key is that of its own
 *   namespace and name (nearly all; see CacheEntry.ownKey) is found by namespace, then name, and
 *   ordered by comparing those with the key, char by char. Only other entries keep their key.
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
  /** The entries with a derived key (ownKey undefined), by namespace ('' and none: undefined), then name. */
  private byNamespace = new Map<string | undefined, Map<string, CacheEntry>>();
  /** The entries that keep their key (ownKey), by key. */
  private keyed = new Map<string, CacheEntry>();
  /**
   * The entries in key order (lists walk an array, not the maps), but those in `added`. No array
   * of the keys beside it: the binary search compares with the entries (compareToKey).
   */
  private values: CacheEntry[] = [];
  /**
   * Entries of keys created since `values` was last brought up to date, not in it yet. A create
   * costs a set insert instead of an array splice (a memmove of the whole array: ~9 µs at 25,000
   * keys); the first ordered read merges them in (settle()).
   */
  private added = new Set<CacheEntry>();
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
    return this.values.length + this.added.size;
  }

  /** Replaces the whole state with a list read at `revision` (kube's watchCache.Replace); the entries' keys are local (localKey). */
  replace(entries: CacheEntry[], revision: number): void {
    // Sorted (stably); of entries with one key (a list has none) the last is kept, as a map would.
    const sorted = [...entries].sort(compareEntries);
    const values: CacheEntry[] = [];
    for (const entry of sorted) {
      if (values.length > 0 && compareEntries(values[values.length - 1]!, entry) === 0) values[values.length - 1] = entry;
      else values.push(entry);
    }
    this.byNamespace = new Map();
    this.keyed = new Map();
    for (const entry of values) this.index(entry);
    this.values = values;
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
    const prev = this.lookup(local);
    if (prev) this.unindex(prev);
    // Where prev sits in `values` (-1: in `added`, or no prev).
    const at = prev && !this.added.has(prev) ? lowerBound(this.values, local) : -1;
    if (event.type === 'DELETED') {
      if (prev && at < 0) this.added.delete(prev);
      else if (prev) this.values.splice(at, 1);
    } else {
      // An entry that keeps its key shares its previous entry's (the event's key is often a
      // tree of concatenated parts).
      const entry = entryOf(prev?.ownKey ?? local, event.object, true, prev?.ownKey !== undefined);
      this.index(entry);
      if (at >= 0) this.values[at] = entry;
      else {
        if (prev) this.added.delete(prev);
        this.added.add(entry);
      }
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
    return local === undefined ? undefined : this.lookup(local);
  }

  /** The current entry of a local key. */
  private lookup(local: string): CacheEntry | undefined {
    if (this.keyed.size > 0) {
      const entry = this.keyed.get(local);
      if (entry) return entry;
    }
    const slash = local.indexOf('/');
    if (slash < 0) return this.byNamespace.get(undefined)?.get(local);
    return this.byNamespace.get(local.slice(0, slash))?.get(local.slice(slash + 1));
  }

  private index(entry: CacheEntry): void {
    if (entry.ownKey !== undefined) {
      this.keyed.set(entry.ownKey, entry);
      return;
    }
    const namespace = entry.namespace || undefined;
    let names = this.byNamespace.get(namespace);
    if (!names) this.byNamespace.set(namespace, (names = new Map()));
    names.set(entry.name!, entry);
  }

  private unindex(entry: CacheEntry): void {
    if (entry.ownKey !== undefined) {
      this.keyed.delete(entry.ownKey);
      return;
    }
    const namespace = entry.namespace || undefined;
    const names = this.byNamespace.get(namespace);
    if (names?.delete(entry.name!) && names.size === 0) this.byNamespace.delete(namespace);
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
      for (let i = lowerBound(values, startKey); i < values.length && entryBelow(values[i]!, end); i++) yield values[i]!;
      return;
    }
    const undo = new Map<string, CacheEntry | null>();
    for (let i = later.length - 1; i >= 0; i--) {
      const local = this.localKey(later[i].key);
      if (local !== undefined) undo.set(local, later[i].prev ?? null);
    }
    const gone = [...undo.keys()].filter((k) => !below(k, startKey) && below(k, end) && this.lookup(k) === undefined).sort(compareKeys);
    const values = this.values;
    let i = lowerBound(values, startKey);
    let j = 0;
    for (;;) {
      const current = i < values.length && entryBelow(values[i]!, end) ? values[i]! : undefined;
      const b = j < gone.length ? gone[j] : undefined;
      if (current === undefined && b === undefined) return;
      if (b === undefined || (current !== undefined && compareToKey(current, b) < 0)) {
        i++;
        const key = current!.key;
        const entry = undo.has(key) ? undo.get(key) : current;
        if (entry) yield entry;
      } else {
        j++;
        // A key gone since: its state then is the undone one.
        const entry = undo.get(b);
        if (entry) yield entry;
      }
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
      for (const entry of added) this.values.splice(lowerBoundOf(this.values, entry), 0, entry);
      added.clear();
      return;
    }
    const fresh = [...added].sort(compareEntries);
    added.clear();
    const { values } = this;
    const n = values.length + fresh.length;
    const merged: CacheEntry[] = new Array(n);
    let i = 0;
    let j = 0;
    for (let k = 0; k < n; k++) {
      if (j >= fresh.length || (i < values.length && compareEntries(values[i]!, fresh[j]!) < 0)) merged[k] = values[i++]!;
      else merged[k] = fresh[j++]!;
    }
    this.values = merged;
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

/**
 * An entry's key against a local key, in code-unit order, without building the entry's key: its
 * namespace, a '/', then its name are compared char by char.
 */
function compareToKey(entry: CacheEntry, key: string): number {
  const own = entry.ownKey;
  if (own !== undefined) return compareKeys(own, key);
  let at = 0;
  const namespace = entry.namespace;
  if (namespace) {
    for (let i = 0; i < namespace.length; i++, at++) {
      if (at === key.length) return 1;
      const d = namespace.charCodeAt(i) - key.charCodeAt(at);
      if (d !== 0) return d;
    }
    if (at === key.length) return 1;
    const d = 47 - key.charCodeAt(at++);
    if (d !== 0) return d;
  }
  const name = entry.name!;
  for (let i = 0; i < name.length; i++, at++) {
    if (at === key.length) return 1;
    const d = name.charCodeAt(i) - key.charCodeAt(at);
    if (d !== 0) return d;
  }
  return at < key.length ? -1 : 0;
}

/** Two entries' keys, in code-unit order: the names when the namespaces are equal, the namespaces when neither starts the other. */
function compareEntries(a: CacheEntry, b: CacheEntry): number {
  if (a.ownKey === undefined && b.ownKey === undefined) {
    const an = a.namespace || undefined;
    const bn = b.namespace || undefined;
    if (an === bn) return compareKeys(a.name!, b.name!);
    if (an !== undefined && bn !== undefined && !an.startsWith(bn) && !bn.startsWith(an)) return compareKeys(an, bn);
  }
  return compareToKey(a, b.key);
}

/** entry's key < bound. */
function entryBelow(entry: CacheEntry, bound: string | Past): boolean {
  return bound === PAST || compareToKey(entry, bound) < 0;
}

/** The first index whose entry's key is ≥ entry's. */
function lowerBoundOf(values: CacheEntry[], entry: CacheEntry): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareEntries(values[mid]!, entry) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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
    if (compareToKey(values[mid]!, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The items of a list page served from the watch cache, decoded only when someone reads them.
 *
 * A plain LIST writes its items from the cache entries' stored bytes (endpoints/encoding.ts), so
 * decoding, freezing and adopting 500 objects per page would be work for nothing: the profile of
 * a paged walk put it at about a third of the server's busy time and most of its garbage.
 *
 * Contracts:
 * - setLazyItems(target, entries) gives target an enumerable `items` property whose first read
 *   returns the entries' objects (CacheEntry.object(): the same frozen, shared objects a page
 *   held before), the same array on every later read. Anything that reads `items` (a spread
 *   copy, JSON.stringify, a conversion, a Table, protobuf, a deleteCollection) sees exactly what
 *   it saw before; assigning `items` replaces them.
 * - undecodedEntries(target) returns the entries while no one has read or replaced `items`, so
 *   a writer may encode the page from the entries' bytes (exactly JSON.stringify of the objects,
 *   see cache-entry.ts); undefined otherwise, or for any other object.
 * - moveItems(target, source) sets target.items to source's, staying lazy when source's are.
 */
import type { KubeObject } from '../../api/meta.js';
import type { CacheEntry } from './cache-entry.js';

/** The entries behind an undecoded `items` (a non-enumerable own property: no reader sees it). */
const ENTRIES = Symbol('kgen.lazyItems.entries');
/** The items once decoded or assigned. */
const ITEMS = Symbol('kgen.lazyItems.items');

interface LazyHolder {
  [ENTRIES]?: readonly CacheEntry[];
  [ITEMS]?: KubeObject[];
}

/**
 * One accessor pair for every lazy list, the state in hidden properties of the list itself.
 * A first version kept a closure per list and the pending lists in a WeakMap: the RSS with
 * 100,000 objects rose from 292-294 to 320-323 MB (the informers' relists at start-up read 200
 * pages), and defining the properties cost ~5 µs per LIST; with this layout both are as before.
 */
const ITEMS_ACCESSOR: PropertyDescriptor = {
  configurable: true,
  enumerable: true,
  get(this: LazyHolder): KubeObject[] {
    let items = this[ITEMS];
    if (items === undefined) {
      const entries = this[ENTRIES] ?? [];
      items = new Array<KubeObject>(entries.length);
      for (let i = 0; i < entries.length; i++) items[i] = entries[i]!.object();
      settle(this, items);
    }
    return items;
  },
  set(this: LazyHolder, value: KubeObject[]) {
    settle(this, value);
  },
};

/** From now on `items` is `items` (kept in a hidden property); the entries are dropped. */
function settle(holder: LazyHolder, items: KubeObject[]): void {
  Object.defineProperty(holder, ITEMS, { value: items, writable: true, configurable: true });
  holder[ENTRIES] = undefined;
}

export function setLazyItems(target: object, entries: readonly CacheEntry[]): void {
  // Hidden (not enumerable): a spread copy or JSON.stringify must never carry the entries.
  Object.defineProperty(target, ENTRIES, { value: entries, writable: true, configurable: true });
  // A target made lazy again forgets the items it settled on before.
  if (ITEMS in target) (target as LazyHolder)[ITEMS] = undefined;
  Object.defineProperty(target, 'items', ITEMS_ACCESSOR);
}

/** The entries behind target's `items` while they are undecoded, else undefined. */
export function undecodedEntries(target: unknown): readonly CacheEntry[] | undefined {
  return typeof target === 'object' && target !== null ? (target as LazyHolder)[ENTRIES] : undefined;
}

/** target.items = source.items, without decoding source's items when they are still lazy. */
export function moveItems(target: { items?: KubeObject[] }, source: { items: KubeObject[] }): void {
  const entries = (source as LazyHolder)[ENTRIES];
  if (entries) setLazyItems(target, entries);
  else target.items = source.items;
}

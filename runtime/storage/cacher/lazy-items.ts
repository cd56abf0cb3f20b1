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

/** Objects whose lazy `items` no one has read yet → their entries. */
const pending = new WeakMap<object, readonly CacheEntry[]>();

export function setLazyItems(target: object, entries: readonly CacheEntry[]): void {
  let items: KubeObject[] | undefined;
  pending.set(target, entries);
  Object.defineProperty(target, 'items', {
    configurable: true,
    enumerable: true,
    get(): KubeObject[] {
      if (items === undefined) {
        items = new Array<KubeObject>(entries.length);
        for (let i = 0; i < entries.length; i++) items[i] = entries[i]!.object();
        pending.delete(target);
      }
      return items;
    },
    set(value: KubeObject[]) {
      items = value;
      pending.delete(target);
    },
  });
}

/** The entries behind target's `items` while they are undecoded, else undefined. */
export function undecodedEntries(target: unknown): readonly CacheEntry[] | undefined {
  return typeof target === 'object' && target !== null ? pending.get(target) : undefined;
}

/** target.items = source.items, without decoding source's items when they are still lazy. */
export function moveItems(target: { items?: KubeObject[] }, source: { items: KubeObject[] }): void {
  const entries = pending.get(source);
  if (entries) setLazyItems(target, entries);
  else target.items = source.items;
}

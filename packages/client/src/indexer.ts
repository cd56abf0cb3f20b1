/**
 * Indexer: the informer's local cache, as client-go's cache.Indexer (threadSafeMap): objects by
 * `<namespace>/<name>` key (metaNamespaceKey), plus named indices from an index function's values
 * to keys. The `namespace` index is always present, so namespaced listing does not scan.
 * Objects are stored and returned as given, not copied: callers must not mutate them.
 */
import type { APIObject } from '../../../runtime/api/meta.js';
import { metaNamespaceKey } from './reflector.js';

/** The index values of an object, as client-go's IndexFunc. */
export type IndexFunc<T> = (obj: T) => string[];

export const NAMESPACE_INDEX = 'namespace';

export const namespaceIndexFunc: IndexFunc<APIObject> = (obj) => [obj.metadata?.namespace ?? ''];

export class Indexer<T extends APIObject> {
  private readonly items = new Map<string, T>();
  private readonly indexFuncs = new Map<string, IndexFunc<T>>();
  /** index name → index value → keys. */
  private readonly indices = new Map<string, Map<string, Set<string>>>();

  constructor(indexers: Record<string, IndexFunc<T>> = {}) {
    this.addIndexers({ [NAMESPACE_INDEX]: namespaceIndexFunc, ...indexers });
  }

  /** Adds index functions, indexing what the cache already holds. An existing name is an error. */
  addIndexers(indexers: Record<string, IndexFunc<T>>): void {
    for (const [name, fn] of Object.entries(indexers)) {
      if (this.indexFuncs.has(name)) throw new Error(`indexer "${name}" already exists`);
      this.indexFuncs.set(name, fn);
      const index = new Map<string, Set<string>>();
      this.indices.set(name, index);
      for (const [key, obj] of this.items) addToIndex(index, fn(obj), key);
    }
  }

  /** Adds or replaces the object under its key; returns the object it replaced. */
  upsert(obj: T): T | undefined {
    const key = metaNamespaceKey(obj);
    const old = this.items.get(key);
    if (old) this.unindex(key, old);
    this.items.set(key, obj);
    for (const [name, fn] of this.indexFuncs) addToIndex(this.indices.get(name)!, fn(obj), key);
    return old;
  }

  /** Removes the object under key; returns it. */
  deleteKey(key: string): T | undefined {
    const old = this.items.get(key);
    if (!old) return undefined;
    this.unindex(key, old);
    this.items.delete(key);
    return old;
  }

  getByKey(key: string): T | undefined {
    return this.items.get(key);
  }

  list(): T[] {
    return [...this.items.values()];
  }

  listKeys(): string[] {
    return [...this.items.keys()];
  }

  get size(): number {
    return this.items.size;
  }

  /** Objects whose index function yields value. */
  byIndex(indexName: string, value: string): T[] {
    const index = this.indices.get(indexName);
    if (!index) throw new Error(`index "${indexName}" does not exist`);
    return [...(index.get(value) ?? [])].map((key) => this.items.get(key)!);
  }

  /** The values an index holds. */
  indexValues(indexName: string): string[] {
    const index = this.indices.get(indexName);
    if (!index) throw new Error(`index "${indexName}" does not exist`);
    return [...index.keys()];
  }

  private unindex(key: string, obj: T): void {
    for (const [name, fn] of this.indexFuncs) {
      const index = this.indices.get(name)!;
      for (const value of fn(obj)) {
        const keys = index.get(value);
        keys?.delete(key);
        if (keys?.size === 0) index.delete(value);
      }
    }
  }
}

function addToIndex(index: Map<string, Set<string>>, values: string[], key: string): void {
  for (const value of values) {
    let keys = index.get(value);
    if (!keys) index.set(value, (keys = new Set()));
    keys.add(key);
  }
}

/**
 * ConvertingStorage: the Storage one version of a multi-version resource is served over (kube's
 * storage codec for a CRD version: encode to the storage version, decode any stored version to
 * the requested one). Every version's Store, with its own strategy, validation and admission,
 * works in its own version; all of them share the resource's one underlying storage and one
 * watch cache, where objects stay in the version they were written in.
 *
 * - Writes (create, guaranteedUpdate's result) are converted from this version to the storage
 *   version. A guaranteedUpdate's tryUpdate sees the current object in this version, so a patch
 *   applies to the requested version's representation.
 * - Reads (get, list items, watch events, delete results, validateDeletion) are converted from the
 *   version each object was stored in (its apiVersion: an object written before the storage
 *   version changed keeps its old one until rewritten) to this version.
 * - Predicates (label and field selectors) see objects in this version.
 * Objects read from the inner storage are never mutated: conversion builds new objects.
 */
import type { KubeObject } from '../api/meta.js';
import { newInternalError } from '../api/status.js';
import type { CacheEvent } from '../storage/cacher/cache-watcher.js';
import type { CacheWatchOptions } from '../storage/cacher/options.js';
import type {
  DeleteOptions,
  GetOptions,
  ListOptions,
  ListResult,
  Storage,
  StorageEvent,
  UpdateFunc,
  UpdateOptions,
  Watcher,
  WatchOptions,
} from '../storage/interface.js';
import type { KindConversion } from './conversion.js';

/** A watch cache's event stream (what the Cacher's watchEvents returns), converted. */
export interface ConvertedEventWatcher extends AsyncIterable<CacheEvent> {
  stop(): void;
}

interface EventSource {
  watchEvents(keyPrefix: string, opts?: CacheWatchOptions): AsyncIterable<CacheEvent> & { stop(): void };
}

function isEventSource(storage: Storage): storage is Storage & EventSource {
  return typeof (storage as Partial<EventSource>).watchEvents === 'function';
}

export class ConvertingStorage implements Storage {
  /**
   * Present when the inner storage is a watch cache, so the registry's watch keeps the cache's
   * initial events, bookmarks and timeouts (registry/watch.ts uses it as it uses the Cacher's).
   */
  readonly watchEvents?: (keyPrefix: string, opts?: CacheWatchOptions) => ConvertedEventWatcher;

  constructor(
    readonly inner: Storage,
    readonly conversion: KindConversion,
    /** The version this storage reads and writes objects in. */
    readonly version: string,
  ) {
    if (isEventSource(inner)) this.watchEvents = (keyPrefix, opts = {}) => this.convertedEvents(inner, keyPrefix, opts);
  }

  /** An object of this version, as stored. */
  toStorage(obj: KubeObject): KubeObject {
    return this.conversion.convert(obj, this.version, this.conversion.storageVersion);
  }

  /** A stored object (in whatever version it was written), in this version. */
  fromStorage(obj: KubeObject): KubeObject {
    // Objects are always written with their apiVersion; one without is taken as the storage version's.
    const from = obj.apiVersion === undefined ? this.conversion.storageVersion : this.conversion.versionOf(obj);
    if (from === undefined) {
      throw newInternalError(`stored object ${obj.metadata?.namespace ? `${obj.metadata.namespace}/` : ''}${obj.metadata?.name ?? ''} has apiVersion "${String(obj.apiVersion)}", which is not a version of ${this.conversion.kind}`);
    }
    return this.conversion.convert(obj, from, this.version);
  }

  async create(key: string, obj: KubeObject): Promise<KubeObject> {
    return this.fromStorage(await this.inner.create(key, this.toStorage(obj)));
  }

  async get(key: string, opts?: GetOptions): Promise<KubeObject | undefined> {
    const obj = await this.inner.get(key, opts);
    return obj === undefined ? undefined : this.fromStorage(obj);
  }

  async getList(keyPrefix: string, opts: ListOptions = {}): Promise<ListResult> {
    const converted = new WeakMap<KubeObject, KubeObject>();
    const convert = (obj: KubeObject) => {
      let out = converted.get(obj);
      if (!out) converted.set(obj, (out = this.fromStorage(obj)));
      return out;
    };
    const predicate = opts.predicate;
    const result = await this.inner.getList(keyPrefix, predicate ? { ...opts, predicate: this.convertedPredicate(predicate, convert) } : opts);
    return { ...result, items: result.items.map(convert) };
  }

  async guaranteedUpdate(key: string, opts: UpdateOptions, tryUpdate: UpdateFunc): Promise<KubeObject> {
    const updated = await this.inner.guaranteedUpdate(key, opts, async (current) =>
      this.toStorage(await tryUpdate(current === undefined ? undefined : this.fromStorage(current))),
    );
    return this.fromStorage(updated);
  }

  async delete(key: string, opts: DeleteOptions = {}): Promise<KubeObject> {
    const validate = opts.validateDeletion;
    const inner: DeleteOptions = validate ? { ...opts, validateDeletion: (current) => validate(this.fromStorage(current)) } : opts;
    return this.fromStorage(await this.inner.delete(key, inner));
  }

  watch(keyPrefix: string, opts: WatchOptions = {}): Watcher {
    const predicate = opts.predicate;
    const watcher = this.inner.watch(keyPrefix, predicate ? { ...opts, predicate: this.convertedPredicate(predicate, (o) => this.fromStorage(o)) } : opts);
    const events = this.convertStorageEvents(watcher);
    return { [Symbol.asyncIterator]: () => events, stop: () => watcher.stop() };
  }

  currentRevision(): Promise<string> {
    return this.inner.currentRevision();
  }

  compact(revision: string): Promise<void> {
    return this.inner.compact(revision);
  }

  healthCheck(): Promise<void> {
    return this.inner.healthCheck();
  }

  /** The inner storage is shared by every version of the resource and closed by its owner. */
  async close(): Promise<void> {}

  // ---- helpers ----

  /**
   * A predicate over stored objects that judges them in this version. An object that cannot be
   * converted passes, so the conversion error surfaces where the object is read, not inside the
   * shared cache's dispatch.
   */
  private convertedPredicate(predicate: (obj: KubeObject) => boolean, convert: (obj: KubeObject) => KubeObject): (obj: KubeObject) => boolean {
    return (obj) => {
      let converted: KubeObject;
      try {
        converted = convert(obj);
      } catch {
        return true;
      }
      return predicate(converted);
    };
  }

  private convertEvent<E extends StorageEvent>(event: E): E {
    const out = { ...event, object: this.fromStorage(event.object) };
    if (event.prevObject) out.prevObject = this.fromStorage(event.prevObject);
    return out;
  }

  private async *convertStorageEvents(watcher: Watcher): AsyncGenerator<StorageEvent> {
    for await (const event of watcher) yield this.convertEvent(event);
  }

  private convertedEvents(source: EventSource, keyPrefix: string, opts: CacheWatchOptions): ConvertedEventWatcher {
    const predicate = opts.predicate;
    const watcher = source.watchEvents(keyPrefix, predicate ? { ...opts, predicate: this.convertedPredicate(predicate, (o) => this.fromStorage(o)) } : opts);
    const self = this;
    async function* events(): AsyncGenerator<CacheEvent> {
      try {
        for await (const event of watcher) yield event.type === 'BOOKMARK' ? event : self.convertEvent(event);
      } finally {
        watcher.stop();
      }
    }
    const iterable = events();
    return { [Symbol.asyncIterator]: () => iterable, stop: () => watcher.stop() };
  }
}

/** The storage a version of a resource is served over: converting when the kind has several versions. */
export function storageForVersion(storage: Storage, conversion: KindConversion | undefined, version: string): Storage {
  return conversion && conversion.versions.length > 1 ? new ConvertingStorage(storage, conversion, version) : storage;
}

/**
 * Storage metrics for every backend (memory, SQLite, etcd): kube records
 * etcd_request_duration_seconds{operation,group,resource} around each call its etcd3 store makes;
 * here the same is recorded around each call to the Storage interface, whatever the backend.
 * The object counts (apiserver_storage_objects) and the database size
 * (apiserver_storage_size_bytes) are read when /metrics is scraped, as kube reads them
 * periodically.
 */
import { statSync } from 'node:fs';
import type { Storage } from '../storage/interface.js';
import { etcdRequestDuration, etcdRequestErrors, etcdRequestsTotal, storageObjects, storageSizeBytes } from './apiserver.js';
import type { HistogramSeries, ScalarSeries } from './series.js';

/** kube's operation names (etcd3 store: Get, List, Create, GuaranteedUpdate, Delete, Watch, …). */
const OPERATIONS: Record<string, string> = {
  get: 'get',
  getList: 'list',
  create: 'create',
  guaranteedUpdate: 'update',
  delete: 'delete',
  watch: 'watch',
};

interface OperationSeries {
  duration: HistogramSeries;
  total: ScalarSeries;
  errors: ScalarSeries;
}

const seriesByKey = new Map<string, OperationSeries>();

/** `<root>/<group|core>/<resource>/…` → [group, resource] ('' for the core group). */
function groupResource(key: string): [string, string] {
  const start = key.indexOf('/', 1);
  if (start < 0) return ['', ''];
  const groupEnd = key.indexOf('/', start + 1);
  if (groupEnd < 0) return ['', ''];
  const group = key.slice(start + 1, groupEnd);
  const resourceEnd = key.indexOf('/', groupEnd + 1);
  const resource = key.slice(groupEnd + 1, resourceEnd < 0 ? undefined : resourceEnd);
  return [group === 'core' ? '' : group, resource];
}

function operationSeries(operation: string, key: string): OperationSeries {
  // Keys of one resource share everything up to the resource segment; the prefix is the cache key.
  const [group, resource] = groupResource(key);
  const cacheKey = `${operation}\u0000${group}\u0000${resource}`;
  let s = seriesByKey.get(cacheKey);
  if (!s) {
    s = {
      duration: etcdRequestDuration.with(operation, group, resource),
      total: etcdRequestsTotal.with(operation, group, resource),
      errors: etcdRequestErrors.with(operation, group, resource),
    };
    seriesByKey.set(cacheKey, s);
  }
  return s;
}

function instrument(operation: string, fn: (...args: unknown[]) => unknown, target: object) {
  return function instrumented(key: string, ...rest: unknown[]): unknown {
    const s = operationSeries(operation, key);
    s.total.value++;
    const started = performance.now();
    let result: unknown;
    try {
      result = fn.call(target, key, ...rest);
    } catch (err) {
      s.errors.value++;
      throw err;
    }
    if (result instanceof Promise) {
      return result.then(
        (value) => {
          s.duration.observe((performance.now() - started) / 1000);
          return value;
        },
        (err: unknown) => {
          s.duration.observe((performance.now() - started) / 1000);
          s.errors.value++;
          throw err;
        },
      );
    }
    s.duration.observe((performance.now() - started) / 1000);
    return result;
  };
}

const instrumented = new WeakSet<object>();

/**
 * The storage with its calls timed. A Proxy, so whatever else the backend offers (watch-cache
 * hooks, compaction turns, `instanceof`) is still seen by its users; methods run on the backend
 * itself (private fields work).
 */
export function instrumentStorage<S extends Storage>(storage: S): S {
  if (instrumented.has(storage)) return storage;
  const wrapped = new Map<PropertyKey, unknown>();
  const proxy = new Proxy(storage, {
    get(target, property) {
      const known = wrapped.get(property);
      if (known !== undefined) return known;
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function') return value;
      const operation = typeof property === 'string' ? OPERATIONS[property] : undefined;
      const fn = operation ? instrument(operation, value as (...args: unknown[]) => unknown, target) : (value as (...args: unknown[]) => unknown).bind(target);
      wrapped.set(property, fn);
      return fn;
    },
  });
  instrumented.add(proxy);
  return proxy;
}

/** What the object-count gauge needs to know of the installed resources. */
export interface StorageInventory {
  /** Storage prefix, group and plural of every stored resource. */
  resources(): Iterable<{ prefix: string; group: string; resource: string }>;
  storage: Storage;
  /** The database file (SQLite), for apiserver_storage_size_bytes. */
  databaseFile?: string;
}

let inventory: StorageInventory | undefined;

/** Sets what the scrape-time storage gauges read (the running server's resources and storage). */
export function setStorageInventory(next: StorageInventory | undefined): void {
  inventory = next;
}

storageObjects.collect = async () => {
  const current = inventory;
  if (!current) return;
  storageObjects.reset();
  for (const { prefix, group, resource } of current.resources()) {
    const series = storageObjects.with(group ? `${resource}.${group}` : resource);
    try {
      const list = await current.storage.getList(prefix, { limit: 1 });
      series.value = list.items.length + (list.remainingItemCount ?? 0);
    } catch {
      series.value = -1;
    }
  }
};

storageSizeBytes.collect = () => {
  const file = inventory?.databaseFile;
  if (!file) return;
  try {
    storageSizeBytes.with(file).value = statSync(file).size;
  } catch {
    storageSizeBytes.with(file).value = -1;
  }
};

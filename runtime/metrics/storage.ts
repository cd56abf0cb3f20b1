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

/** The end of `<root>/<group|core>/<resource>` in a key (its length when the key ends there). */
function resourceEnd(key: string): number {
  const start = key.indexOf('/', 1);
  if (start < 0) return -1;
  const groupEnd = key.indexOf('/', start + 1);
  if (groupEnd < 0) return -1;
  const end = key.indexOf('/', groupEnd + 1);
  return end < 0 ? key.length : end;
}

/** `<root>/<group|core>/<resource>/…` → [group, resource] ('' for the core group). */
function groupResource(key: string): [string, string] {
  const end = resourceEnd(key);
  if (end < 0) return ['', ''];
  const start = key.indexOf('/', 1);
  const groupEnd = key.indexOf('/', start + 1);
  const group = key.slice(start + 1, groupEnd);
  return [group === 'core' ? '' : group, key.slice(groupEnd + 1, end)];
}

/**
 * A backend method timed for etcd_request_duration_seconds. Each operation keeps its series by
 * the key's `<root>/<group>/<resource>` prefix (keys of one resource share it), so a call costs one
 * slice and one map lookup besides the clock reads. Storage methods take at most three arguments.
 */
function timed(operation: string, fn: (key: string, a?: unknown, b?: unknown) => unknown) {
  const byPrefix = new Map<string, OperationSeries>();
  const seriesOf = (key: string): OperationSeries => {
    const end = resourceEnd(key);
    const prefix = end < 0 ? '' : key.slice(0, end);
    let s = byPrefix.get(prefix);
    if (!s) {
      const [group, resource] = groupResource(key);
      s = {
        duration: etcdRequestDuration.with(operation, group, resource),
        total: etcdRequestsTotal.with(operation, group, resource),
        errors: etcdRequestErrors.with(operation, group, resource),
      };
      byPrefix.set(prefix, s);
    }
    return s;
  };
  return function instrumented(this: unknown, key: string, a?: unknown, b?: unknown): unknown {
    const s = seriesOf(key);
    s.total.value++;
    const started = performance.now();
    let result: unknown;
    try {
      result = fn.call(this, key, a, b);
    } catch (err) {
      s.duration.observe((performance.now() - started) / 1000);
      s.errors.value++;
      throw err;
    }
    if (result instanceof Promise) {
      return result.then(
        (value: unknown) => {
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
 * Times the storage's backend calls (create, get, getList, guaranteedUpdate, delete, watch) for
 * etcd_request_duration_seconds, etcd_requests_total and etcd_request_errors_total. The timed
 * methods are set on the backend object itself (own properties in front of its class's), so there
 * is no Proxy on the path: every other member (watch-cache hooks such as currentRevisionNow,
 * compaction turns, `instanceof`, private fields) is the backend's own, at no cost. Returns the
 * same object. The watch cache sits above it, so reads it serves are not timed, as in kube, whose
 * etcd3 store records only the calls that reach etcd.
 */
export function instrumentStorage<S extends Storage>(storage: S): S {
  if (instrumented.has(storage)) return storage;
  const methods = storage as unknown as Record<string, unknown>;
  for (const method of Object.keys(OPERATIONS)) {
    const fn = methods[method];
    if (typeof fn !== 'function') continue;
    Object.defineProperty(storage, method, {
      value: timed(OPERATIONS[method]!, fn as (key: string, a?: unknown, b?: unknown) => unknown),
      writable: true,
      configurable: true,
      enumerable: false,
    });
  }
  instrumented.add(storage);
  return storage;
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

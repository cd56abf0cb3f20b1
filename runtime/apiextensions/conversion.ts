/**
 * The `None` conversion strategy of a multi-version CRD (apiextensions-apiserver
 * pkg/apiserver/conversion nopConverter): objects are stored in the storage version and served in
 * the requested one, only apiVersion changing. Done as a Storage wrapper under the version's
 * store, so every verb (get, list, watch, create, update, patch, delete) converts on the way in
 * and out; objects stored under an earlier storage version read correctly too.
 */
import type { KubeObject } from '../api/meta.js';
import type { Storage, StorageEvent, Watcher } from '../storage/interface.js';

/** A shallow copy with another apiVersion: stored objects (and the watch cache's) stay untouched. */
function withAPIVersion(obj: KubeObject, apiVersion: string): KubeObject;
function withAPIVersion(obj: KubeObject | undefined, apiVersion: string): KubeObject | undefined;
function withAPIVersion(obj: KubeObject | undefined, apiVersion: string): KubeObject | undefined {
  if (!obj || obj.apiVersion === apiVersion) return obj;
  return { ...obj, apiVersion };
}

export function convertingStorage(inner: Storage, servedAPIVersion: string, storageAPIVersion: string): Storage {
  const out = (obj: KubeObject) => withAPIVersion(obj, servedAPIVersion);
  const into = (obj: KubeObject) => withAPIVersion(obj, storageAPIVersion);
  const event = (e: StorageEvent): StorageEvent => ({ ...e, object: out(e.object), ...(e.prevObject ? { prevObject: out(e.prevObject) } : {}) });
  return {
    create: async (key, obj) => out(await inner.create(key, into(obj))),
    get: async (key, opts) => withAPIVersion(await inner.get(key, opts), servedAPIVersion),
    getList: async (prefix, opts) => {
      const predicate = opts?.predicate;
      const result = await inner.getList(prefix, predicate ? { ...opts, predicate: (o) => predicate(out(o)) } : opts);
      return { ...result, items: result.items.map(out) };
    },
    guaranteedUpdate: async (key, opts, tryUpdate) =>
      out(await inner.guaranteedUpdate(key, opts, async (current) => into(await tryUpdate(withAPIVersion(current, servedAPIVersion))))),
    delete: async (key, opts) =>
      out(await inner.delete(key, opts?.validateDeletion ? { ...opts, validateDeletion: (o) => opts.validateDeletion!(out(o)) } : opts)),
    watch(prefix, opts): Watcher {
      const predicate = opts?.predicate;
      const w = inner.watch(prefix, predicate ? { ...opts, predicate: (o) => predicate(out(o)) } : opts);
      return {
        stop: () => w.stop(),
        async *[Symbol.asyncIterator]() {
          for await (const e of w) yield event(e);
        },
      };
    },
    currentRevision: () => inner.currentRevision(),
    compact: (revision) => inner.compact(revision),
    healthCheck: () => inner.healthCheck(),
    close: () => inner.close(),
  };
}

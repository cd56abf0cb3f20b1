/**
 * A CRD version's storage under the `Webhook` conversion strategy: the asynchronous sibling of
 * conversion.ts's convertingStorage. Objects are stored in the storage version and served in this
 * version, converted by the CRD's conversion webhook on every path:
 *
 * - get, and the objects writes return: one object per review;
 * - list: each storage page in one review (objects already in the served version are not sent);
 *   label and field selectors are evaluated on the converted objects, so a list with a selector
 *   reads pages without the predicate and filters after converting (fetching further pages,
 *   each at most the missing count, until `limit` objects match or none remain);
 * - watch: events converted one by one, in order; with a selector, a modification's new and old
 *   object go in one review and the event is filtered as storage filters it (filterEvent);
 * - create, update, patch (guaranteedUpdate), delete: the incoming object converted to the
 *   storage version before it is stored, the result back to this version.
 *
 * A failed conversion throws the converter's Status (500): API calls answer it, watches end with
 * it as an ERROR event (registry/watch.ts).
 */
import type { KubeObject } from '../api/meta.js';
import type { ListOptions, ListResult, Storage, StorageEvent, Watcher } from '../storage/interface.js';
import { filterEvent } from '../storage/watch-event.js';
import { gvkString } from './conversion-review.js';
import type { WebhookConverter } from './webhook-converter.js';

export interface WebhookStorageConfig {
  servedAPIVersion: string;
  storageAPIVersion: string;
  /** The list kind, for the messages of a list's conversion. */
  listKind: string;
  converter: WebhookConverter;
}

export function webhookConvertingStorage(inner: Storage, config: WebhookStorageConfig): Storage {
  const { servedAPIVersion, storageAPIVersion, converter } = config;
  const convertOne = async (obj: KubeObject, to: string): Promise<KubeObject> =>
    obj.apiVersion === to ? obj : (await converter.convert([obj], to, { gvk: gvkString(obj.apiVersion, obj.kind), list: false }))[0]!;
  const out = (obj: KubeObject) => convertOne(obj, servedAPIVersion);
  const into = (obj: KubeObject) => convertOne(obj, storageAPIVersion);
  const outList = (items: KubeObject[]): Promise<KubeObject[]> => {
    const first = items.find((o) => o.apiVersion !== servedAPIVersion);
    if (!first) return Promise.resolve(items);
    return converter.convert(items, servedAPIVersion, { gvk: gvkString(first.apiVersion, config.listKind), list: true });
  };

  async function getList(prefix: string, opts?: ListOptions): Promise<ListResult> {
    const predicate = opts?.predicate;
    if (!predicate) {
      const result = await inner.getList(prefix, opts);
      return { ...result, items: await outList(result.items) };
    }
    const { predicate: _p, ...rest } = opts!;
    const limit = rest.limit ?? 0;
    let page = await inner.getList(prefix, rest);
    const resourceVersion = page.resourceVersion;
    const items: KubeObject[] = [];
    for (;;) {
      for (const obj of await outList(page.items)) if (predicate(obj)) items.push(obj);
      if (!limit || items.length >= limit || !page.continue) break;
      page = await inner.getList(prefix, { limit: limit - items.length, continue: page.continue });
    }
    // As kube, no remainingItemCount when a selector filters the list.
    const result: ListResult = { items, resourceVersion };
    if (page.continue) result.continue = page.continue;
    return result;
  }

  /** The event a watcher with `predicate` sees, converted; undefined when it sees nothing. */
  async function convertEvent(e: StorageEvent, predicate: ((obj: KubeObject) => boolean) | undefined): Promise<StorageEvent | undefined> {
    if (!predicate) return { type: e.type, key: e.key, object: await out(e.object), resourceVersion: e.resourceVersion };
    const prev = e.type === 'MODIFIED' ? e.prevObject : undefined;
    let object: KubeObject;
    let prevObject: KubeObject | undefined;
    if (prev) {
      const gvk = gvkString((e.object.apiVersion !== servedAPIVersion ? e.object : prev).apiVersion, e.object.kind);
      [object, prevObject] = (await converter.convert([e.object, prev], servedAPIVersion, { gvk, list: false })) as [KubeObject, KubeObject];
    } else {
      object = await out(e.object);
    }
    const converted: StorageEvent = { type: e.type, key: e.key, object, resourceVersion: e.resourceVersion };
    if (prevObject) converted.prevObject = prevObject;
    return filterEvent(converted, predicate);
  }

  return {
    create: async (key, obj) => out(await inner.create(key, await into(obj))),
    get: async (key, opts) => {
      const obj = await inner.get(key, opts);
      return obj === undefined ? undefined : out(obj);
    },
    getList,
    // The cached guess is in this version, not the stored one: the backend reads the key instead.
    guaranteedUpdate: async (key, opts, tryUpdate) => {
      const { cachedExistingObject: _c, ...rest } = opts;
      return out(await inner.guaranteedUpdate(key, rest, async (current) => into(await tryUpdate(current === undefined ? undefined : await out(current)))));
    },
    delete: async (key, opts) => {
      const validate = opts?.validateDeletion;
      return out(await inner.delete(key, validate ? { ...opts, validateDeletion: async (o) => validate(await out(o)) } : opts));
    },
    watch(prefix, opts): Watcher {
      const predicate = opts?.predicate;
      const w = inner.watch(prefix, predicate ? { resourceVersion: opts?.resourceVersion } : opts);
      return {
        stop: () => w.stop(),
        async *[Symbol.asyncIterator]() {
          try {
            for await (const e of w) {
              const converted = await convertEvent(e, predicate);
              if (converted) yield converted;
            }
          } finally {
            w.stop();
          }
        },
      };
    },
    currentRevision: () => inner.currentRevision(),
    compact: (revision) => inner.compact(revision),
    healthCheck: () => inner.healthCheck(),
    close: () => inner.close(),
  };
}

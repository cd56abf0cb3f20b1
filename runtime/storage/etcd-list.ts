/**
 * getList on etcd, as the etcd3 store's GetList does it: every page is a range read at one
 * revision (the first page's, carried in the continue token), `limit` counts only items the
 * predicate lets through (further ranges are read at the same revision until enough match), and a
 * continue token is handed out whenever keys follow the last item returned.
 *
 * Revision rules (the same as the other backends):
 * - continue: the token's revision (rv -1: the latest); compacted → Expired with an rv -1 token
 *   (continueExpired), in the future → TooLargeResourceVersion.
 * - resourceVersionMatch=Exact: that revision (non-zero required), with the same errors.
 * - otherwise (NotOlderThan, or no resourceVersion): the latest revision, which must not be older
 *   than a requested resourceVersion (TooLargeResourceVersion otherwise).
 */
import type { KubeObject } from '../api/meta.js';
import { continueExpired, decodeContinue, encodeContinue } from './continue.js';
import { StorageError, type ListOptions, type ListResult } from './interface.js';
import { decodeKv, prefixRangeEnd, type EtcdKeys } from './etcd-codec.js';
import type { EtcdClient } from './etcd-client.js';
import type { KeyValue, RangeResponse } from './etcd/proto.js';
import { parseResourceVersion } from './objects.js';

/** Keys read per range while a predicate filters a limited list. */
const FILTERED_BATCH = 128;

interface ListStart {
  /** Undefined: the latest revision. */
  revision?: number;
  /** Storage key the list starts at (inclusive). */
  startKey: string;
  /** The served revision must be at least this (NotOlderThan). */
  notOlderThan?: number;
  fromContinue: boolean;
}

export async function etcdGetList(client: EtcdClient, keys: EtcdKeys, keyPrefix: string, opts: ListOptions): Promise<ListResult> {
  const prefix = keyPrefix.endsWith('/') ? keyPrefix : `${keyPrefix}/`;
  const start = listStart(prefix, opts);
  const end = prefixRangeEnd(Buffer.from(keys.toEtcd(prefix)));
  const limit = opts.limit && opts.limit > 0 ? Math.floor(opts.limit) : 0;
  const predicate = opts.predicate;

  const read = (from: string, revision: number | undefined, count: number) =>
    client.call(prefix, 'read', ({ options }) =>
      client.kv.range({ key: Buffer.from(keys.toEtcd(from)), range_end: end, revision: revision ?? 0, limit: count }, options),
    ).catch((err: unknown) => {
      if (start.fromContinue && err instanceof StorageError && err.code === 'Expired') {
        throw continueExpired(prefix, start.startKey);
      }
      throw err;
    });

  const items: KubeObject[] = [];
  let lastKey: string | undefined;
  let more = false;
  let cursor = start.startKey;
  let revision = start.revision;
  let firstCount: number | undefined;
  for (;;) {
    const want = limit > 0 ? limit - items.length : 0;
    const batch = want > 0 && predicate ? Math.max(want, FILTERED_BATCH) : want;
    const res: RangeResponse = await read(cursor, revision, batch);
    const headerRevision = client.observe(res.header);
    if (revision === undefined) {
      revision = headerRevision;
      if (start.notOlderThan !== undefined && revision < start.notOlderThan) {
        throw new StorageError('TooLargeResourceVersion', prefix, `Too large resource version: ${start.notOlderThan}, current: ${revision}`);
      }
    }
    firstCount ??= Number(res.count);
    const taken = take(res.kvs, keys, items, limit, predicate);
    if (taken.lastKey !== undefined) lastKey = taken.lastKey;
    if (taken.full) {
      more = taken.leftover || res.more;
      break;
    }
    if (!res.more || res.kvs.length === 0) break;
    cursor = `${keys.fromEtcd(res.kvs[res.kvs.length - 1].key.toString('utf8'))}\u0000`;
  }

  const result: ListResult = { items, resourceVersion: String(revision) };
  if (more && lastKey !== undefined) {
    result.continue = encodeContinue(`${lastKey}\u0000`, prefix, revision);
    if (!predicate) result.remainingItemCount = firstCount - items.length;
  }
  return result;
}

/**
 * Appends the kvs that pass predicate to items until limit is reached. `full`: limit reached;
 * `leftover`: kvs of this batch remain after the last item taken.
 */
function take(
  kvs: KeyValue[],
  keys: EtcdKeys,
  items: KubeObject[],
  limit: number,
  predicate?: (o: KubeObject) => boolean,
): { full: boolean; leftover: boolean; lastKey?: string } {
  let lastKey: string | undefined;
  for (let i = 0; i < kvs.length; i++) {
    if (limit > 0 && items.length === limit) return { full: true, leftover: true, lastKey };
    const obj = decodeKv(kvs[i]);
    if (predicate && !predicate(obj)) continue;
    items.push(obj);
    lastKey = keys.fromEtcd(kvs[i].key.toString('utf8'));
  }
  return { full: limit > 0 && items.length === limit, leftover: false, lastKey };
}

function listStart(prefix: string, opts: ListOptions): ListStart {
  if (opts.continue) {
    const position = decodeContinue(opts.continue, prefix);
    return { revision: position.revision, startKey: position.startKey, fromContinue: true };
  }
  const requested = parseResourceVersion(prefix, opts.resourceVersion, false);
  if (opts.resourceVersionMatch === 'Exact') {
    if (!requested) {
      throw new StorageError('InvalidObject', prefix, 'resourceVersionMatch=Exact requires a non-zero resourceVersion');
    }
    return { revision: requested, startKey: prefix, fromContinue: false };
  }
  return { startKey: prefix, notOlderThan: requested || undefined, fromContinue: false };
}

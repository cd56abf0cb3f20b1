/**
 * LogStorage: the Storage contract (k8s.io/apiserver/pkg/storage.Interface as the etcd3 store
 * implements it) over a synchronous RevisionLog. MemoryStorage and SqliteStorage are this class
 * over their own log; only the log differs.
 *
 * Every write is: read the key's newest row, decide, then append with compare-and-swap on that
 * row's revision, publishing the change to watchers in the same tick as its commit. A write that
 * loses the compare-and-swap reads again and retries.
 *
 * A log with appendBatch (SqliteLog) gets group commit (group-commit.ts): the writes of one turn
 * of the event loop commit together, each acknowledged only after that commit. Reads and write
 * decisions only ever see committed rows, so nobody acts on a write that may still fail.
 */
import type { KubeObject } from '../api/meta.js';
import { continueExpired, decodeContinue, encodeContinue } from './continue.js';
import {
  StorageError,
  type DeleteOptions,
  type GetOptions,
  type ListOptions,
  type ListResult,
  type Storage,
  type StorageEvent,
  type UpdateFunc,
  type UpdateOptions,
  type Watcher,
  type WatchOptions,
} from './interface.js';
import { checkPreconditions, checkStoredSize, decodeObject, encodeStored, parseResourceVersion, sameStoredValue } from './objects.js';
import { GroupCommit } from './group-commit.js';
import { keyRangeOf, type KeyRange, type LogChange, type LogRow, type LogWrite, type RevisionLog } from './revision-log.js';
import { WatchBroadcaster } from './watch-broadcaster.js';
import { changeToEvent, filterEvent } from './watch-event.js';
import { noteStoredValue } from './cacher/cached-object.js';
import { noteCreatedAnswer, WrittenValues } from './stored-json.js';

/** Rows read per step while a predicate filters a limited list. */
const FILTERED_BATCH = 128;

interface ListPosition {
  revision: number;
  startKey: string;
}

interface ScanResult {
  items: KubeObject[];
  /** Key of the last item returned. */
  lastKey?: string;
  /** More keys follow the last item (whether or not they match). */
  more: boolean;
}

export class LogStorage implements Storage {
  private readonly broadcaster = new WatchBroadcaster<LogChange>((change) => change.key);
  private readonly groupCommit?: GroupCommit;
  /** Values of this process's writes in flight: their watch events carry their JSON (stored-json.ts). */
  private readonly written = new WrittenValues();
  private closed = false;

  constructor(protected readonly log: RevisionLog) {
    if (log.appendBatch) {
      this.groupCommit = new GroupCommit(log.appendBatch.bind(log), (change) => this.broadcaster.publish(change));
    }
  }

  /**
   * Optimistic: a new key has no row (0); a key with a deletion row costs one more attempt.
   * Returns obj itself with its resourceVersion set (what decoding the stored value would give,
   * without parsing it again): the caller hands over an object it no longer shares.
   */
  async create(key: string, obj: KubeObject): Promise<KubeObject> {
    this.ensureOpen(key);
    const { value, metadataEnd } = encodeStored(key, obj);
    checkStoredSize(key, value);
    let expected = 0;
    for (;;) {
      const change = await this.append({ key, value, deleted: false }, expected, metadataEnd);
      if (change) return withResourceVersion(obj, value, metadataEnd, change.revision);
      this.ensureOpen(key);
      const latest = this.log.latest(key);
      if (latest && !latest.deleted) throw new StorageError('KeyExists', key, `key ${key} already exists`);
      expected = latest?.revision ?? 0;
    }
  }

  async get(key: string, opts: GetOptions = {}): Promise<KubeObject | undefined> {
    this.ensureOpen(key);
    const row = liveRow(this.log.latest(key));
    if (row) return decodeObject(row.value, row.revision);
    if (opts.ignoreNotFound) return undefined;
    throw notFound(key);
  }

  async getList(keyPrefix: string, opts: ListOptions = {}): Promise<ListResult> {
    this.ensureOpen(keyPrefix);
    const prefix = keyPrefix.endsWith('/') ? keyPrefix : `${keyPrefix}/`;
    const { revision, startKey } = this.listPosition(prefix, opts);
    const limit = opts.limit && opts.limit > 0 ? Math.floor(opts.limit) : 0;
    const range = { start: startKey, end: keyRangeOf(prefix).end };
    const scan = this.scan(range, revision, limit, opts.predicate);
    const result: ListResult = { items: scan.items, resourceVersion: String(revision) };
    if (scan.more && scan.lastKey !== undefined) {
      const next = `${scan.lastKey}\u0000`;
      result.continue = encodeContinue(next, prefix, revision);
      if (!opts.predicate) result.remainingItemCount = this.log.count({ start: next, end: range.end }, revision);
    }
    return result;
  }

  async guaranteedUpdate(key: string, opts: UpdateOptions, tryUpdate: UpdateFunc): Promise<KubeObject> {
    for (;;) {
      this.ensureOpen(key);
      const latest = this.log.latest(key);
      const row = liveRow(latest);
      const current = row ? decodeObject(row.value, row.revision) : undefined;
      if (!current && !opts.ignoreNotFound) throw notFound(key);
      checkPreconditions(key, opts.preconditions, current);
      const next = await tryUpdate(current);
      this.ensureOpen(key);
      const { value, metadataEnd } = encodeStored(key, next);
      checkStoredSize(key, value);
      const expected = latest?.revision ?? 0;
      if (row && sameStoredValue(row.value, value)) {
        // A no-op is only an answer if it was computed from the key's current state.
        if (this.log.latest(key)?.revision === expected) return decodeObject(row.value, row.revision);
        continue;
      }
      const change = await this.append({ key, value, deleted: false }, expected, metadataEnd);
      if (!change) continue;
      return decodeObject(value, change.revision);
    }
  }

  async delete(key: string, opts: DeleteOptions = {}): Promise<KubeObject> {
    for (;;) {
      this.ensureOpen(key);
      const row = liveRow(this.log.latest(key));
      if (!row) throw notFound(key);
      checkPreconditions(key, opts.preconditions, decodeObject(row.value, row.revision));
      if (opts.validateDeletion) await opts.validateDeletion(decodeObject(row.value, row.revision));
      this.ensureOpen(key);
      const change = await this.append({ key, value: row.value, deleted: true }, row.revision);
      if (!change) continue;
      return decodeObject(row.value, change.revision);
    }
  }

  /**
   * Catch-up rows are read and the watcher registered in the same synchronous step, so the
   * history (revisions up to now) and the live stream (revisions after now) meet without a gap
   * or an overlap. Errors (Expired, a bad resourceVersion) surface from the iterator.
   */
  watch(keyPrefix: string, opts: WatchOptions = {}): Watcher {
    try {
      this.ensureOpen(keyPrefix);
      const range = keyRangeOf(keyPrefix);
      const current = this.log.currentRevision();
      const from = parseResourceVersion(keyPrefix, opts.resourceVersion, true) ?? current;
      const compacted = this.log.compactedRevision();
      if (from < compacted) {
        throw new StorageError('Expired', keyPrefix, `too old resource version: ${from} (${compacted})`);
      }
      const convert = (change: LogChange) =>
        change.revision > from && inRange(range, change.key)
          ? filterEvent(this.eventOf(change), opts.predicate)
          : undefined;
      const history = from < current ? this.log.changes(range, from) : [];
      const initial = history.map(convert).filter((e) => e !== undefined);
      return this.broadcaster.watch(convert, initial, keyPrefix);
    } catch (err) {
      return this.broadcaster.failed(err);
    }
  }

  /**
   * The latest revision, read synchronously: lets the watch cache answer a most-recent GET
   * without awaiting (Cacher.getIfCurrent). Undefined once closed (readers then take the
   * asynchronous path, which reports the closed storage).
   */
  currentRevisionNow(): number | undefined {
    return this.closed ? undefined : this.log.currentRevision();
  }

  async currentRevision(): Promise<string> {
    this.ensureOpen('');
    return String(this.log.currentRevision());
  }

  async compact(revision: string): Promise<void> {
    this.ensureOpen('');
    const target = parseResourceVersion('', revision, false);
    if (target === undefined) throw new StorageError('InvalidObject', '', 'compact requires a revision');
    const current = this.log.currentRevision();
    if (target > current) throw tooLarge('', target, current);
    if (target <= this.log.compactedRevision()) return;
    this.log.compact(target);
  }

  compactedRevision(): number {
    return this.log.compactedRevision();
  }

  async healthCheck(): Promise<void> {
    this.ensureOpen('');
    try {
      this.log.check();
    } catch (err) {
      throw new StorageError('Unavailable', '', `storage health check failed: ${(err as Error).message}`);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Writes already queued commit (their callers are waiting); new ones fail with Unavailable.
    this.groupCommit?.flush();
    this.broadcaster.close();
    this.log.close();
  }

  /** The number of active watchers (for tests and metrics). */
  get watcherCount(): number {
    return this.broadcaster.size;
  }

  /**
   * append() with compare-and-swap on `expected`, published to watchers when committed. Without
   * group commit the append, its commit and its publication happen in this same tick. The value
   * of a create or update encoded with its metadata's end known is noted while it is in flight,
   * so that its watch events can vouch for it (eventOf).
   */
  private async append(write: LogWrite, expected: number, metadataEnd = -1): Promise<LogChange | undefined> {
    if (metadataEnd < 0) return this.appendNow(write, expected);
    this.written.note(write.key, write.value, metadataEnd);
    try {
      return await this.appendNow(write, expected);
    } finally {
      this.written.forget(write.key, write.value);
    }
  }

  private async appendNow(write: LogWrite, expected: number): Promise<LogChange | undefined> {
    if (this.groupCommit) return this.groupCommit.append(write, expected);
    const change = this.log.append(write, expected);
    if (change) this.broadcaster.publish(change);
    return change;
  }

  /**
   * A watcher's own event for a change. The object of a change this process wrote (its value
   * came from encodeStored) is marked with that value, so the watch cache derives the object's
   * JSON from it instead of stringifying the object again.
   */
  private eventOf(change: LogChange): StorageEvent {
    const event = changeToEvent(change);
    if (change.deleted) return event;
    const metadataEnd = this.written.metadataEnd(change.key, change.value);
    if (metadataEnd >= 0) noteStoredValue(event.object, change.value, metadataEnd, change.revision);
    return event;
  }

  /** The revision and first key a list page is served from (kube's GetList rules). */
  private listPosition(prefix: string, opts: ListOptions): ListPosition {
    const current = this.log.currentRevision();
    const compacted = this.log.compactedRevision();
    if (opts.continue) {
      const position = decodeContinue(opts.continue, prefix);
      if (position.revision === undefined) return { revision: current, startKey: position.startKey };
      if (position.revision < compacted) throw continueExpired(prefix, position.startKey);
      if (position.revision > current) throw tooLarge(prefix, position.revision, current);
      return { revision: position.revision, startKey: position.startKey };
    }
    const requested = parseResourceVersion(prefix, opts.resourceVersion, false);
    if (opts.resourceVersionMatch === 'Exact') {
      if (!requested) {
        throw new StorageError('InvalidObject', prefix, 'resourceVersionMatch=Exact requires a non-zero resourceVersion');
      }
      if (requested < compacted) {
        throw new StorageError('Expired', prefix, `too old resource version: ${requested} (${compacted})`);
      }
      if (requested > current) throw tooLarge(prefix, requested, current);
      return { revision: requested, startKey: prefix };
    }
    if (requested !== undefined && requested > current) throw tooLarge(prefix, requested, current);
    return { revision: current, startKey: prefix };
  }

  /**
   * Reads live keys in order until `limit` of them pass `predicate` (0: all of them). Peeks one
   * key beyond the last item to tell whether more follow.
   */
  private scan(range: KeyRange, revision: number, limit: number, predicate?: (o: KubeObject) => boolean): ScanResult {
    const items: KubeObject[] = [];
    let lastKey: string | undefined;
    let cursor = range.start;
    for (;;) {
      const want = limit > 0 ? limit - items.length + 1 : 0;
      const batchSize = want > 0 && predicate ? Math.max(want, FILTERED_BATCH) : want;
      const batch = this.log.range({ start: cursor, end: range.end }, revision, batchSize);
      for (const entry of batch) {
        if (limit > 0 && items.length === limit) return { items, lastKey, more: true };
        const obj = decodeObject(entry.value, entry.revision);
        if (predicate && !predicate(obj)) continue;
        items.push(obj);
        lastKey = entry.key;
      }
      if (batchSize === 0 || batch.length < batchSize) return { items, lastKey, more: false };
      cursor = `${batch[batch.length - 1].key}\u0000`;
    }
  }

  private ensureOpen(key: string): void {
    if (this.closed) throw new StorageError('Unavailable', key, 'storage is closed');
  }
}

function liveRow(row: LogRow | undefined): LogRow | undefined {
  return row && !row.deleted ? row : undefined;
}

function inRange(range: KeyRange, key: string): boolean {
  return key >= range.start && key < range.end;
}

function notFound(key: string): StorageError {
  return new StorageError('KeyNotFound', key, `key ${key} not found`);
}

function tooLarge(key: string, requested: number, current: number): StorageError {
  return new StorageError('TooLargeResourceVersion', key, `Too large resource version: ${requested}, current: ${current}`);
}

/**
 * obj as decodeObject(value, revision) would give it (value is obj's encoding): metadata's
 * resourceVersion set last among its keys, as the stored value has none. obj holds JSON values
 * only, so the parse would change nothing else. A frozen obj is decoded after all.
 */
function withResourceVersion(obj: KubeObject, value: string, metadataEnd: number, revision: number): KubeObject {
  const meta = obj.metadata as Record<string, unknown>;
  const answer = Object.isFrozen(meta) ? decodeObject(value, revision) : obj;
  if (answer === obj) {
    if ('resourceVersion' in meta) delete meta.resourceVersion;
    meta.resourceVersion = String(revision);
  }
  noteCreatedAnswer(answer, value, metadataEnd, revision);
  return answer;
}

/**
 * One storage watch on etcd, as k8s.io/apiserver/pkg/storage/etcd3/watcher.go maps it:
 * a Watch stream with prev_kv from a revision; PUT with create_revision == mod_revision → ADDED,
 * other PUT → MODIFIED (prevObject from prev_kv), DELETE → DELETED whose object is prev_kv with
 * resourceVersion set to the deletion revision; compaction → StorageError('Expired') (410).
 *
 * Contracts beyond the Storage interface:
 * - The watch is registered at `start_revision = R` (not R+1) and drops events at or below R
 *   (R is the floor of that stream; the events of one revision after it are all delivered).
 *   Asking etcd for R itself makes its compaction check match the interface: watching from R
 *   fails exactly when R is older than the compacted revision.
 * - Establishing the first stream has the request deadline: an unreachable etcd fails the watch
 *   with Unavailable (at once when every member is marked down). Once established, a broken stream (member killed, etcd restarted) is
 *   re-established from the last delivered revision, on any live member, with backoff, for as long
 *   as the watch runs: no event is lost or repeated. If the history was compacted meanwhile, the
 *   watch ends with Expired, like any watch from a compacted revision.
 * - Progress notifications are not requested: only delivered events move the resume revision.
 */
import type { KubeObject } from '../api/meta.js';
import type { StorageEvent } from './interface.js';
import { StorageError } from './interface.js';
import { noteStoredValue } from './cacher/cached-object.js';
import { decodeKv, EtcdHostDownError, type EtcdKeys } from './etcd-codec.js';
import { decodeObject } from './objects.js';
import type { WrittenValues } from './stored-json.js';
import type { EtcdClient, WatchHost, WatchStream } from './etcd-client.js';
import type { WatchEvent, WatchResponse } from './etcd/proto-watch.js';
import { QueueWatcher } from './watch-broadcaster.js';
import { filterEvent, withLazyPrevObject } from './watch-event.js';

export interface EtcdWatchRange {
  /** The storage key or prefix being watched (for errors). */
  key: string;
  start: Buffer;
  /** Undefined: exactly `start`. */
  end?: Buffer;
}

const FIRST_RECONNECT_MS = 50;
const MAX_RECONNECT_MS = 1000;

export class EtcdWatch {
  readonly watcher: QueueWatcher;
  private stream: WatchStream | undefined;
  private host: WatchHost | undefined;
  private established = false;
  private stopped = false;
  private backoff = FIRST_RECONNECT_MS;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private readonly firstDeadline: number;
  /** Started "from now" (no resourceVersion): its first stream may move the start to a newer now. */
  private readonly fromNow: boolean;
  private streams = 0;
  /** The revision the current stream was registered from: its events at or below it were delivered before. */
  private floor = 0;

  /**
   * Delivers every change in `range` with a revision above `revision` that `predicate` lets
   * through. Undefined means from now: above the newest revision this client has seen (so a
   * write this process issues after watch() returns is always seen), read from etcd if none.
   */
  constructor(
    private readonly client: EtcdClient,
    private readonly keys: EtcdKeys,
    private readonly range: EtcdWatchRange,
    private revision: number | undefined,
    private readonly predicate?: (obj: KubeObject) => boolean,
    private readonly onEnd: (w: EtcdWatch) => void = () => {},
    /** Values this process put: an event carrying one marks its object with it (stored-json.ts). */
    private readonly written?: WrittenValues,
  ) {
    this.watcher = new QueueWatcher(() => this.teardown());
    this.firstDeadline = Date.now() + client.requestTimeoutMs;
    this.fromNow = revision === undefined;
    if (this.fromNow && client.revisionSeen > 0) this.revision = client.revisionSeen;
    void this.connect();
  }

  private async connect(): Promise<void> {
    this.reconnectTimer = undefined;
    if (this.stopped) return;
    try {
      if (this.revision === undefined) this.revision = await this.currentRevision();
      const { stream, host } = this.client.openWatchStream();
      if (this.stopped) {
        stream.removeAllListeners();
        stream.on('error', () => {});
        stream.cancel();
        return;
      }
      this.stream = stream;
      this.host = host;
      this.streams++;
      stream.on('data', (res: WatchResponse) => this.onResponse(stream, res));
      stream.on('error', (err) => this.onBroken(stream, err));
      stream.on('end', () => this.onBroken(stream, new Error('watch stream ended')));
      this.floor = this.revision;
      stream.write({
        create_request: {
          key: this.range.start,
          range_end: this.range.end,
          start_revision: this.revision,
          prev_kv: true,
        },
      });
    } catch (err) {
      this.retryOrFail(err);
    }
  }

  private async currentRevision(): Promise<number> {
    const res = await this.client.call(this.range.key, 'read', ({ options }) =>
      this.client.kv.range({ key: Buffer.from(this.keys.healthKey), count_only: true }, options),
    );
    return this.client.observe(res.header);
  }

  private onResponse(stream: WatchStream, res: WatchResponse): void {
    if (this.stopped || stream !== this.stream) return;
    const compacted = res.compact_revision;
    if (res.canceled) {
      if (compacted > 0 && this.fromNow && this.streams === 1) {
        // "Now" was an old revision this client saw last (compacted since): start from the real
        // now. Only on the first stream: later, the history since the start must be delivered.
        this.revision = undefined;
        this.onBroken(stream, new Error('watch start revision compacted'));
      } else if (compacted > 0) {
        this.fail(new StorageError('Expired', this.range.key, `too old resource version: ${this.revision} (${compacted})`));
      } else {
        this.onBroken(stream, new Error(`etcd canceled the watch: ${res.cancel_reason || 'no reason given'}`));
      }
      return;
    }
    if (res.created) {
      this.established = true;
      this.backoff = FIRST_RECONNECT_MS;
      return;
    }
    for (const event of res.events) this.deliver(event);
  }

  private deliver(event: WatchEvent): void {
    const revision = event.kv.mod_revision;
    // Only what the stream was registered from is dropped: events after it that share a
    // revision (a transaction of several puts) are each delivered, as kube's watcher does.
    if (revision <= this.floor) return;
    this.revision = revision;
    let converted: StorageEvent | undefined;
    try {
      converted = filterEvent(this.toEvent(event, revision), this.predicate);
    } catch (err) {
      this.fail(err);
      return;
    }
    if (converted) this.watcher.push(converted);
  }

  private toEvent(event: WatchEvent, revision: number): StorageEvent {
    const key = this.keys.fromEtcd(event.kv.key.toString('utf8'));
    const resourceVersion = String(revision);
    const prev = event.prev_kv ?? undefined;
    if (event.type === 'Delete') {
      if (!prev) throw new StorageError('Unavailable', key, `etcd DELETE event at revision ${revision} without prev_kv`);
      return { type: 'DELETED', key, object: decodeKv(prev, revision), prevObject: decodeKv(prev), resourceVersion };
    }
    const value = event.kv.value.toString('utf8');
    const object = decodeObject(value, revision);
    const metadataEnd = this.written ? this.written.take(key, value) : -1;
    if (metadataEnd >= 0) noteStoredValue(object, value, metadataEnd, revision);
    if (event.kv.create_revision === event.kv.mod_revision) return { type: 'ADDED', key, object, resourceVersion };
    const modified: StorageEvent = { type: 'MODIFIED', key, object, resourceVersion };
    return prev ? withLazyPrevObject(modified, () => decodeKv(prev)) : modified;
  }

  private onBroken(stream: WatchStream, err: Error): void {
    if (this.stopped || stream !== this.stream) return;
    this.stream = undefined;
    stream.removeAllListeners();
    stream.on('error', () => {});
    stream.cancel();
    if (this.host) this.client.reportStreamFailure(this.host, err);
    this.retryOrFail(err);
  }

  /** Before the first stream is up, failures past the deadline end the watch; later, retry forever. */
  private retryOrFail(err: unknown): void {
    if (this.stopped) return;
    if (err instanceof StorageError && err.code !== 'Unavailable') {
      this.fail(err);
      return;
    }
    if (this.client.isClosed) {
      this.stop();
      return;
    }
    // Like unary calls, a new watch fails fast once every member is marked down.
    // (A StorageError here comes from a call that already used up its own retries.)
    const allDown = err instanceof EtcdHostDownError || err instanceof StorageError;
    if (!this.established && (allDown || Date.now() + this.backoff >= this.firstDeadline)) {
      const message = err instanceof Error ? err.message : String(err);
      this.fail(err instanceof StorageError ? err : new StorageError('Unavailable', this.range.key, `etcd is unavailable: ${message}`));
      return;
    }
    this.reconnectTimer = setTimeout(() => void this.connect(), this.backoff);
    this.backoff = Math.min(this.backoff * 2, MAX_RECONNECT_MS);
  }

  /** Ends the watch with err, delivered after the events already queued. */
  private fail(err: unknown): void {
    this.watcher.fail(err);
  }

  /** Ends the watch; safe to call more than once. */
  stop(): void {
    this.watcher.stop();
  }

  /** Called once the watcher ends (stop, fail, or the consumer breaking out): drops the stream. */
  private teardown(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.onEnd(this);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const stream = this.stream;
    this.stream = undefined;
    if (stream) {
      stream.removeAllListeners();
      stream.on('error', () => {});
      stream.cancel();
    }
  }
}

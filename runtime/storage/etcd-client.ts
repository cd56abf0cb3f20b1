/**
 * EtcdClient: etcd's KV service and Watch streams over our own lean gRPC transport (etcd/kv.ts,
 * etcd/watch-stream.ts; per member one HTTP/2 session for calls, one for watch streams) with the
 * fault handling the storage needs.
 *
 * - Every unary call has a deadline (`requestTimeoutMs`, all retries included); nothing hangs.
 *   Each attempt gets a third of it (at least 1 s), so one lost with a dead leader is resent once
 *   a new leader is elected.
 * - A host whose connections fail repeatedly is skipped for `hostRetryMs` (a small breaker per
 *   host); calls go to the other endpoints, and when every host is down a call fails at once with
 *   StorageError('Unavailable') instead of waiting for its deadline.
 * - Retries: every call is resent on a transient failure (connection lost, leader election,
 *   deadline of one attempt). Writes are compare-and-swap txns, so a resent txn applies at most
 *   once: if its compare fails after an attempt that may have been applied (`maybeApplied`), the
 *   caller cannot tell whether its own write won and must report that rather than run again.
 * - The client reconnects by itself: a closed or refused channel is rebuilt on the next call.
 * - It records the highest revision any response carried (`revisionSeen`), the "now" of watches.
 */
import { StorageError } from './interface.js';
import { EtcdHostDownError, isConnectionFailure, isTransient, isUnsent, toStorageError } from './etcd-codec.js';
import { HostBreaker } from './etcd/breaker.js';
import { EtcdKV, type KVCallOptions, type KVHost } from './etcd/kv.js';
import type { ResponseHeader } from './etcd/proto.js';
import type { EtcdTLS } from './etcd/tls.js';
import type { GrpcWatchStream } from './etcd/watch-stream.js';

export type CallOptions = KVCallOptions;

export interface EtcdClientOptions {
  /**
   * `host:port`, `http://host:port` or `https://host:port`, one per member. A bare `host:port` is
   * https when `tls` is set, else http.
   */
  endpoints: string[];
  /** CA and client certificate for https members (kube's --etcd-cafile/certfile/keyfile). */
  tls?: EtcdTLS;
  /** Deadline of one storage call including its retries; default 5000 ms. */
  requestTimeoutMs?: number;
  /** How long a host is skipped after 3 consecutive connection failures; default 1000 ms. */
  hostRetryMs?: number;
}

/** 'read' or 'write': only changes the message of an error after a write may have been applied. */
export type CallKind = 'read' | 'write';

export interface Attempt {
  options: CallOptions;
  /**
   * An earlier attempt of this call failed after it may have reached etcd. A compare-and-swap
   * whose compare fails now may have lost to that attempt: the outcome is unknown.
   */
  maybeApplied: boolean;
}

const FIRST_BACKOFF_MS = 25;
const MAX_BACKOFF_MS = 400;

/** The member a watch stream runs on (its breaker hears of the stream's connection failures). */
export type WatchHost = KVHost;

export class EtcdClient {
  readonly kv: EtcdKV;
  readonly requestTimeoutMs: number;
  /** The highest store revision seen in any response header (0 before the first). */
  revisionSeen = 0;
  private closed = false;

  constructor(opts: EtcdClientOptions) {
    if (opts.endpoints.length === 0) throw new Error('etcd storage needs at least one endpoint');
    this.requestTimeoutMs = opts.requestTimeoutMs ?? 5000;
    const hostRetryMs = opts.hostRetryMs ?? 1000;
    const scheme = opts.tls ? 'https' : 'http';
    const hosts = opts.endpoints.map((e) => (/^https?:\/\//.test(e) ? e : `${scheme}://${e}`));
    // One breaker per member, shared by unary calls and watch streams.
    const breakers = new Map(hosts.map((h) => [h, new HostBreaker(h, hostRetryMs)]));
    this.kv = new EtcdKV(breakers, opts.tls);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Records a response's revision; returns it as a number. */
  observe(header: ResponseHeader): number {
    const revision = header.revision;
    if (revision > this.revisionSeen) this.revisionSeen = revision;
    return revision;
  }

  /**
   * Runs `op` with a deadline, resending it on transient failures, and turns failures into
   * StorageErrors (a StorageError thrown by op passes through). Fails fast when every host is
   * marked down.
   */
  async call<T>(key: string, kind: CallKind, op: (attempt: Attempt) => Promise<T>, timeoutMs = this.requestTimeoutMs): Promise<T> {
    this.ensureOpen(key);
    const deadline = Date.now() + timeoutMs;
    let backoff = FIRST_BACKOFF_MS;
    let maybeApplied = false;
    for (;;) {
      // An attempt gets a share of the deadline, so a request lost with a dead leader is resent
      // (to a live member, once one is elected) instead of waiting out the whole deadline.
      const attemptDeadline = Math.min(deadline, Date.now() + Math.max(1000, timeoutMs / 3));
      try {
        return await op({ options: { deadline: attemptDeadline }, maybeApplied });
      } catch (err) {
        if (err instanceof StorageError) throw err;
        this.ensureOpen(key);
        if (!isTransient(err)) throw toStorageError(err, key);
        maybeApplied ||= !isUnsent(err);
        if (err instanceof EtcdHostDownError || Date.now() + backoff >= deadline) {
          throw toStorageError(err, key, kind === 'write' && maybeApplied);
        }
        await sleep(backoff);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  }

  /**
   * Opens a raw Watch stream on some live host (see etcd-watch.ts). Throws EtcdHostDownError when
   * every member is marked down, 14 UNAVAILABLE when no session could be made.
   */
  openWatchStream(): { stream: WatchStream; host: WatchHost } {
    return this.kv.watch();
  }

  /** Tells the host breaker a stream on `host` failed at the connection level. */
  reportStreamFailure(host: WatchHost, err: Error): void {
    if (isConnectionFailure(err)) host.breaker.markFailed(err);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.kv.close();
  }

  ensureOpen(key: string): void {
    if (this.closed) throw new StorageError('Unavailable', key, 'storage is closed');
  }
}

/** The duplex Watch stream (etcd/watch-stream.ts). */
export type WatchStream = GrpcWatchStream;

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * EtcdClient: etcd's KV service (our own lean gRPC transport, etcd/kv.ts) and Watch streams (the
 * etcd3 npm client's connection pool) with the fault handling the storage needs.
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
import type { IOptions } from 'etcd3';
import { ConnectionPool, type Host } from 'etcd3/lib/connection-pool.js';
import { StorageError } from './interface.js';
import { EtcdHostDownError, isConnectionFailure, isTransient, isUnsent, toStorageError } from './etcd-codec.js';
import { HostBreaker, NEVER_ABORTED } from './etcd/breaker.js';
import { EtcdKV, type KVCallOptions } from './etcd/kv.js';
import type { ResponseHeader } from './etcd/proto.js';
import type { EtcdTLS } from './etcd/tls.js';

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

export class EtcdClient {
  /** Watch streams only (created on the first watch). */
  private watchPool: ConnectionPool | undefined;
  private readonly poolOptions: IOptions;
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
    this.poolOptions = {
      hosts,
      // grpc-js's createSsl(rootCerts, privateKey, certChain); no CA means the system's roots.
      ...(opts.tls && { credentials: { rootCertificate: opts.tls.ca as Buffer, privateKey: opts.tls.key, certChain: opts.tls.cert } }),
      faultHandling: {
        // Retries are ours (see call()); the pool only picks a host that is not marked down.
        global: passThrough as never,
        host: (host: string) => breakers.get(host) as never,
      },
      grpcOptions: {
        // Notice a silently dead connection (e.g. a partitioned member) on watch streams.
        'grpc.keepalive_time_ms': 10_000,
        'grpc.keepalive_timeout_ms': 5_000,
        // Large lists and watch batches: no client-side cap (kube's clientv3 uses MaxInt32 too).
        'grpc.max_receive_message_length': -1,
      },
    };
  }

  private get pool(): ConnectionPool {
    this.watchPool ??= new ConnectionPool(this.poolOptions);
    return this.watchPool;
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

  /** Opens a raw Watch stream on some live host (see etcd-watch.ts). */
  openWatchStream(): Promise<{ stream: WatchStream; host: Host }> {
    return this.pool.withConnection('Watch', ({ client, metadata, resource }) => {
      const stream = (client as unknown as { watch(m: unknown, o: object): WatchStream }).watch(metadata, {});
      return { stream, host: resource };
    });
  }

  /** Tells the host breaker a stream on `host` failed at the connection level. */
  reportStreamFailure(host: Host, err: Error): void {
    if (isConnectionFailure(err)) this.pool.markFailed(host, err);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.kv.close();
    this.watchPool?.close();
  }

  ensureOpen(key: string): void {
    if (this.closed) throw new StorageError('Unavailable', key, 'storage is closed');
  }
}

/** The duplex Watch stream as grpc-js hands it out (only what the watcher uses). */
export interface WatchStream {
  write(message: unknown): boolean;
  cancel(): void;
  on(event: 'data', fn: (res: unknown) => void): WatchStream;
  on(event: 'error', fn: (err: Error) => void): WatchStream;
  on(event: 'end', fn: () => void): WatchStream;
  removeAllListeners(): WatchStream;
}

/** The pool's global policy: no retries there (see call()). */
const passThrough = {
  execute<T>(fn: (context: { signal: AbortSignal }) => T | Promise<T>): Promise<T> {
    return Promise.resolve().then(() => fn(NEVER_ABORTED));
  },
};

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

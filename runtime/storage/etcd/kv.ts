/**
 * EtcdKV: etcd's KV service (Range, Txn, Compact) over our own gRPC channels (grpc.ts) and
 * protobuf codec (proto-encode.ts, proto-decode.ts), at a fraction of the CPU of grpc-js + protobufjs.
 *
 * Host choice, as etcd3's ConnectionPool does it: each call tries the hosts in a random order,
 * skipping those whose breaker is open; the first host admitted serves the call, and its failure
 * is the call's (retries are the caller's: etcd-client.ts). When every breaker is open the call
 * fails with EtcdHostDownError without sending anything.
 */
import type { HostBreaker } from './breaker.js';
import { GrpcChannel } from './grpc.js';
import { GrpcWatchStream } from './watch-stream.js';
import type { EtcdTLS } from './tls.js';
import { decodeCompactionResponse, decodeRangeResponse, decodeTxnResponse, type Decoder } from './proto-decode.js';
import { frameCompaction, frameRange, frameTxn } from './proto-encode.js';
import type { CompactionRequest, CompactionResponse, RangeRequest, RangeResponse, TxnRequest, TxnResponse } from './proto.js';

export interface KVCallOptions {
  /** Epoch milliseconds by which the call fails with DEADLINE_EXCEEDED. */
  deadline: number;
}

export interface KVHost {
  channel: GrpcChannel;
  /**
   * Watch streams get a session of their own, as they had with etcd3's pool: a connection
   * dropped for the unary calls (a missed deadline's probe) does not break every watch, and a
   * watch's traffic never waits in front of a txn's answer.
   */
  watchChannel: GrpcChannel;
  breaker: HostBreaker;
}

const RANGE = '/etcdserverpb.KV/Range';
const TXN = '/etcdserverpb.KV/Txn';
const COMPACT = '/etcdserverpb.KV/Compact';

export class EtcdKV {
  private readonly hosts: KVHost[];

  /**
   * One breaker per member, keyed by its `http(s)://host:port` (shared with watch streams);
   * `tls` is used for the https members.
   */
  constructor(breakers: Map<string, HostBreaker>, tls?: EtcdTLS) {
    this.hosts = [...breakers].map(([url, breaker]) => ({ channel: new GrpcChannel(url, tls), watchChannel: new GrpcChannel(url, tls), breaker }));
  }

  /** The TLS handshake failure of each member whose last connection attempt failed with one. */
  tlsErrors(): { url: string; error: Error }[] {
    return this.hosts.flatMap(({ channel }) => (channel.tlsError ? [{ url: channel.url, error: channel.tlsError }] : []));
  }

  range(req: RangeRequest, options: KVCallOptions): Promise<RangeResponse> {
    return this.unary(RANGE, frameRange(req), options, decodeRangeResponse);
  }

  txn(req: TxnRequest, options: KVCallOptions): Promise<TxnResponse> {
    return this.unary(TXN, frameTxn(req), options, decodeTxnResponse);
  }

  compact(req: CompactionRequest, options: KVCallOptions): Promise<CompactionResponse> {
    return this.unary(COMPACT, frameCompaction(req), options, decodeCompactionResponse);
  }

  /**
   * Opens a Watch stream on the first host, in a random order, whose breaker admits a call (a
   * stream does not count as a trial: its failures are reported with markFailed). Throws
   * EtcdHostDownError when every breaker is open.
   */
  watch(): { stream: GrpcWatchStream; host: KVHost } {
    const { host, trial } = this.pickHost();
    if (trial) host.breaker.release();
    return { stream: new GrpcWatchStream(host.watchChannel), host };
  }

  close(): void {
    for (const host of this.hosts) {
      host.channel.close();
      host.watchChannel.close();
    }
  }

  private async unary<T>(path: string, frame: Buffer, options: KVCallOptions, decode: Decoder<T>): Promise<T> {
    const { host, trial } = this.pickHost();
    try {
      const result = await host.channel.unary(path, frame, options.deadline, decode);
      host.breaker.settle(trial);
      return result;
    } catch (err) {
      host.breaker.settle(trial, err);
      throw err;
    }
  }

  /** The first host, in a random order, whose breaker admits a call. */
  private pickHost(): { host: KVHost; trial: boolean } {
    const hosts = this.hosts;
    const n = hosts.length;
    const first = n === 1 ? 0 : Math.floor(Math.random() * n);
    let lastError: unknown;
    for (let i = 0; i < n; i++) {
      const host = hosts[(first + i) % n];
      try {
        return { host, trial: host.breaker.admit() };
      } catch (err) {
        lastError = err;
      }
    }
    throw lastError;
  }
}

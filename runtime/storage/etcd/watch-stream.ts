/**
 * One etcd Watch stream (a bidirectional gRPC call) over a GrpcChannel's HTTP/2 session, in place
 * of grpc-js's: one `session.request` kept open, WatchRequest frames written on it, WatchResponse
 * frames read off it and decoded by hand (proto-watch.ts).
 *
 * What it emits, as grpc-js's duplex call did for etcd-watch.ts:
 * - 'data' with each WatchResponse, in order;
 * - 'error' once, with the typed etcd3 error (grpc.ts) of a status other than OK, of a broken
 *   connection or reset stream (14 UNAVAILABLE), or of a message that cannot be decoded
 *   (13 INTERNAL, the stream is cancelled);
 * - 'end' once when etcd ends the call with status OK.
 * Nothing is emitted after cancel().
 *
 * Liveness: grpc-js pinged a watch's connection every 10 s (keepalive_time) and dropped it when
 * the answer took over 5 s; the channel's keepAlive() does the same for the session while a stream
 * is open on it, so a silently dead member fails the stream and the watch reconnects. While open,
 * the stream keeps the process alive, as grpc-js's did.
 */
import { EventEmitter } from 'node:events';
import http2, { type ClientHttp2Stream } from 'node:http2';
import { callStatus, grpcError, MAX_RECEIVE_MESSAGE_BYTES, messageTooLarge, type GrpcChannel, type Session } from './grpc.js';
import { isTLSError } from './tls.js';
import { decodeWatchResponse, frameWatchCreate, type WatchCreateRequest, type WatchResponse } from './proto-watch.js';

const WATCH = '/etcdserverpb.Watch/Watch';
const INTERNAL = 13;
const EMPTY = Buffer.alloc(0);

export class GrpcWatchStream extends EventEmitter {
  private readonly session: Session;
  private readonly stream: ClientHttp2Stream;
  private readonly releaseKeepAlive: () => void;
  /** Bytes received and not yet consumed as whole messages. */
  private pending: Buffer = EMPTY;
  /** The pieces of a message whose prefix has come but not all of its bytes, and their size. */
  private waiting: Buffer[] = [];
  private waitingBytes = 0;
  /** The size of that message, prefix included. */
  private needed = 0;
  private status: { code: number; message: string } | undefined;
  private streamError: Error | undefined;
  private done = false;

  /** Opens the call on `channel`; throws 14 UNAVAILABLE when no session can be made. */
  constructor(private readonly channel: GrpcChannel) {
    super();
    ({ session: this.session, stream: this.stream } = channel.openStream(WATCH));
    const stream = this.stream;
    stream.on('response', (headers) => this.onHeaders(headers, true));
    stream.on('trailers', (trailers) => this.onHeaders(trailers, false));
    stream.on('data', (chunk: Buffer) => this.onData(chunk));
    stream.on('error', (err) => {
      this.streamError = err;
      if (isTLSError(err)) channel.tlsError = err;
    });
    stream.on('close', () => this.onClose());
    this.releaseKeepAlive = channel.keepAlive(this.session);
  }

  /** Sends a WatchRequest with this create_request. */
  write(request: { create_request: WatchCreateRequest }): boolean {
    if (this.done) return false;
    return this.stream.write(frameWatchCreate(request.create_request));
  }

  /** Cancels the call (RST_STREAM CANCEL, which cancels the watch in etcd); emits nothing more. */
  cancel(): void {
    if (this.done) return;
    this.finish();
    if (!this.stream.closed) this.stream.close(http2.constants.NGHTTP2_CANCEL);
  }

  /**
   * A status means etcd ended the call: our side is ended too, or node:http2 would keep the
   * half-closed stream (and never emit 'close') while the request body stays open.
   */
  private onHeaders(headers: http2.IncomingHttpHeaders, initial: boolean): void {
    const status = callStatus(headers, initial);
    if (!status) return;
    this.status = status;
    if (!this.stream.writableEnded) this.stream.end();
  }

  /**
   * Splits the received bytes into gRPC messages (5-byte prefix: flag, big-endian length). A
   * message arriving in many pieces is kept as its pieces and joined once, when whole (joining
   * at every piece copies a large message again and again); a length over the limit fails the
   * stream when its prefix is read.
   */
  private onData(chunk: Buffer): void {
    if (this.done) return;
    if (this.waiting.length > 0) {
      this.waiting.push(chunk);
      this.waitingBytes += chunk.length;
      if (this.waitingBytes < this.needed) return;
      chunk = Buffer.concat(this.waiting, this.waitingBytes);
      this.waiting = [];
      this.waitingBytes = 0;
      this.needed = 0;
    }
    let buf = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    let at = 0;
    while (buf.length - at >= 5) {
      const length = buf.readUInt32BE(at + 1);
      if (length > MAX_RECEIVE_MESSAGE_BYTES) {
        this.fail(messageTooLarge(length));
        return;
      }
      if (buf.length - at - 5 < length) {
        // The rest of this message is still to come: keep its pieces until it is whole.
        this.pending = EMPTY;
        this.waiting = [buf.subarray(at)];
        this.waitingBytes = buf.length - at;
        this.needed = 5 + length;
        return;
      }
      let res: WatchResponse;
      try {
        if (buf[at] !== 0) throw new Error('compressed messages are not supported');
        res = decodeWatchResponse(buf.subarray(at + 5, at + 5 + length));
      } catch (err) {
        this.fail(grpcError(INTERNAL, `Failed to parse server response: ${(err as Error).message}`));
        return;
      }
      at += 5 + length;
      this.emit('data', res);
      if (this.done) return;
    }
    if (at > 0) buf = buf.subarray(at);
    this.pending = buf;
  }

  private onClose(): void {
    if (this.done) return;
    const status = this.status;
    if (status?.code === 0) {
      this.finish();
      this.emit('end');
    } else if (status) {
      this.fail(grpcError(status.code, status.message));
    } else {
      this.fail(this.channel.brokenStreamError(this.session, this.stream, this.streamError));
    }
  }

  private fail(err: Error): void {
    this.finish();
    if (!this.stream.closed) this.stream.close(http2.constants.NGHTTP2_CANCEL);
    this.emit('error', err);
  }

  private finish(): void {
    this.done = true;
    this.pending = EMPTY;
    this.waiting = [];
    this.releaseKeepAlive();
  }
}

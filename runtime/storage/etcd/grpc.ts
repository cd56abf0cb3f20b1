/**
 * A minimal gRPC client channel over node:http2 for unary calls: one HTTP/2 session per endpoint,
 * one stream per call (HEADERS POST <path>, content-type application/grpc, te trailers; one DATA
 * frame holding the request; the response's DATA, then grpc-status / grpc-message in the trailers,
 * or in the headers of a trailers-only answer).
 *
 * Failures are the errors the etcd3 client raises for the same gRPC outcome (castGrpcError of a
 * grpc-js style "<code> <NAME>: <details>" error), so etcd-codec.ts classifies both alike:
 * - no session could be established: 14 UNAVAILABLE "No connection established…" (never sent);
 * - the server refused the stream (REFUSED_STREAM): 14 UNAVAILABLE "Stream refused by server"
 *   (never processed);
 * - the connection or stream broke after the request was sent: 14 UNAVAILABLE "Connection dropped"
 *   (it may have been applied);
 * - the deadline passed: 4 DEADLINE_EXCEEDED (the stream is cancelled).
 * The session is dropped on any connection-level failure and rebuilt by the next call.
 */
import http2, { type ClientHttp2Session, type ClientHttp2Stream, type IncomingHttpHeaders } from 'node:http2';
import { castGrpcError } from 'etcd3';
import type { Decoder } from './proto-decode.js';
import { checkServerIdentity } from '../../api/server-identity.js';
import { isTLSError, type EtcdTLS } from './tls.js';

const STATUS_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];
const UNAVAILABLE = 14;
const DEADLINE_EXCEEDED = 4;
const INTERNAL = 13;
const RESOURCE_EXHAUSTED = 8;

/**
 * The largest message received: clientv3's default MaxCallRecvMsgSize (math.MaxInt32), which
 * kube's etcd client keeps (a LIST without limit is one Range answer). A longer length prefix
 * fails the call at once with grpc-go's error, before its bytes are waited for or held.
 */
export const MAX_RECEIVE_MESSAGE_BYTES = 2 ** 31 - 1;

/** grpc-go's error for a message over the limit (rpc_util.go recvAndDecompress). */
export function messageTooLarge(length: number): Error {
  return grpcError(RESOURCE_EXHAUSTED, `grpc: received message larger than max (${length} vs. ${MAX_RECEIVE_MESSAGE_BYTES})`);
}

/**
 * The largest message sent: clientv3's default MaxCallSendMsgSize (2 MiB), which kube's etcd
 * client keeps. A larger request fails at once, unsent, with grpc-go's error (kube's
 * isTooLargeError knows it). Sent anyway, etcd's gRPC server (max-request-bytes + 512 KiB) would
 * refuse it in a way this client only saw at its deadline, as a maybe-applied 503.
 */
export const MAX_SEND_MESSAGE_BYTES = 2 * 1024 * 1024;

/** grpc-go's error for a request over the send limit (rpc_util.go prepareMsg / checkSendMsgSize). */
export function sendMessageTooLarge(length: number): Error {
  return grpcError(RESOURCE_EXHAUSTED, `grpc: trying to send message larger than max (${length} vs. ${MAX_SEND_MESSAGE_BYTES})`);
}

/** The typed etcd3 error for a gRPC status. */
export function grpcError(code: number, details: string): Error {
  const err = Object.assign(new Error(`${code} ${STATUS_NAMES[code] ?? 'UNKNOWN'}: ${details}`), { code, details });
  return castGrpcError(err);
}

/**
 * The request headers of a path, built once (http2 copies them per request). No grpc-timeout:
 * the client enforces its deadline and cancels the stream (RST_STREAM), which cancels the call
 * on the server too.
 */
const HEADERS = new Map<string, http2.OutgoingHttpHeaders>();
function requestHeaders(path: string): http2.OutgoingHttpHeaders {
  let headers = HEADERS.get(path);
  if (!headers) {
    headers = { ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers' };
    HEADERS.set(path, headers);
  }
  return headers;
}
const REQUEST_OPTIONS = { endStream: false };

/** An HTTP/2 session and whether it ever connected (a failure before that sent nothing). */
export interface Session {
  h2: ClientHttp2Session;
  connected: boolean;
  lastError?: Error;
  /** A liveness PING is in flight (see probe()). */
  probing?: boolean;
  /** Streams that asked for keepalive PINGs (see keepAlive()), and the timer sending them. */
  keepAliveUsers?: number;
  keepAliveTimer?: NodeJS.Timeout;
}

/** How long a session may take to answer a liveness PING (grpc keepalive_timeout's role). */
const PROBE_TIMEOUT_MS = 5000;
/**
 * How often a session with long-lived streams is probed (grpc keepalive_time's role). One timer
 * per session, whatever the number of streams: etcd answers PINGs more often than every 5 s
 * (its --grpc-keepalive-min-time) with GOAWAY too_many_pings.
 */
const KEEPALIVE_MS = 10_000;

export class GrpcChannel {
  private session: Session | undefined;
  private closed = false;
  /**
   * The last TLS failure of a session (a handshake refused either way; with TLS 1.3 a refused
   * client certificate arrives just after 'connect'); cleared by the next answered call.
   */
  tlsError: Error | undefined;
  private readonly connectOptions: http2.SecureClientSessionOptions;

  /** `url`: `http://host:port` or `https://host:port`; `tls` applies to https only. */
  constructor(
    readonly url: string,
    tls?: EtcdTLS,
  ) {
    this.connectOptions = { settings: { enablePush: false } };
    // A member's name is matched against its SANs only, as Go's (etcd's clientv3) TLS does.
    if (url.startsWith('https:')) this.connectOptions.checkServerIdentity = checkServerIdentity;
    if (url.startsWith('https:') && tls) Object.assign(this.connectOptions, { ca: tls.ca, cert: tls.cert, key: tls.key });
  }

  /**
   * Sends one request frame to `path` and decodes the single response message. Rejects with a
   * typed etcd3 error (see the file comment) by `deadline` (epoch ms) at the latest.
   */
  unary<T>(path: string, frame: Buffer, deadline: number, decode: Decoder<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // The frame is the message behind gRPC's 5-byte prefix.
      if (frame.length - 5 > MAX_SEND_MESSAGE_BYTES) {
        reject(sendMessageTooLarge(frame.length - 5));
        return;
      }
      const timeoutMs = Math.max(1, deadline - Date.now());
      let session: Session;
      let stream: ClientHttp2Stream;
      try {
        ({ session, stream } = this.openStream(path));
      } catch (err) {
        reject(err as Error);
        return;
      }
      const call = new UnaryCall(this, session, stream, decode, resolve, reject);
      call.timer = setTimeout(() => call.timeout(), timeoutMs);
      stream.end(frame);
    });
  }

  /**
   * Opens a stream to `path` on the current session (made if need be): the request headers are
   * sent, the body is the caller's to write. Throws 14 UNAVAILABLE when no session can be made.
   */
  openStream(path: string): { session: Session; stream: ClientHttp2Stream } {
    try {
      const session = this.getSession();
      return { session, stream: session.h2.request(requestHeaders(path), REQUEST_OPTIONS) };
    } catch (err) {
      this.dropSession(this.session);
      throw grpcError(UNAVAILABLE, `No connection established: ${(err as Error).message}`);
    }
  }

  /**
   * The error of a stream on `session` that closed without a gRPC status (the connection broke or
   * the stream was reset); drops the session. A refused stream (RST_STREAM REFUSED_STREAM, e.g.
   * past a GOAWAY) was never processed.
   */
  brokenStreamError(session: Session, stream: ClientHttp2Stream, streamError: Error | undefined): Error {
    const cause = streamError ?? session.lastError;
    this.dropSession(session);
    const details = !session.connected
      ? `No connection established. Last error: ${cause?.message ?? 'connection closed'}`
      : stream.rstCode === http2.constants.NGHTTP2_REFUSED_STREAM
        ? 'Stream refused by server'
        : `Connection dropped${cause ? `: ${cause.message}` : ''}`;
    return grpcError(UNAVAILABLE, details);
  }

  close(): void {
    this.closed = true;
    const session = this.session;
    this.session = undefined;
    session?.h2.destroy();
  }

  /**
   * Probes `session` every KEEPALIVE_MS until the returned release has been called once per
   * keepAlive() (or the session is dropped), so a silently dead connection fails its streams.
   * The timer keeps the process alive, as a stream in flight does in grpc-js.
   */
  keepAlive(session: Session): () => void {
    session.keepAliveUsers = (session.keepAliveUsers ?? 0) + 1;
    session.keepAliveTimer ??= setInterval(() => this.probe(session), KEEPALIVE_MS);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--session.keepAliveUsers! === 0) stopKeepAlive(session);
    };
  }

  /** Forgets `session` (if it is the current one) and closes it; the next call connects anew. */
  dropSession(session: Session | undefined): void {
    if (!session) return;
    stopKeepAlive(session);
    if (this.session === session) this.session = undefined;
    if (!session.h2.destroyed) session.h2.destroy();
  }

  /**
   * Called when a call on `session` missed its deadline: a session still connecting, or one that
   * does not answer a PING in time, is dropped, so a silently dead connection (a partitioned or
   * vanished member) is replaced on the next call instead of failing every call by its deadline.
   */
  probe(session: Session): void {
    if (session.probing || session.h2.destroyed) return;
    if (!session.connected) {
      this.dropSession(session);
      return;
    }
    session.probing = true;
    const timer = setTimeout(() => this.dropSession(session), PROBE_TIMEOUT_MS);
    timer.unref();
    const done = (err: Error | null) => {
      clearTimeout(timer);
      session.probing = false;
      if (err) this.dropSession(session);
    };
    try {
      if (!session.h2.ping(done)) done(new Error('ping not sent'));
    } catch (err) {
      done(err as Error);
    }
  }

  private getSession(): Session {
    if (this.closed) throw new Error('channel closed');
    const current = this.session;
    if (current && !current.h2.closed && !current.h2.destroyed) return current;
    const h2 = http2.connect(this.url, this.connectOptions);
    const session: Session = { h2, connected: false };
    h2.once('connect', () => {
      session.connected = true;
    });
    h2.on('error', (err) => {
      session.lastError = err;
      if (isTLSError(err)) this.tlsError = err;
      this.dropSession(session);
    });
    h2.once('goaway', () => {
      // No new streams on it; streams in flight finish or fail on their own.
      if (this.session === session) this.session = undefined;
    });
    h2.once('close', () => {
      if (this.session === session) this.session = undefined;
    });
    // Idle sessions do not keep the process alive; a call in flight does (its deadline timer).
    h2.unref();
    this.session = session;
    return session;
  }
}

function stopKeepAlive(session: Session): void {
  clearInterval(session.keepAliveTimer);
  session.keepAliveTimer = undefined;
}

/** One call's state; settled once, when the stream closes or the deadline passes. */
class UnaryCall<T> {
  timer: NodeJS.Timeout | undefined;
  private chunks: Buffer[] = [];
  private received = 0;
  /** The answer's size, prefix included, once its prefix has come. */
  private expected: number | undefined;
  private status: number | undefined;
  private message = '';
  private streamError: Error | undefined;
  private done = false;

  constructor(
    private readonly channel: GrpcChannel,
    private readonly session: Session,
    private readonly stream: ClientHttp2Stream,
    private readonly decode: Decoder<T>,
    private readonly resolve: (value: T) => void,
    private readonly reject: (err: Error) => void,
  ) {
    stream.on('response', (headers) => this.onHeaders(headers, true));
    stream.on('trailers', (trailers) => this.onHeaders(trailers, false));
    stream.on('data', (chunk: Buffer) => this.onData(chunk));
    stream.on('error', (err) => {
      this.streamError = err;
      if (isTLSError(err)) channel.tlsError = err;
    });
    stream.on('close', () => this.onClose());
  }

  private onHeaders(headers: IncomingHttpHeaders, initial: boolean): void {
    const status = callStatus(headers, initial);
    if (status) ({ code: this.status, message: this.message } = status);
  }

  /**
   * Keeps the answer's bytes. A length prefix over the limit fails the call as soon as it is read,
   * and bytes past the one message as soon as they come (grpc-go's cardinality error): either way
   * nothing more is held, however long a broken or hostile member goes on sending.
   */
  private onData(chunk: Buffer): void {
    if (this.done) return;
    this.chunks.push(chunk);
    this.received += chunk.length;
    if (this.received < 5) return;
    if (this.expected === undefined) {
      const head = this.chunks.length === 1 ? chunk : Buffer.concat(this.chunks);
      const length = head.readUInt32BE(1);
      if (length > MAX_RECEIVE_MESSAGE_BYTES) return this.abandon(messageTooLarge(length));
      this.expected = 5 + length;
    }
    if (this.received > this.expected) {
      this.abandon(grpcError(INTERNAL, 'cardinality violation: expected <EOF> for non server-streaming RPCs, but received another message'));
    }
  }

  private abandon(err: Error): void {
    this.settle(err);
    this.stream.close(http2.constants.NGHTTP2_CANCEL);
  }

  timeout(): void {
    if (this.done) return;
    this.settle(grpcError(DEADLINE_EXCEEDED, 'Deadline exceeded'));
    this.stream.close(http2.constants.NGHTTP2_CANCEL);
    this.channel.probe(this.session);
  }

  private onClose(): void {
    if (this.done) return;
    if (this.status === 0) {
      let result: T;
      try {
        result = this.decode(this.responseMessage());
      } catch (err) {
        this.settle(grpcError(INTERNAL, `Failed to parse server response: ${(err as Error).message}`));
        return;
      }
      this.settle(undefined, result);
    } else if (this.status !== undefined) {
      this.settle(grpcError(this.status, this.message));
    } else {
      this.settle(this.channel.brokenStreamError(this.session, this.stream, this.streamError));
    }
  }

  /** The single message of the response, without its 5-byte prefix. */
  private responseMessage(): Buffer {
    const data = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    if (data.length < 5) throw new Error('no response message');
    if (data[0] !== 0) throw new Error('compressed response messages are not supported');
    const length = data.readUInt32BE(1);
    if (data.length < 5 + length) throw new Error('truncated response message');
    return data.subarray(5, 5 + length);
  }

  private settle(err: Error | undefined, value?: T): void {
    this.done = true;
    this.chunks = [];
    if (this.timer) clearTimeout(this.timer);
    if (err) this.reject(err);
    else {
      this.channel.tlsError = undefined;
      this.resolve(value as T);
    }
  }
}

/**
 * The gRPC status a response's headers or trailers carry (grpc-status, grpc-message), or for
 * initial headers without one, UNAVAILABLE for an HTTP status other than 200; else undefined.
 */
export function callStatus(headers: IncomingHttpHeaders, initial: boolean): { code: number; message: string } | undefined {
  const status = headers['grpc-status'];
  if (status !== undefined) {
    const message = headers['grpc-message'];
    return { code: Number(status), message: typeof message === 'string' ? decodeGrpcMessage(message) : '' };
  }
  if (initial && headers[':status'] !== undefined && Number(headers[':status']) !== 200) {
    return { code: UNAVAILABLE, message: `Received HTTP status code ${headers[':status']}` };
  }
  return undefined;
}

/** grpc-message is percent-encoded (gRPC over HTTP/2 spec). */
function decodeGrpcMessage(message: string): string {
  if (!message.includes('%')) return message;
  try {
    return decodeURIComponent(message);
  } catch {
    return message;
  }
}

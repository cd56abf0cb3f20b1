/**
 * The HTTP(S) server: node:http (fastify owns only listening and closing) hands every request to
 * the filter chain as soon as its headers are in; a body is read later, by the chain's innermost
 * filter, once the request is authenticated and authorized (body.ts). Serves HTTPS (asking for,
 * but not requiring, a client certificate, which the x509 authenticator then judges) with kube's
 * TLS 1.2 cipher suites, or, in insecure dev mode, plain HTTP. Watch streams are written chunk by
 * chunk; drain() ends them and waits for every response in progress.
 *
 * The edges, each answered with a Status: headers must arrive within the read-header timeout
 * (kube's ReadHeaderTimeout, 32 s) and be at most 16 KiB (431), every one kept; a whole request within the
 * request timeout plus that (408); CONNECT is 405; a connection whose body was left unread is
 * answered, then closed (linger.ts).
 */
import { once } from 'node:events';
import { createServer as createHTTPServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHTTPSServer } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import Fastify, { type FastifyInstance } from 'fastify';
import { statusError } from '../api/status.js';
import { AbortHandlerError, type APIResponse, type ObjectResponse, type StreamResponse } from '../endpoints/handler.js';
import { isPooledBuffer, releaseBuffer } from '../endpoints/encoding.js';
import { errorResponse } from '../endpoints/responsewriters.js';
import { BodyMemoryBudget } from './body.js';
import type { RequestServer } from './filters/chain.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from './filters/timeout.js';
import type { ChainResult } from './filters/types.js';
import { LazyAbort } from './filters/context.js';
import { clientErrorHandler, connectHandler } from './http-edges.js';
import { HTTPRequest } from './http-request.js';
import { lingerOnClose } from './linger.js';

export { MAX_REQUEST_BODY_BYTES } from './body.js';

/** kube's ReadHeaderTimeout (k8s.io/apiserver secure_serving.go): 32 s. */
export const DEFAULT_READ_HEADER_TIMEOUT_MS = 32_000;

/**
 * kube's default TLS 1.2 suites (Go's crypto/tls secure list: ECDHE with AES-GCM or
 * ChaCha20-Poly1305; no CBC, SHA-1, CCM, ARIA nor static RSA), in OpenSSL's names, and the
 * TLS 1.3 suites (all AEAD).
 */
export const TLS_CIPHER_SUITES = [
  'TLS_AES_128_GCM_SHA256',
  'TLS_AES_256_GCM_SHA384',
  'TLS_CHACHA20_POLY1305_SHA256',
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
].join(':');

export interface ServingTLS {
  /** PEM serving certificate (chain) and key. */
  cert: string;
  key: string;
  /** PEM bundle client certificates are verified against. */
  clientCA: string;
}

export interface HTTPServerOptions {
  tls?: ServingTLS;
  /** Headers must be complete this long after a request starts (default 32 s; 0 means the default). */
  readHeaderTimeoutMs?: number;
  /** The chain's --request-timeout (default 60 s): a whole request must arrive within it plus the read-header timeout. */
  requestTimeoutMs?: number;
  /** Memory all request bodies being read or held may take at once (default 64 MiB); 0: no limit. */
  maxRequestBodyMemoryBytes?: number;
}


/**
 * A response at most this large still in the socket's buffer counts as written: waiting for its
 * flush would cost every small GET a 'close' listener, and what it holds is bounded by the
 * connection count. Anything larger is counted until it is flushed.
 */
const SMALL_RESPONSE_BYTES = 64 * 1024;

/**
 * The header lines of an object response as one flat [name, value, …] list for writeHead, in the
 * order the equivalent setHeader calls give them (the response's headers, Content-Type,
 * Content-Length). Undefined when setHeader would merge two of them (names equal but for case):
 * the caller then sets them one by one.
 */
function headerList(response: ObjectResponse, contentLength: number): Array<string | number | readonly string[]> | undefined {
  const list: Array<string | number | readonly string[]> = [];
  const { headers, contentType } = response;
  for (const name in headers) {
    const lower = name.toLowerCase();
    if (lower === 'content-length' || (contentType && lower === 'content-type')) return undefined;
    for (let i = 0; i < list.length; i += 2) if ((list[i] as string).toLowerCase() === lower) return undefined;
    list.push(name, headers[name]!);
  }
  if (contentType) list.push('Content-Type', contentType);
  list.push('Content-Length', contentLength);
  return list;
}

/**
 * Writes an object response on node's response directly (the path GET and HEAD take): one
 * writeHead with every header, then end(body), as a bare node:http server does.
 */
function writeObject(res: ServerResponse, response: ObjectResponse): void {
  const body = response.body ?? Buffer.from(response.payload, 'utf8');
  const list = headerList(response, body.length);
  if (list) {
    res.writeHead(response.code, list as string[]);
  } else {
    for (const name in response.headers) res.setHeader(name, response.headers[name]!);
    if (response.contentType) res.setHeader('Content-Type', response.contentType);
    res.setHeader('Content-Length', body.length);
    res.writeHead(response.code);
  }
  // Once written, a body assembled in a pooled buffer (a list from the watch cache) is reused.
  const written = isPooledBuffer(body) ? () => releaseBuffer(body) : undefined;
  if (body.length > LARGE_BODY_BYTES && res.socket) writeInSlices(res, body, 0, written);
  else res.end(body, written);
}

/** Bodies larger than this are handed to the socket a slice at a time (see writeInSlices). */
const LARGE_BODY_BYTES = 1024 * 1024;
const BODY_SLICE_BYTES = 256 * 1024;

/**
 * Writes a large body slice by slice, each after the socket took the previous one: over TLS a
 * body written at once is encrypted at once, so every large response in flight would hold a
 * second, encrypted copy of itself, and the event loop would stall while it is made.
 */
function writeInSlices(res: ServerResponse, body: Buffer, from: number, written: (() => void) | undefined): void {
  let at = from;
  while (at + BODY_SLICE_BYTES < body.length) {
    const more = res.write(body.subarray(at, at + BODY_SLICE_BYTES));
    at += BODY_SLICE_BYTES;
    if (!more) {
      res.once('drain', () => writeInSlices(res, body, at, written));
      return;
    }
  }
  res.end(body.subarray(at), written);
}

/**
 * Writes a pass-through stream on an upgrade request's socket: status line and headers with
 * `Connection: close`, the chunks with backpressure, then the socket ended; cut (destroyed) when
 * the chunks fail or `signal` aborts (client gone, deadline).
 */
async function writeOnSocket(socket: Duplex, response: StreamResponse, signal: AbortSignal): Promise<void> {
  const lines = [`HTTP/1.1 ${response.code} ${STATUS_CODES[response.code] ?? ''}`, `Content-Type: ${response.contentType}`, 'Connection: close'];
  for (const [name, value] of Object.entries(response.headers)) for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${v}`);
  const stop = () => response.close();
  signal.addEventListener('abort', stop, { once: true });
  let failed = false;
  try {
    if (!socket.writable || signal.aborted) throw new Error('the client is gone');
    socket.write(Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'));
    for await (const chunk of response.chunks) {
      if (signal.aborted || !socket.writable) throw new Error('the client is gone');
      if (!socket.write(chunk)) await once(socket, 'drain', { signal });
    }
  } catch {
    failed = true;
  } finally {
    signal.removeEventListener('abort', stop);
    response.close();
    if (failed) socket.destroy();
    else socket.end();
  }
}

/**
 * The bytes of a stream chunk. A watch fan-out writes the same event line (one string, see
 * endpoints/watch.ts) to every watcher's stream: it is encoded once, not once per stream.
 */
const RECENT_CHUNKS = 8;
const recentChunks: Array<{ text: string; bytes: Buffer } | undefined> = new Array(RECENT_CHUNKS);
let nextChunk = 0;

function chunkBytes(chunk: string | Buffer): string | Buffer {
  if (typeof chunk !== 'string' || chunk.length < 256) return chunk;
  for (const recent of recentChunks) if (recent !== undefined && recent.text === chunk) return recent.bytes;
  const bytes = Buffer.from(chunk, 'utf8');
  recentChunks[nextChunk] = { text: chunk, bytes };
  nextChunk = (nextChunk + 1) % RECENT_CHUNKS;
  return bytes;
}

/** fastify's defaults for the server it would have made itself. */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/** How often node:http checks the header and request deadlines of open connections. */
const CONNECTIONS_CHECKING_INTERVAL_MS = 1_000;

/** fastify's schema compilers, never called: kgen declares no routes in fastify. */
function noSchemaCompiler(): never {
  throw new Error('kgen routes declare no schemas');
}

export class HTTPServer {
  readonly app: FastifyInstance;
  private readonly streams = new Set<StreamResponse>();
  /** Set by drain(): a stream that starts from now on (a watch still in the chain) ends at once. */
  private draining = false;
  /** Responses being produced or written; drain() waits for them. */
  private active = 0;
  private idle: (() => void)[] = [];
  /** The memory request bodies take at once. */
  readonly bodies: BodyMemoryBudget;
  private readonly firstRequestTimeout: number;

  constructor(
    private readonly serveRequest: RequestServer,
    tlsOrOptions?: ServingTLS | HTTPServerOptions,
  ) {
    const options: HTTPServerOptions = tlsOrOptions && 'cert' in tlsOrOptions ? { tls: tlsOrOptions } : (tlsOrOptions ?? {});
    const tls = options.tls;
    this.bodies = new BodyMemoryBudget(options.maxRequestBodyMemoryBytes);
    // Headers always have a deadline: 0 (or less) means the default, never none.
    const headersTimeout = options.readHeaderTimeoutMs && options.readHeaderTimeoutMs > 0 ? options.readHeaderTimeoutMs : DEFAULT_READ_HEADER_TIMEOUT_MS;
    // The whole request (headers and body) must be in by then; the timeout filter answers a slow
    // body with 504 at the request timeout, this is node's backstop (also with --request-timeout 0).
    const requestTimeout = (options.requestTimeoutMs || DEFAULT_REQUEST_TIMEOUT_MS) + headersTimeout;
    const timeouts = { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.min(CONNECTIONS_CHECKING_INTERVAL_MS, headersTimeout) };
    // node's header deadline starts with a request's first byte: a connection that sends nothing
    // (or completes no TLS handshake) would stay open. As Go's ReadHeaderTimeout, a deadline runs
    // from the connection's start: an idle timeout a checking interval longer than node's (so a
    // request that started gets node's 408 first); the connection is closed without an answer,
    // as Go does. serveRaw lifts it at the first request.
    this.firstRequestTimeout = headersTimeout + timeouts.connectionsCheckingInterval;
    const firstRequestDeadline = (socket: Socket) => socket.setTimeout(this.firstRequestTimeout);
    const serverFactory = () => {
      const listener = (req: IncomingMessage, res: ServerResponse) => this.serveRaw(req, res);
      const server = tls
        ? createHTTPSServer(
            {
              cert: tls.cert,
              key: tls.key,
              ca: tls.clientCA,
              requestCert: true,
              rejectUnauthorized: false,
              minVersion: 'TLSv1.2',
              ciphers: TLS_CIPHER_SUITES,
              handshakeTimeout: headersTimeout,
              ...timeouts,
            },
            listener,
          )
        : createHTTPServer(timeouts, listener);
      server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
      // node keeps a request's first 2,000 headers and drops the rest silently; Go keeps every
      // header within MaxHeaderBytes. A dropped Impersonate-User, Authorization or X-Remote-*
      // that a proxy appended after its client's headers changes who the request is. No count
      // limit: the 16 KiB header limit (431) bounds them all.
      server.maxHeadersCount = 0;
      server.on(tls ? 'secureConnection' : 'connection', firstRequestDeadline);
      // As Go's TLS server, no renegotiation (TLS 1.2): a connection's client certificate, read and
      // verified once (http-request.ts, authentication/certificates.ts), cannot change under it,
      // and a client cannot make the server redo handshakes on one connection.
      if (tls) server.on('secureConnection', (socket: TLSSocket) => socket.disableRenegotiation());
      // Without a listener node answers `Expect: 100-continue` itself, inviting the body before
      // the request is authenticated; here the continue is sent when the body is read.
      server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => this.serveRaw(req, res, true));
      server.on('connect', connectHandler);
      // WebSocket upgrades (CONNECT subresources) go through the same chain (serveUpgrade).
      server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.serveUpgrade(req, socket, head));
      return server;
    };
    // The server's type parameter does not matter here; requests and replies are node:http's.
    this.app = Fastify({
      serverFactory: serverFactory as never,
      logger: false,
      forceCloseConnections: true,
      // Shutdown drains through the wait group, which answers requests arriving meanwhile with a Status.
      return503OnClosing: false,
      // No route has a schema: skip loading ajv and fast-json-stringify (~40 ms of start-up).
      schemaController: { compilersFactory: { buildValidator: noSchemaCompiler, buildSerializer: noSchemaCompiler } },
      clientErrorHandler,
    }) as unknown as FastifyInstance;
    this.app.addHook('onClose', async () => {
      for (const stream of this.streams) stream.close();
    });
  }

  /** Stops accepting connections and closes idle keep-alive ones; requests in progress go on. */
  stopListening(): void {
    const server = this.app.server;
    if (server.listening) server.close();
    server.closeIdleConnections?.();
  }

  /**
   * Ends every watch stream cleanly and waits until no response is in progress, or until
   * `deadline` (a Date.now() value): then, as kube-apiserver's ShutdownTimeout does, what is left
   * is cut off (its connections closed), so a response no one reads cannot hold the shutdown.
   */
  async drain(deadline = Infinity): Promise<void> {
    this.draining = true;
    for (const stream of this.streams) stream.close();
    if (this.active === 0) return;
    const idle = new Promise<void>((resolve) => this.idle.push(resolve));
    if (deadline === Infinity) return idle;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), Math.max(0, deadline - Date.now()))));
    const result = await Promise.race([idle, late]);
    clearTimeout(timer);
    if (result === 'late') this.app.server.closeAllConnections?.();
  }

  /** Ends an active response's count when its connection side closes, aborting `abort` first. */
  private untilClosed(res: ServerResponse, request: HTTPRequest, abort: LazyAbort): void {
    res.on('close', () => {
      abort.abort();
      this.finished(request);
    });
  }

  private finished(request: HTTPRequest): void {
    request.finish();
    this.active--;
    if (this.active === 0 && this.idle.length > 0) for (const resolve of this.idle.splice(0)) resolve();
  }

  /**
   * A request, straight from node:http once its headers are in; answered at once when the chain
   * answers synchronously. Such an answer is complete when end() returns having handed all but a
   * small response to the socket and no one took the request's signal: it is no longer counted
   * (nor watched for 'close') from then on. Anything else stays active until its connection side
   * closes.
   */
  private serveRaw(req: IncomingMessage, res: ServerResponse, expectsContinue = false): void {
    // The connection's first request lifts its first-request deadline (node's own deadlines
    // take over: the request's, then keep-alive's).
    if (req.socket.timeout === this.firstRequestTimeout) req.socket.setTimeout(0);
    const abort = new LazyAbort();
    const request = new HTTPRequest(req, abort, this.bodies, expectsContinue ? res : undefined);
    this.active++;
    let result: ChainResult;
    try {
      result = this.serveRequest(request);
    } catch (err) {
      result = errorResponse(err);
    }
    if (result instanceof Promise) {
      this.untilClosed(res, request, abort);
      result.then(
        (response) => this.respond(res, response, request, abort),
        (err: unknown) => this.respond(res, errorResponse(err), request, abort),
      );
      return;
    }
    this.respond(res, result, request, abort);
    if (result.kind === 'object' && res.writableEnded && res.writableLength <= SMALL_RESPONSE_BYTES && !abort.signalMade) this.finished(request);
    else this.untilClosed(res, request, abort);
  }

  /**
   * An HTTP upgrade request (WebSocket): served through the chain like any other; a handler that
   * accepts it answers 101 with a stream that ends when the socket closes (the socket is the
   * handler's then), any other answer is written on the socket and the connection closed. An
   * upgrade carries no body to read.
   */
  private serveUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const abort = new LazyAbort();
    const request = new HTTPRequest(req, abort, this.bodies);
    request.upgrade = { request: req, socket, head };
    this.active++;
    socket.once('close', () => {
      abort.abort();
      this.finished(request);
    });
    socket.on('error', () => socket.destroy());
    Promise.resolve()
      .then(() => this.serveRequest(request))
      .catch((err: unknown) => errorResponse(err))
      .then(async (response) => {
        if (response.kind === 'stream' && response.code === 101) {
          this.streams.add(response);
          if (this.draining) socket.destroy();
          try {
            for await (const _ of response.chunks) {
              // A session's stream carries no chunks; it ends when the socket closes.
            }
          } finally {
            this.streams.delete(response);
            response.close();
          }
          return;
        }
        if (response.kind === 'stream' && response.passThrough) {
          // A proxied answer to an upgrade (the Upgrade header is not forwarded, so the backend
          // answered it as a plain request): copied onto the socket as it comes, then closed.
          await writeOnSocket(socket, response, request.signal);
          return;
        }
        if (response.kind === 'stream') response.close();
        const object = response.kind === 'object' ? response : errorResponse(statusError('BadRequest', 'this resource does not accept an upgrade'));
        const body = object.body ?? Buffer.from(object.payload, 'utf8');
        const lines = [`HTTP/1.1 ${object.code} ${STATUS_CODES[object.code] ?? ''}`, `Content-Type: ${object.contentType}`, `Content-Length: ${body.length}`, 'Connection: close'];
        for (const [name, value] of Object.entries(object.headers)) for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${v}`);
        if (socket.writable) socket.end(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]));
        else socket.destroy();
      });
  }

  private respond(res: ServerResponse, response: APIResponse, request: HTTPRequest, abort: LazyAbort): void {
    if (res.headersSent || res.destroyed) {
      // The client is gone (or a deadline answered first): a stream has no one to write to.
      if (response.kind === 'stream') response.close();
      return;
    }
    if (request.bodyLeftUnread) {
      // The rest of the body is still coming: answer, then close (see linger.ts).
      res.shouldKeepAlive = false;
      lingerOnClose(res.socket);
    }
    if (response.kind === 'object') writeObject(res, response);
    // A pass-through answer is under the request's deadline (the timeout filter's child of abort).
    else void this.stream(res, response, response.passThrough ? request.signal : abort.signal);
  }
  /** Writes a stream response chunk by chunk; each write is flushed to the socket as it happens. */
  private async stream(raw: ServerResponse, response: StreamResponse, signal: AbortSignal): Promise<void> {
    const passThrough = response.passThrough === true;
    // drain() ends long-running streams; a pass-through answer is waited for like an object one.
    if (!passThrough) this.streams.add(response);
    signal.addEventListener('abort', () => response.close(), { once: true });
    // A watch that was still in the chain when drain() ended the others (it reached the server
    // before the listener closed) ends the same way, or drain() would wait for it for ever.
    if (this.draining && !passThrough) response.close();
    let failed = false;
    let cut = passThrough;
    try {
      raw.writeHead(
        response.code,
        passThrough
          ? { ...response.headers, 'Content-Type': response.contentType }
          : {
              ...response.headers,
              'Content-Type': response.contentType,
              'Cache-Control': 'no-cache, private',
              'Transfer-Encoding': 'chunked',
            },
      );
      raw.flushHeaders();
      for await (const chunk of response.chunks) {
        if (signal.aborted) break;
        // Backpressure: a client that does not read stops this loop, so its watcher's bounded
        // buffer fills and the watch cache closes it, instead of the socket buffer growing.
        if (!raw.write(chunkBytes(chunk))) await once(raw, 'drain', { signal });
      }
      failed = signal.aborted;
    } catch (err) {
      // The client went away or the stream failed mid-way; there is no way to report it now.
      failed = true;
      if (err instanceof AbortHandlerError) cut = true;
    } finally {
      this.streams.delete(response);
      response.close();
      if (failed && cut) raw.destroy();
      else if (!raw.writableEnded) raw.end();
    }
  }
}

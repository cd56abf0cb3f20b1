/**
 * The fastify adapter: one catch-all route and a raw-body content-type parser feed the handler
 * chain; fastify's own errors (body too large, malformed requests) and 404s are converted to
 * metav1.Status. Serves HTTPS (asking for, but not requiring, a client certificate, which the
 * x509 authenticator then judges) or, in insecure dev mode, plain HTTP. Watch streams are
 * written chunk by chunk; drain() ends them and waits for every response in progress.
 */
import { once } from 'node:events';
import { createServer as createHTTPServer, STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHTTPSServer } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { newStatus, statusError, StatusError } from '../api/status.js';
import type { ClientCertificate } from '../authentication/x509.js';
import type { APIResponse, ObjectResponse, StreamResponse, UpgradeRequest } from '../endpoints/handler.js';
import { exceedsNestingDepth, nestingDepthError } from '../endpoints/nesting.js';
import { PROTOBUF_CONTENT_TYPE } from '../endpoints/protobuf.js';
import { isPooledBuffer, releaseBuffer } from '../endpoints/encoding.js';
import { errorResponse } from '../endpoints/responsewriters.js';
import type { RequestServer } from './filters/chain.js';
import type { ChainResult } from './filters/types.js';
import { LazyAbort, type LazySignalRequest } from './filters/context.js';
import type { IncomingAPIRequest } from './handler.js';

/** kube-apiserver's default --max-request-bytes for JSON/YAML bodies: 3 MiB. */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export interface ServingTLS {
  /** PEM serving certificate (chain) and key. */
  cert: string;
  key: string;
  /** PEM bundle client certificates are verified against. */
  clientCA: string;
}

function sendObject(reply: FastifyReply, response: ObjectResponse): FastifyReply {
  reply.code(response.code);
  for (const [name, value] of Object.entries(response.headers)) reply.header(name, value);
  if (response.contentType) reply.header('Content-Type', response.contentType);
  // A Buffer keeps fastify from rewriting the Content-Type (it appends a charset to strings).
  return reply.send(response.body ?? Buffer.from(response.payload, 'utf8'));
}

/** Converts an error fastify raised before our handler ran into a Status (never a 5xx for bad input). */
function frameworkError(err: { statusCode?: number; code?: string; message: string }): ObjectResponse {
  if (err instanceof StatusError) return errorResponse(err);
  const code = err.statusCode ?? 500;
  if (code === 413) return errorResponse(statusError('RequestEntityTooLarge', `Request entity too large: limit is ${MAX_REQUEST_BODY_BYTES}`));
  if (code === 415) return errorResponse(statusError('UnsupportedMediaType', err.message));
  if (code >= 400 && code < 500) return errorResponse(statusError('BadRequest', err.message));
  return errorResponse(err instanceof Error ? err : new Error(err.message));
}

/**
 * Requests Node's HTTP parser refuses before fastify sees them (malformed request lines, unknown
 * methods, headers over 16 KiB): answered with a Status and `Connection: close`, since the
 * connection cannot be reused after a parse error.
 */
function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const code = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const message = code === 431 ? 'request header fields too large' : code === 408 ? 'request timeout' : 'malformed HTTP request';
  const body = JSON.stringify(newStatus('BadRequest', message, undefined, code));
  if (socket.writable) {
    socket.end(`HTTP/1.1 ${code} ${STATUS_CODES[code]}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  } else {
    socket.destroy();
  }
}

function isProtobuf(contentType: string | undefined): boolean {
  return (contentType ?? '').trim().toLowerCase().startsWith(PROTOBUF_CONTENT_TYPE);
}

function list(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The client certificate of a TLS connection, read once per connection. */
const peerCertificates = new WeakMap<object, ClientCertificate | null>();

function clientCertificateOf(socket: TLSSocket): ClientCertificate | undefined {
  if (!socket.encrypted) return undefined;
  const known = peerCertificates.get(socket);
  if (known !== undefined) return known ?? undefined;
  const peer = socket.getPeerCertificate();
  let cert: ClientCertificate | null = null;
  if (peer && Object.keys(peer).length > 0) {
    const subject = (peer.subject ?? {}) as unknown as Record<string, string | string[] | undefined>;
    const authorizationError = socket.authorizationError as unknown;
    cert = {
      verified: socket.authorized,
      commonName: list(subject.CN)[0] ?? '',
      organizations: list(subject.O),
      extKeyUsage: peer.ext_key_usage,
      raw: peer.raw,
    };
    if (authorizationError) cert.verifyError = String(authorizationError instanceof Error ? authorizationError.message : authorizationError);
  }
  peerCertificates.set(socket, cert);
  return cert ?? undefined;
}

/**
 * One request as the filter chain sees it. What few requests need is made on first use: the
 * abort signal (see LazyAbort) and Node's per-line header table.
 */
class HTTPRequest implements IncomingAPIRequest, LazySignalRequest {
  readonly method: string;
  url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body?: Buffer;
  readonly clientCertificate?: ClientCertificate;
  readonly remoteAddress?: string;
  upgrade?: UpgradeRequest;
  private distinct?: Record<string, string[]>;

  constructor(
    private readonly raw: IncomingMessage,
    body: unknown,
    public lazyAbort: LazyAbort,
  ) {
    const socket = raw.socket as TLSSocket;
    this.method = raw.method ?? 'GET';
    this.url = raw.url ?? '/';
    this.headers = raw.headers;
    this.body = Buffer.isBuffer(body) ? body : undefined;
    this.clientCertificate = clientCertificateOf(socket);
    this.remoteAddress = socket.remoteAddress;
  }

  get signal(): AbortSignal {
    return this.lazyAbort.signal;
  }

  get headersDistinct(): Record<string, string[]> {
    return (this.distinct ??= this.raw.headersDistinct as Record<string, string[]>);
  }
}

/** Whether node:http serves the request directly (no body to parse: fastify adds nothing). */
function isBodyless(method: string | undefined): boolean {
  return method === 'GET' || method === 'HEAD';
}

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
  if (isPooledBuffer(body)) res.end(body, () => releaseBuffer(body));
  else res.end(body);
}

/**
 * The bytes of a stream chunk. A watch fan-out writes the same event line (one string, see
 * endpoints/watch.ts) to every watcher's stream: it is encoded once, not once per stream.
 */
const RECENT_CHUNKS = 8;
const recentChunks: Array<{ text: string; bytes: Buffer } | undefined> = new Array(RECENT_CHUNKS);
let nextChunk = 0;

function chunkBytes(chunk: string): string | Buffer {
  if (chunk.length < 256) return chunk;
  for (const recent of recentChunks) if (recent !== undefined && recent.text === chunk) return recent.bytes;
  const bytes = Buffer.from(chunk, 'utf8');
  recentChunks[nextChunk] = { text: chunk, bytes };
  nextChunk = (nextChunk + 1) % RECENT_CHUNKS;
  return bytes;
}

/** fastify's defaults for the server it would have made itself. */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/** fastify's schema compilers, never called: kgen's single route declares no schema. */
function noSchemaCompiler(): never {
  throw new Error('kgen routes declare no schemas');
}

export class HTTPServer {
  readonly app: FastifyInstance;
  private readonly streams = new Set<StreamResponse>();
  /** Responses being produced or written; drain() waits for them. */
  private active = 0;
  private idle: (() => void)[] = [];

  constructor(
    private readonly serveRequest: RequestServer,
    tls?: ServingTLS,
  ) {
    // GET and HEAD (most requests: reads, watches) are served on node:http directly; fastify
    // serves the rest (body parsing and limits) on the same server, through the same chain.
    const serverFactory = (fastifyHandler: (req: IncomingMessage, res: ServerResponse) => void) => {
      const listener = (req: IncomingMessage, res: ServerResponse) => (isBodyless(req.method) ? this.serveRaw(req, res) : fastifyHandler(req, res));
      const server = tls
        ? createHTTPSServer({ cert: tls.cert, key: tls.key, ca: tls.clientCA, requestCert: true, rejectUnauthorized: false, minVersion: 'TLSv1.2' }, listener)
        : createHTTPServer(listener);
      server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
      server.requestTimeout = 0;
      // WebSocket upgrades (CONNECT subresources) go through the same chain (serveUpgrade).
      server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.serveUpgrade(req, socket, head));
      return server;
    };
    // The server's type parameter does not matter here; requests and replies are node:http's.
    this.app = Fastify({
      serverFactory: serverFactory as never,
      bodyLimit: MAX_REQUEST_BODY_BYTES,
      logger: false,
      forceCloseConnections: true,
      // Shutdown drains through the wait group, which answers requests arriving meanwhile with a Status.
      return503OnClosing: false,
      // No route has a schema: skip loading ajv and fast-json-stringify (~40 ms of start-up).
      schemaController: { compilersFactory: { buildValidator: noSchemaCompiler, buildSerializer: noSchemaCompiler } },
      clientErrorHandler,
      // Malformed URLs (`/apis/%`) and the like: a Status, as every other error.
      frameworkErrors: (err, _req, reply) => sendObject(reply as FastifyReply, frameworkError(err)),
    }) as unknown as FastifyInstance;
    this.app.removeAllContentTypeParsers();
    // Bodies are kept raw for the handlers; text (JSON, YAML) nested too deeply is refused before
    // anything parses it. Protobuf is binary: the decoder checks what it decoded instead.
    this.app.addContentTypeParser('*', { parseAs: 'buffer' }, (req, body, done) =>
      !isProtobuf(req.headers['content-type']) && exceedsNestingDepth(body as Buffer) ? done(nestingDepthError(), undefined) : done(null, body),
    );
    this.app.setErrorHandler((err, _req, reply) => sendObject(reply, frameworkError(err as { statusCode?: number; message: string })));
    this.app.setNotFoundHandler((req, reply) => this.serve(req, reply));
    this.app.route({ method: METHODS, url: '*', exposeHeadRoute: false, handler: (req, reply) => this.serve(req, reply) });
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

  /** Ends every watch stream cleanly and waits until no response is in progress. */
  async drain(): Promise<void> {
    for (const stream of this.streams) stream.close();
    if (this.active > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  /** Counts the response as active until its connection side closes, then aborts `abort`. */
  private track(res: ServerResponse, abort: LazyAbort): void {
    this.active++;
    this.untilClosed(res, abort);
  }

  /** Ends an active response's count when its connection side closes, aborting `abort` first. */
  private untilClosed(res: ServerResponse, abort: LazyAbort): void {
    res.on('close', () => {
      abort.abort();
      this.done();
    });
  }

  private done(): void {
    this.active--;
    if (this.active === 0 && this.idle.length > 0) for (const resolve of this.idle.splice(0)) resolve();
  }

  /** A request fastify parsed (it has a body). */
  private async serve(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> {
    const abort = new LazyAbort();
    this.track(reply.raw, abort);
    const response = await this.serveRequest(new HTTPRequest(req.raw, req.body, abort));
    if (response.kind === 'object') return sendObject(reply, response);
    reply.hijack();
    await this.stream(reply.raw, response, abort.signal);
  }

  /**
   * A bodyless request, straight from node:http; answered at once when the chain answers
   * synchronously. Such an answer is complete when end() returns having handed every byte to the
   * socket and no one took the request's signal: it is no longer counted (nor watched for
   * 'close') from then on. Anything else stays active until its connection side closes.
   */
  private serveRaw(req: IncomingMessage, res: ServerResponse): void {
    const abort = new LazyAbort();
    this.active++;
    let result: ChainResult;
    try {
      result = this.serveRequest(new HTTPRequest(req, undefined, abort));
    } catch (err) {
      result = errorResponse(err);
    }
    if (result instanceof Promise) {
      this.untilClosed(res, abort);
      result.then(
        (response) => this.respondRaw(res, response, abort),
        (err: unknown) => this.respondRaw(res, errorResponse(err), abort),
      );
      return;
    }
    this.respondRaw(res, result, abort);
    if (result.kind === 'object' && res.writableEnded && res.writableLength === 0 && !abort.signalMade) this.done();
    else this.untilClosed(res, abort);
  }

  /**
   * An HTTP upgrade request (WebSocket): served through the chain like any other; a handler that
   * accepts it answers 101 with a stream that ends when the socket closes (the socket is the
   * handler's then), any other answer is written on the socket and the connection closed.
   */
  private serveUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const abort = new LazyAbort();
    this.active++;
    socket.once('close', () => {
      abort.abort();
      this.done();
    });
    socket.on('error', () => socket.destroy());
    const request = new HTTPRequest(req, undefined, abort);
    request.upgrade = { request: req, socket, head };
    Promise.resolve()
      .then(() => this.serveRequest(request))
      .catch((err: unknown) => errorResponse(err))
      .then(async (response) => {
        if (response.kind === 'stream' && response.code === 101) {
          this.streams.add(response);
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
        if (response.kind === 'stream') response.close();
        const object = response.kind === 'object' ? response : errorResponse(statusError('BadRequest', 'this resource does not accept an upgrade'));
        const body = object.body ?? Buffer.from(object.payload, 'utf8');
        const lines = [`HTTP/1.1 ${object.code} ${STATUS_CODES[object.code] ?? ''}`, `Content-Type: ${object.contentType}`, `Content-Length: ${body.length}`, 'Connection: close'];
        for (const [name, value] of Object.entries(object.headers)) for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${v}`);
        if (socket.writable) socket.end(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]));
        else socket.destroy();
      });
  }

  private respondRaw(res: ServerResponse, response: APIResponse, abort: LazyAbort): void {
    if (response.kind === 'object') writeObject(res, response);
    else void this.stream(res, response, abort.signal);
  }

  /** Writes a stream response chunk by chunk; each write is flushed to the socket as it happens. */
  private async stream(raw: ServerResponse, response: StreamResponse, signal: AbortSignal): Promise<void> {
    this.streams.add(response);
    signal.addEventListener('abort', () => response.close(), { once: true });
    try {
      raw.writeHead(response.code, {
        ...response.headers,
        'Content-Type': response.contentType,
        'Cache-Control': 'no-cache, private',
        'Transfer-Encoding': 'chunked',
      });
      raw.flushHeaders();
      for await (const chunk of response.chunks) {
        if (signal.aborted) break;
        // Backpressure: a client that does not read stops this loop, so its watcher's bounded
        // buffer fills and the watch cache closes it, instead of the socket buffer growing.
        if (!raw.write(chunkBytes(chunk))) await once(raw, 'drain', { signal });
      }
    } catch {
      // The client went away or the stream failed mid-way; there is no way to report it now.
    } finally {
      this.streams.delete(response);
      response.close();
      if (!raw.writableEnded) raw.end();
    }
  }
}

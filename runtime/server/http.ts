/**
 * The fastify adapter: one catch-all route and a raw-body content-type parser feed the handler
 * chain; fastify's own errors (body too large, malformed requests) and 404s are converted to
 * metav1.Status. Serves HTTPS (asking for, but not requiring, a client certificate, which the
 * x509 authenticator then judges) or, in insecure dev mode, plain HTTP. Watch streams are
 * written chunk by chunk; drain() ends them and waits for every response in progress.
 */
import { once } from 'node:events';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { newStatus, statusError, StatusError } from '../api/status.js';
import type { ClientCertificate } from '../authentication/x509.js';
import type { APIResponse, ObjectResponse, StreamResponse } from '../endpoints/handler.js';
import { exceedsNestingDepth, nestingDepthError } from '../endpoints/nesting.js';
import { PROTOBUF_CONTENT_TYPE } from '../endpoints/protobuf.js';
import { errorResponse } from '../endpoints/responsewriters.js';
import type { RequestServer } from './filters/chain.js';

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
  return reply.send(Buffer.from(response.payload, 'utf8'));
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
    };
    if (authorizationError) cert.verifyError = String(authorizationError instanceof Error ? authorizationError.message : authorizationError);
  }
  peerCertificates.set(socket, cert);
  return cert ?? undefined;
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
    const https = tls ? { https: { cert: tls.cert, key: tls.key, ca: tls.clientCA, requestCert: true, rejectUnauthorized: false, minVersion: 'TLSv1.2' as const } } : {};
    // The https option only changes the server's type parameter; requests and replies are node:http's.
    this.app = Fastify({
      bodyLimit: MAX_REQUEST_BODY_BYTES,
      logger: false,
      forceCloseConnections: true,
      // Shutdown drains through the wait group, which answers requests arriving meanwhile with a Status.
      return503OnClosing: false,
      clientErrorHandler,
      // Malformed URLs (`/apis/%`) and the like: a Status, as every other error.
      frameworkErrors: (err, _req, reply) => sendObject(reply as FastifyReply, frameworkError(err)),
      ...https,
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

  private track(reply: FastifyReply): void {
    this.active++;
    reply.raw.once('close', () => {
      this.active--;
      if (this.active === 0) for (const resolve of this.idle.splice(0)) resolve();
    });
  }

  private async serve(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> {
    this.track(reply);
    const abort = new AbortController();
    reply.raw.on('close', () => abort.abort());
    const socket = req.raw.socket as TLSSocket;
    const response = await this.serveRequest({
      method: req.method,
      url: req.url,
      headers: req.headers,
      headersDistinct: req.raw.headersDistinct as Record<string, string[]>,
      body: Buffer.isBuffer(req.body) ? req.body : undefined,
      signal: abort.signal,
      clientCertificate: clientCertificateOf(socket),
      remoteAddress: socket.remoteAddress,
    });
    if (response.kind === 'object') return sendObject(reply, response);
    reply.hijack();
    await this.stream(reply, response, abort.signal);
  }

  /** Writes a stream response chunk by chunk; each write is flushed to the socket as it happens. */
  private async stream(reply: FastifyReply, response: StreamResponse, signal: AbortSignal): Promise<void> {
    const raw = reply.raw;
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
        if (!raw.write(chunk)) await once(raw, 'drain', { signal });
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

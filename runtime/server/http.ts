/**
 * The fastify adapter: one catch-all route and a raw-body content-type parser feed
 * APIServerHandler; fastify's own errors (body too large, malformed requests) and 404s are
 * converted to metav1.Status. Watch streams are written chunk by chunk and closed on shutdown.
 */
import { once } from 'node:events';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { statusError } from '../api/status.js';
import type { APIResponse, StreamResponse } from '../endpoints/handler.js';
import { errorResponse } from '../endpoints/responsewriters.js';
import type { APIServerHandler } from './handler.js';

/** kube-apiserver's default --max-request-bytes for JSON/YAML bodies: 3 MiB. */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function sendObject(reply: FastifyReply, response: Exclude<APIResponse, StreamResponse>): FastifyReply {
  reply.code(response.code);
  for (const [name, value] of Object.entries(response.headers)) reply.header(name, value);
  reply.header('Content-Type', response.contentType);
  // A Buffer keeps fastify from rewriting the Content-Type (it appends a charset to strings).
  return reply.send(Buffer.from(response.payload, 'utf8'));
}

/** Converts an error fastify raised before our handler ran into a Status. */
function frameworkError(err: { statusCode?: number; code?: string; message: string }): APIResponse {
  const code = err.statusCode ?? 500;
  if (code === 413) return errorResponse(statusError('RequestEntityTooLarge', `Request entity too large: limit is ${MAX_REQUEST_BODY_BYTES}`));
  if (code === 415) return errorResponse(statusError('UnsupportedMediaType', err.message));
  if (code >= 400 && code < 500) return errorResponse(statusError('BadRequest', err.message));
  return errorResponse(err instanceof Error ? err : new Error(err.message));
}

export class HTTPServer {
  readonly app: FastifyInstance;
  private readonly streams = new Set<StreamResponse>();

  constructor(private readonly handler: APIServerHandler) {
    this.app = Fastify({ bodyLimit: MAX_REQUEST_BODY_BYTES, logger: false, forceCloseConnections: true });
    this.app.removeAllContentTypeParsers();
    this.app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    this.app.setErrorHandler((err, _req, reply) =>
      sendObject(reply, frameworkError(err as { statusCode?: number; message: string }) as Exclude<APIResponse, StreamResponse>),
    );
    this.app.setNotFoundHandler((req, reply) => this.serve(req, reply));
    this.app.route({ method: METHODS, url: '*', exposeHeadRoute: false, handler: (req, reply) => this.serve(req, reply) });
    this.app.addHook('onClose', async () => {
      for (const stream of this.streams) stream.close();
    });
  }

  private async serve(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> {
    const abort = new AbortController();
    reply.raw.on('close', () => abort.abort());
    const response = await this.handler.handle({
      method: req.method,
      url: req.url,
      headers: req.headers,
      body: Buffer.isBuffer(req.body) ? req.body : undefined,
      signal: abort.signal,
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

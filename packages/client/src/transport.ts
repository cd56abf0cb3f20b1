/**
 * One HTTP exchange over node:http/node:https: no retries, no rate limiting, no decoding.
 * RestClient drives it; it exists so TLS setup, timeouts and aborts live in one place.
 */
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { RestConfig } from './config.js';

export interface Exchange {
  statusCode: number;
  headers: IncomingHttpHeaders;
  /** The whole body as text, when read. */
  body: string;
  /** The unread response, for a successful stream. */
  response?: IncomingMessage;
}

export interface ExchangeInit {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: Buffer;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Leave a 2xx body unread and hand back the response; the timeout then covers only the headers. */
  streaming: boolean;
}

export class TimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TimeoutError';
  }
}

/** A keep-alive agent carrying the config's TLS settings. */
export function newAgent(config: RestConfig): http.Agent {
  if (new URL(config.server).protocol === 'http:') return new http.Agent({ keepAlive: true });
  return new https.Agent({
    keepAlive: true,
    ca: config.ca,
    cert: config.cert,
    key: config.key,
    rejectUnauthorized: !config.insecureSkipTLSVerify,
  });
}

/**
 * Sends one request. Resolves once the body is read (or, streaming a 2xx, once headers arrive);
 * rejects with the transport error, the TimeoutError, or the signal's reason.
 */
export function exchange(agent: http.Agent, init: ExchangeInit): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    if (init.signal?.aborted) return reject(init.signal.reason);
    const send = init.url.protocol === 'https:' ? https.request : http.request;
    const req = send(init.url, { method: init.method, headers: init.headers, agent });
    let settled = false;
    // Why we destroyed the request ourselves; it wins over the socket error that destroy causes.
    let cause: unknown;
    const cancel = (why: unknown) => {
      cause ??= why;
      req.destroy(why as Error);
    };
    const finish = (err: unknown, value?: Exchange) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        init.signal?.removeEventListener('abort', onAbort);
        reject(cause ?? err);
      } else resolve(value!);
    };
    const onAbort = () => cancel(init.signal!.reason);
    init.signal?.addEventListener('abort', onAbort, { once: true });
    req.once('close', () => init.signal?.removeEventListener('abort', onAbort));
    const timer = init.timeoutMs
      ? setTimeout(() => cancel(new TimeoutError(`${init.method} ${init.url.pathname} timed out after ${init.timeoutMs}ms`)), init.timeoutMs)
      : undefined;

    req.on('error', (err) => finish(err));
    req.once('response', (res) => {
      const statusCode = res.statusCode ?? 0;
      if (init.streaming && statusCode >= 200 && statusCode < 300) {
        return finish(undefined, { statusCode, headers: res.headers, body: '', response: res });
      }
      readBody(res).then((body) => finish(undefined, { statusCode, headers: res.headers, body }), finish);
    });
    req.end(init.body);
  });
}

function readBody(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.once('error', reject);
    // A response cut off mid-body emits 'aborted'/'close' without 'end' on some node versions.
    res.once('close', () => {
      if (!res.complete) {
        const err: NodeJS.ErrnoException = new Error('socket hang up: response ended before the body was complete');
        err.code = 'ECONNRESET';
        reject(err);
      }
    });
  });
}

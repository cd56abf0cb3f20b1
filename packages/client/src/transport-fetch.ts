/**
 * The fetch transport: for browsers (the default there) and any runtime with fetch. Watches read
 * the response body as a stream. TLS is the runtime's (a browser's trust store; no client
 * certificates or proxies from the config), and headers a browser controls itself (User-Agent,
 * Content-Length) are left to it. Cross-origin use needs the server's CORS (kube's
 * --cors-allowed-origins) to allow the page's origin.
 */
import type { Credentials } from './credentials.js';
import { TimeoutError, type Exchange, type ExchangeInit, type ResponseHeaders, type ResponseStream, type Transport } from './transport.js';

export interface FetchTransportOptions {
  /** The fetch to call; default globalThis.fetch. */
  fetch?: typeof fetch;
  /** fetch's `credentials` (cookies); default 'same-origin'. */
  credentials?: RequestCredentials;
}

const BROWSER_MANAGED = new Set(['user-agent', 'content-length']);

export class FetchTransport implements Transport {
  private readonly fetch: typeof fetch;
  private readonly credentials: RequestCredentials;

  constructor(options: FetchTransportOptions = {}) {
    const f = options.fetch ?? globalThis.fetch;
    if (typeof f !== 'function') throw new Error('FetchTransport: no fetch in this runtime; pass options.fetch');
    this.fetch = f.bind(globalThis);
    this.credentials = options.credentials ?? 'same-origin';
  }

  async exchange(init: ExchangeInit, _creds: Credentials): Promise<Exchange> {
    if (init.signal?.aborted) throw init.signal.reason;
    const controller = new AbortController();
    let cause: unknown;
    const cancel = (why: unknown) => {
      cause ??= why;
      controller.abort(why);
    };
    const onAbort = () => cancel(init.signal!.reason);
    init.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = init.timeoutMs
      ? setTimeout(() => cancel(new TimeoutError(`${init.method} ${init.url.pathname} timed out after ${init.timeoutMs}ms`)), init.timeoutMs)
      : undefined;
    const done = () => {
      clearTimeout(timer);
      init.signal?.removeEventListener('abort', onAbort);
    };
    const headers = new Headers();
    for (const [name, value] of Object.entries(init.headers)) {
      if (BROWSER_MANAGED.has(name.toLowerCase()) && isBrowser()) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    }
    let res: Response;
    try {
      const request: RequestInit = { method: init.method, headers, signal: controller.signal, credentials: this.credentials };
      if (init.body) request.body = init.body as BodyInit;
      res = await this.fetch(init.url.href, request);
    } catch (err) {
      done();
      throw cause ?? err;
    }
    const responseHeaders: ResponseHeaders = {};
    res.headers.forEach((value, name) => (responseHeaders[name.toLowerCase()] = value));
    if (init.streaming && res.ok && res.body) {
      clearTimeout(timer);
      return { statusCode: res.status, headers: responseHeaders, body: '', response: bodyStream(res.body, controller, done) };
    }
    try {
      return { statusCode: res.status, headers: responseHeaders, body: await res.text() };
    } catch (err) {
      throw cause ?? err;
    } finally {
      done();
    }
  }

  close(): void {
    // fetch keeps no connections of ours to close.
  }
}

function isBrowser(): boolean {
  return typeof (globalThis as { document?: unknown }).document !== 'undefined' || typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined';
}

/** The body's chunks as an async iterable; destroy() cancels the read and the request. */
function bodyStream(body: ReadableStream<Uint8Array>, controller: AbortController, done: () => void): ResponseStream {
  const reader = body.getReader();
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    done();
    reader.cancel().catch(() => {});
    controller.abort();
  };
  return {
    destroy: finish,
    async *[Symbol.asyncIterator]() {
      try {
        for (;;) {
          const { value, done: end } = await reader.read();
          if (end) return;
          if (value) yield value;
        }
      } finally {
        finish();
      }
    },
  };
}

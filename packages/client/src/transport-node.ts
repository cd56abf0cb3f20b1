/**
 * The Node transport: one HTTP exchange over node:http/node:https, with keep-alive agents carrying
 * the TLS settings (CA, client certificate, tls-server-name, insecure-skip-tls-verify) and an
 * optional CONNECT proxy. No retries, no rate limiting, no decoding: RestClient drives it.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import type { RestConfig } from './config.js';
import type { Credentials } from './credentials.js';
import { TimeoutError, type Exchange, type ExchangeInit, type Transport } from './transport.js';

/** node:http(s) with one keep-alive agent, replaced when an exec plugin hands out another client certificate. */
export class NodeTransport implements Transport {
  private agent: http.Agent;
  private agentCert: string | Uint8Array | undefined;

  constructor(private readonly config: RestConfig) {
    const creds: Credentials = {};
    if (config.cert) creds.cert = config.cert;
    if (config.key) creds.key = config.key;
    this.agent = newAgent(config, creds);
    this.agentCert = config.cert;
  }

  exchange(init: ExchangeInit, creds: Credentials): Promise<Exchange> {
    if (creds.cert !== undefined && creds.cert !== this.agentCert) {
      this.agent.destroy();
      this.agent = newAgent(this.config, creds);
      this.agentCert = creds.cert;
    }
    const headers = init.body ? { ...init.headers, 'Content-Length': String(init.body.byteLength) } : init.headers;
    return exchange(this.agent, { ...init, headers });
  }

  close(): void {
    this.agent.destroy();
  }
}

/**
 * A keep-alive agent carrying the config's TLS settings (the client certificate from `creds`, which
 * an exec plugin may replace) and, with `proxyUrl`, tunnelling every connection through the proxy
 * with CONNECT.
 */
export function newAgent(config: RestConfig, creds: Credentials = {}): http.Agent {
  // client-go's TLSConfigFor: a config naming a CA and skipping verification is refused, not
  // taken as unverified (whoever named the CA believes the server is checked against it).
  if (config.insecureSkipTLSVerify && config.ca !== undefined && config.ca.length > 0) {
    throw new Error('specifying a root certificates file with the insecure flag is not allowed');
  }
  const proxy = config.proxyUrl ? parseProxy(config.proxyUrl) : undefined;
  if (new URL(config.server).protocol === 'http:') {
    const agent = new http.Agent({ keepAlive: true });
    if (proxy) tunnel(agent, proxy, false);
    return agent;
  }
  const options: https.AgentOptions = { keepAlive: true, rejectUnauthorized: !config.insecureSkipTLSVerify };
  if (config.ca) options.ca = config.ca;
  if (creds.cert) options.cert = creds.cert;
  if (creds.key) options.key = creds.key;
  if (config.tlsServerName) options.servername = config.tlsServerName;
  const agent = new https.Agent(options);
  if (proxy) tunnel(agent, proxy, true);
  return agent;
}

function parseProxy(proxyUrl: string): URL {
  let url: URL;
  try {
    url = new URL(proxyUrl);
  } catch {
    throw new Error(`invalid proxy-url ${JSON.stringify(proxyUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`proxy-url ${JSON.stringify(proxyUrl)}: only http and https proxies are supported`);
  }
  return url;
}

type CreateConnection = (options: Record<string, any>, callback: (err: Error | null, socket?: Duplex) => void) => Duplex | undefined;

/**
 * Makes the agent open its connections through `proxy`: a CONNECT request for host:port, then (for
 * an https server) TLS over the tunnel with the agent's own TLS options. Credentials in the proxy
 * URL are sent as Proxy-Authorization (basic), as Go's http.Transport does.
 */
function tunnel(agent: http.Agent, proxy: URL, secure: boolean): void {
  const create: CreateConnection = (options, callback) => {
    const host = String(options.host ?? 'localhost');
    const target = `${host.includes(':') ? `[${host}]` : host}:${options.port}`;
    const headers: Record<string, string> = { Host: target };
    if (proxy.username) headers['Proxy-Authorization'] = `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`;
    const send = proxy.protocol === 'https:' ? https.request : http.request;
    const req = send({ host: proxy.hostname, port: proxy.port || (proxy.protocol === 'https:' ? 443 : 80), method: 'CONNECT', path: target, headers, agent: false });
    let done = false;
    const fail = (err: Error) => {
      if (done) return;
      done = true;
      callback(err);
    };
    req.once('error', fail);
    req.once('connect', (res, socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        return fail(new Error(`proxy ${proxy.host} refused CONNECT ${target}: ${res.statusCode} ${res.statusMessage ?? ''}`.trim()));
      }
      done = true;
      if (!secure) return callback(null, socket);
      const servername = options.servername ?? (/^[\d.]+$|:/.test(host) ? undefined : host);
      const secured = tls.connect({ ...options, socket, servername });
      let connected = false;
      secured.once('secureConnect', () => {
        connected = true;
        callback(null, secured);
      });
      // Errors after the handshake reach the request through the socket itself.
      secured.once('error', (err) => connected || callback(err));
    });
    req.end();
    return undefined;
  };
  (agent as unknown as { createConnection: CreateConnection }).createConnection = create;
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

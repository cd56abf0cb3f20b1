/**
 * The Node transport: one HTTP exchange over node:http/node:https, with keep-alive agents carrying
 * the TLS settings (CA, client certificate, tls-server-name, insecure-skip-tls-verify) and an
 * optional CONNECT proxy; redirects followed as Go's http.Client follows them, credentials kept
 * to the server's origin. No retries, no rate limiting, no decoding: RestClient drives it.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import type { RestConfig } from './config.js';
import type { Credentials } from './credentials.js';
import { TimeoutError, type Exchange, type ExchangeInit, type Transport } from './transport.js';

/** Go's http.Client: at most this many requests for one call, redirects included. */
const MAX_REDIRECT_REQUESTS = 10;

/** Headers Go's http.Client drops on a redirect to another host (shouldCopyHeaderOnRedirect). */
const SENSITIVE_HEADERS = new Set(['authorization', 'www-authenticate', 'cookie', 'cookie2']);

/**
 * node:http(s) with one keep-alive agent, replaced when an exec plugin hands out another client
 * certificate. Redirects are followed as client-go's http.Client follows them (followRedirect),
 * with credentials only for the server's own origin.
 */
export class NodeTransport implements Transport {
  private agent: http.Agent;
  private agentCert: string | Uint8Array | undefined;
  /** Agents without a client certificate, by protocol: for redirects to another origin. */
  private readonly bareAgents = new Map<string, http.Agent>();

  constructor(private readonly config: RestConfig) {
    const creds: Credentials = {};
    if (config.cert) creds.cert = config.cert;
    if (config.key) creds.key = config.key;
    this.agent = newAgent(config, creds);
    this.agentCert = config.cert;
  }

  async exchange(init: ExchangeInit, creds: Credentials): Promise<Exchange> {
    if (creds.cert !== undefined && creds.cert !== this.agentCert) {
      this.agent.destroy();
      this.agent = newAgent(this.config, creds);
      this.agentCert = creds.cert;
    }
    let hop = init;
    for (let requests = 1; ; requests++) {
      const agent = hop.url.origin === init.url.origin ? this.agent : this.bareAgent(hop.url);
      const headers = hop.body ? { ...hop.headers, 'Content-Length': String(hop.body.byteLength) } : hop.headers;
      const result = await exchange(agent, { ...hop, headers });
      const next = redirectOf(init, hop, result);
      if (!next) return result;
      if (requests >= MAX_REDIRECT_REQUESTS) throw new Error(`${goMethod(init.method)} ${JSON.stringify(next.url.href)}: stopped after ${MAX_REDIRECT_REQUESTS} redirects`);
      hop = next;
    }
  }

  /** An agent with the config's trust settings (CA, insecure, proxy) and no client certificate or SNI override. */
  private bareAgent(url: URL): http.Agent {
    let agent = this.bareAgents.get(url.protocol);
    if (!agent) {
      const { tlsServerName: _sni, cert: _cert, key: _key, ...trust } = this.config;
      agent = newAgent({ ...trust, server: url.origin });
      this.bareAgents.set(url.protocol, agent);
    }
    return agent;
  }

  close(): void {
    this.agent.destroy();
    for (const agent of this.bareAgents.values()) agent.destroy();
  }
}

/** Go's url.Error operation: the method with only its first letter in upper case ("Get"). */
function goMethod(method: string): string {
  return method.charAt(0) + method.slice(1).toLowerCase();
}

/**
 * The request a redirect answer asks for, as Go's http.Client builds it (redirectBehavior), or
 * undefined when the answer is the result: not 301/302/303/307/308, or no Location. A 301/302/303
 * turns any method but GET and HEAD into a GET without a body; a 307/308 repeats the method and
 * body. Headers are the first request's; to an origin other than the first request's (another
 * host, port or scheme: an https → http downgrade included) without Authorization, Cookie or
 * WWW-Authenticate, and the caller presents no client certificate there. client-go puts its
 * bearer token back on every hop to any host (its round tripper adds it after the redirect);
 * kgen does not.
 */
function redirectOf(first: ExchangeInit, hop: ExchangeInit, result: Exchange): ExchangeInit | undefined {
  const code = result.statusCode;
  if (code !== 301 && code !== 302 && code !== 303 && code !== 307 && code !== 308) return undefined;
  const location = Array.isArray(result.headers.location) ? result.headers.location[0] : result.headers.location;
  if (!location) return undefined;
  let url: URL;
  try {
    url = new URL(location, hop.url);
  } catch {
    throw new Error(`${goMethod(first.method)} ${JSON.stringify(hop.url.href)}: failed to parse Location header ${JSON.stringify(location)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${goMethod(first.method)} ${JSON.stringify(url.href)}: unsupported protocol scheme ${JSON.stringify(url.protocol.slice(0, -1))}`);
  const keepBody = code === 307 || code === 308;
  const method = keepBody || hop.method === 'GET' || hop.method === 'HEAD' ? hop.method : 'GET';
  const sameOrigin = url.origin === first.url.origin;
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(first.headers)) {
    const lower = name.toLowerCase();
    if (lower === 'content-length' || (!sameOrigin && SENSITIVE_HEADERS.has(lower)) || (!keepBody && lower === 'content-type')) continue;
    headers[name] = value;
  }
  const next: ExchangeInit = { ...hop, method, url, headers };
  if (keepBody && hop.body) next.body = hop.body;
  else delete next.body;
  return next;
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

/**
 * RestClient: the HTTP layer generated clients sit on, as client-go's rest.RESTClient.
 * Every attempt waits on the rate limiter, then sends; failures are retried per retry.ts; a final
 * non-2xx response becomes a StatusError (response-error.ts). Bodies are JSON unless told otherwise.
 */
import { goJSONSyntaxError } from '../../../runtime/api/json-syntax.js';
import { StatusError, isStatus } from '../../../runtime/api/status.js';
import { DEFAULT_BURST, DEFAULT_MAX_RETRIES, DEFAULT_QPS, DEFAULT_USER_AGENT, type ImpersonationConfig, type RestConfig } from './config.js';
import type { CredentialSource, Credentials } from './credentials.js';
import { credentialSource, defaultTransport } from './platform.js';
import { TokenBucketRateLimiter, abortableSleep, unlimited, type RateLimiter } from './rate-limiter.js';
import { responseError } from './response-error.js';
import { noteRoundedReads, refuseRoundedWrite } from './rounded-reads.js';
import { connectionErrorDelay, responseDelay, retryAfterSeconds } from './retry.js';
import type { Exchange, ResponseStream, Transport } from './transport.js';

export type QueryValue = string | number | boolean | undefined;
export type Query = Record<string, QueryValue>;

export interface RequestOptions {
  method: string;
  /** Absolute API path such as `/apis/example.com/v1/widgets`; appended to the server's own path. */
  path: string;
  /** Undefined values are left out; booleans are sent as `true`/`false`. */
  query?: Query;
  /** A Uint8Array (Buffer) or string is sent as is; anything else as JSON. */
  body?: unknown;
  /** Default `application/json`, sent only with a body. */
  contentType?: string;
  /** Default `application/json`. */
  accept?: string;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** Seams: the transport (default node:http under Node, fetch in browsers), and for tests a rate limiter and a sleep that need not take real time. */
export interface RestClientDeps {
  transport?: Transport;
  rateLimiter?: RateLimiter;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export class RestClient {
  readonly config: RestConfig;
  readonly rateLimiter: RateLimiter;
  private readonly transport: Transport;
  private readonly credentials: CredentialSource;
  private readonly server: URL;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(config: RestConfig, deps: RestClientDeps = {}) {
    this.server = parseServer(config.server);
    this.config = config;
    this.credentials = credentialSource(config);
    this.transport = deps.transport ?? defaultTransport(config);
    this.rateLimiter = deps.rateLimiter ?? defaultRateLimiter(config);
    this.sleep = deps.sleep ?? abortableSleep;
  }

  /**
   * Sends the request and decodes the JSON response. Rejects with a StatusError for a non-2xx
   * response, and for a 2xx whose body is a Status other than Success (as client-go's Result.Into).
   */
  async request<T>(opts: RequestOptions): Promise<T> {
    const result = await this.roundTrip(opts, false);
    return decodeBody<T>(result);
  }

  /**
   * Sends the request and hands back the unread 2xx response, for watch and other streams. The
   * caller must consume or destroy it; aborting opts.signal destroys it. Non-2xx responses reject
   * with a StatusError as request() does.
   */
  async stream(opts: RequestOptions): Promise<ResponseStream> {
    const result = await this.roundTrip(opts, true);
    return result.response!;
  }

  /** Closes idle keep-alive connections. In-flight requests finish. */
  close(): void {
    this.transport.close();
  }

  /** Full URL for a path and query, keeping any path prefix of the server URL. */
  url(path: string, query?: Query): URL {
    const url = new URL(this.server.href);
    url.pathname = this.server.pathname.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.append(key, String(value));
    }
    return url;
  }

  /** The attempt loop: rate limit, send, and retry what retry.ts allows; throws the final failure. */
  private async roundTrip(opts: RequestOptions, streaming: boolean): Promise<Exchange> {
    const method = opts.method.toUpperCase();
    const init = {
      method,
      url: this.url(opts.path, opts.query),
      headers: this.headers(opts),
      body: encodeBody(opts.body),
      signal: opts.signal,
      timeoutMs: this.config.timeoutMs,
      streaming,
    };
    const maxRetries = this.config.maxRetries ?? DEFAULT_MAX_RETRIES;
    let refreshed = false;
    for (let retry = 1; ; retry++) {
      await this.rateLimiter.wait(opts.signal);
      let result: Exchange;
      let creds: Credentials | undefined;
      try {
        creds = await this.credentials.get();
        result = await this.transport.exchange(withCredentials(init, creds, opts.headers), creds);
      } catch (err) {
        if (creds === undefined) throw err;
        const delay = opts.signal?.aborted ? undefined : connectionErrorDelay(method, err, retry, maxRetries);
        if (delay === undefined) throw err;
        await this.sleep(delay, opts.signal);
        continue;
      }
      if (result.statusCode >= 200 && result.statusCode < 300) return result;
      // A 401 with a credential that can be fetched again (an exec plugin's): once more, at once.
      if (result.statusCode === 401 && !refreshed && this.credentials.unauthorized(creds)) {
        refreshed = true;
        retry--;
        continue;
      }
      const delay = responseDelay(result.statusCode, result.headers, retry, maxRetries);
      if (delay === undefined) throw responseError(result.statusCode, method, result.body, retryAfterSeconds(result.headers));
      await this.sleep(delay, opts.signal);
    }
  }

  private headers(opts: RequestOptions): Record<string, string | string[]> {
    const headers: Record<string, string | string[]> = {
      Accept: opts.accept ?? 'application/json',
      'User-Agent': this.config.userAgent ?? DEFAULT_USER_AGENT,
    };
    if (opts.body !== undefined) headers['Content-Type'] = opts.contentType ?? 'application/json';
    if (this.config.impersonate) Object.assign(headers, impersonationHeaders(this.config.impersonate));
    return { ...headers, ...opts.headers };
  }
}

/** The attempt's headers with its bearer token (unless the caller set Authorization itself). */
function withCredentials<T extends { headers: Record<string, string | string[]> }>(init: T, creds: Credentials, own: Record<string, string> | undefined): T {
  if (!creds.token || own?.['Authorization'] !== undefined || own?.['authorization'] !== undefined) return init;
  return { ...init, headers: { ...init.headers, Authorization: `Bearer ${creds.token}` } };
}

/**
 * Impersonate-User, -Uid, -Group (one header per group) and -Extra-<key> (the key percent-encoded,
 * as client-go's transport does for characters not legal in a header name).
 */
export function impersonationHeaders(imp: ImpersonationConfig): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  if (imp.user) headers['Impersonate-User'] = imp.user;
  if (imp.uid) headers['Impersonate-Uid'] = imp.uid;
  if (imp.groups?.length) headers['Impersonate-Group'] = [...imp.groups];
  for (const [key, values] of Object.entries(imp.extra ?? {})) {
    if (values.length) headers[`Impersonate-Extra-${encodeExtraKey(key)}`] = [...values];
  }
  return headers;
}

function encodeExtraKey(key: string): string {
  return key.replace(/[^A-Za-z0-9!#$&'*+\-.^_`|~]/g, (c) => encodeURIComponent(c));
}

function parseServer(server: string): URL {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new Error(`invalid server URL ${JSON.stringify(server)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`server URL ${JSON.stringify(server)} must use http or https`);
  }
  return url;
}

function defaultRateLimiter(config: RestConfig): RateLimiter {
  const qps = config.qps ?? DEFAULT_QPS;
  if (qps <= 0) return unlimited;
  return new TokenBucketRateLimiter(qps, Math.max(1, config.burst ?? DEFAULT_BURST));
}

const encoder = new TextEncoder();

function encodeBody(body: unknown): Uint8Array | undefined {
  if (body === undefined) return undefined;
  if (body instanceof Uint8Array) return body;
  if (typeof body === 'string') return encoder.encode(body);
  refuseRoundedWrite(body);
  return encoder.encode(JSON.stringify(body));
}

function decodeBody<T>(result: Exchange): T {
  if (result.body === '') return undefined as T;
  let value: unknown;
  try {
    value = JSON.parse(result.body);
  } catch {
    const type = String(result.headers['content-type'] ?? '');
    // client-go's words, naming one character: the body may be a Secret, and errors reach logs.
    if (type.includes('json')) throw new Error(`server sent invalid JSON (HTTP ${result.statusCode}): couldn't get version/kind; json parse error: ${goJSONSyntaxError(result.body) ?? 'invalid JSON'}`);
    return result.body as T;
  }
  if (isStatus(value) && value.status !== 'Success') {
    throw new StatusError(value.code ? value : { ...value, code: result.statusCode });
  }
  noteRoundedReads(result.body, value);
  return value as T;
}

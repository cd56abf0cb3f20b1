/**
 * What RestClient needs from HTTP: one exchange at a time, no retries, no rate limiting, no
 * decoding. Two transports implement it: node:http(s) (transport-node.ts, the default under
 * Node: TLS settings, client certificates, proxies) and fetch (transport-fetch.ts, the default in
 * browsers and usable anywhere fetch is).
 */
import type { Credentials } from './credentials.js';

/** A response body read as it arrives (a watch). Iterate it, or destroy it to stop. */
export interface ResponseStream extends AsyncIterable<Uint8Array | string> {
  destroy(): void;
}

/** Response headers, names in lower case. */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

export interface Exchange {
  statusCode: number;
  headers: ResponseHeaders;
  /** The whole body as text, when read. */
  body: string;
  /** The unread body, for a successful stream. */
  response?: ResponseStream;
}

export interface ExchangeInit {
  method: string;
  url: URL;
  headers: Record<string, string | string[]>;
  body?: Uint8Array;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  /** Leave a 2xx body unread and hand back the response; the timeout then covers only the headers. */
  streaming: boolean;
}

export interface Transport {
  /**
   * Sends one request with these credentials (the bearer token is already in the headers; a
   * transport that can, presents the client certificate). Resolves once the body is read (or,
   * streaming a 2xx, once headers arrive); rejects with the transport error, a TimeoutError, or
   * the signal's reason.
   */
  exchange(init: ExchangeInit, creds: Credentials): Promise<Exchange>;
  /** Closes idle connections. */
  close(): void;
}

export class TimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TimeoutError';
  }
}

/**
 * RestConfig: how to reach and authenticate to an API server, as client-go's rest.Config.
 * Plain data; RestClient reads it once, at construction.
 */

export interface RestConfig {
  /** Base URL, e.g. `https://127.0.0.1:6443`; a path prefix (`https://host/k8s`) is kept. */
  server: string;
  /** Bearer token sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** PEM CA bundle used to verify the server, instead of the system roots. */
  ca?: string | Buffer;
  /** PEM client certificate and key for mutual TLS. */
  cert?: string | Buffer;
  key?: string | Buffer;
  /** Skip server certificate verification. Only for tests and throwaway clusters. */
  insecureSkipTLSVerify?: boolean;
  userAgent?: string;
  /** Per-request timeout, until the whole response is read; for streams, until headers arrive. */
  timeoutMs?: number;
  /** Retries after the first attempt; default 10, as client-go. 0 disables retries. */
  maxRetries?: number;
  /** Client-side rate limit; default 5 qps with a burst of 10, as client-go. qps <= 0 disables it. */
  qps?: number;
  burst?: number;
}

export const DEFAULT_MAX_RETRIES = 10;
export const DEFAULT_QPS = 5;
export const DEFAULT_BURST = 10;
export const DEFAULT_USER_AGENT = `kgen-client/0.1.0 (${process.platform}/${process.arch}) node/${process.version}`;

/**
 * RestConfig: how to reach and authenticate to an API server, as client-go's rest.Config.
 * Plain data; RestClient reads it once, at construction. Credentials that change while a program
 * runs (a token file that is rotated, an exec plugin's expiring credential) are named here and
 * read by RestClient when requests need them (see credentials.ts).
 */
import type { ExecConfig } from './exec.js';

/** Impersonate-* headers, as client-go's rest.ImpersonationConfig (kubeconfig `as`, `as-uid`, `as-groups`, `as-user-extra`). */
export interface ImpersonationConfig {
  user?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface RestConfig {
  /** Base URL, e.g. `https://127.0.0.1:6443`; a path prefix (`https://host/k8s`) is kept. */
  server: string;
  /** Bearer token sent as `Authorization: Bearer <token>`. */
  token?: string;
  /**
   * A file holding the bearer token, read again whenever it changes (bound service account tokens
   * rotate). Used when `token` is not set.
   */
  tokenFile?: string;
  /** A client-go credential plugin run for a token or client certificate (kubeconfig `user.exec`). */
  exec?: ExecConfig;
  /** Impersonate another user, its uid, groups and extra fields. */
  impersonate?: ImpersonationConfig;
  /** PEM CA bundle used to verify the server, instead of the system roots. */
  ca?: string | Buffer;
  /** PEM client certificate and key for mutual TLS. */
  cert?: string | Buffer;
  key?: string | Buffer;
  /** Skip server certificate verification. Only for tests and throwaway clusters. */
  insecureSkipTLSVerify?: boolean;
  /** The name the server's certificate is checked against (SNI), when not the URL's host. */
  tlsServerName?: string;
  /** An http:// or https:// proxy reached with CONNECT, as kubeconfig's `proxy-url`. */
  proxyUrl?: string;
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
export const DEFAULT_USER_AGENT =
  typeof process !== 'undefined' && process.versions?.node
    ? `kgen-client/0.1.0 (${process.platform}/${process.arch}) node/${process.version}`
    : 'kgen-client/0.1.0 (browser)';

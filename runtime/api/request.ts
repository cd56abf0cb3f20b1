/**
 * One request as the server receives it, before any layer interprets it: what the HTTP server
 * hands the filter chain and what authenticators read (k8s.io/apiserver passes *http.Request
 * for this). Below the server, authentication and endpoints, so each of them can name it
 * without importing the others.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** What the TLS layer saw of the client's certificate (absent when none was presented). */
export interface ClientCertificate {
  /** The chain verified against the client CA. */
  verified: boolean;
  /** Why verification failed (OpenSSL's code, e.g. UNABLE_TO_VERIFY_LEAF_SIGNATURE). */
  verifyError?: string;
  commonName: string;
  organizations: string[];
  /** Extended key usage OIDs; undefined when the certificate has no such extension. */
  extKeyUsage?: string[];
  /** The DER certificate, so each authenticator can check it chains to its own CA. */
  raw?: Buffer;
  /**
   * The other certificates of the peer's chain (DER), candidates for the intermediates between
   * raw and an authenticator's CA; never trusted by themselves (authentication/certificates.ts).
   * Read on first call: node's detailed peer certificate costs ten times the plain one (about
   * 0.2 ms against 0.02), so it is read only for a certificate its CA did not sign directly.
   */
  intermediates?(): Buffer[];
}

/** The connection of an HTTP upgrade request, handed to whoever accepts the upgrade. */
export interface UpgradeRequest {
  request: import('node:http').IncomingMessage;
  socket: import('node:stream').Duplex;
  head: Buffer;
}

export interface IncomingAPIRequest {
  method: string;
  /** Path and query, as on the request line. */
  url: string;
  headers: IncomingHttpHeaders;
  body?: Buffer;
  signal: AbortSignal;
  /** The client's address on the connection (for audit sourceIPs). */
  remoteAddress?: string;
  /** Every header's values, one per header line (Node joins repeated ones with ", "). */
  headersDistinct?: Record<string, string[]>;
  /** The client's TLS certificate, as the TLS layer verified it; absent without one. */
  clientCertificate?: ClientCertificate;
  /**
   * Reads a body still on the wire into `body` (the HTTP server's requests; see
   * runtime/server/body.ts): undefined when there is none to read. Called once, by the
   * request-body filter, after authentication and authorization.
   */
  readBody?(): Promise<void> | undefined;
  /**
   * Defers `release` until the response has been written to the connection, or the connection
   * closed (the max-in-flight filter counts a request until then, as kube's does). Absent, the
   * caller releases when the chain has answered.
   */
  untilWritten?(release: () => void): void;
  /**
   * Gives the request a deadline (the timeout filter's): from now on its signal, and a body read,
   * also abort when passDeadline is called, the connection's own abort untouched. The HTTP
   * server's requests make the deadline's abort only once something asks for the signal or the
   * deadline passes, so a request answered at once makes none. Absent, the timeout filter
   * combines the signal with a controller of its own.
   */
  startDeadline?(): void;
  /** The deadline started by startDeadline passed: aborts the request's signal with `reason`. */
  passDeadline?(reason: unknown): void;
  /** Set for an HTTP upgrade (WebSocket) request: its connection, for CONNECT subresources. */
  upgrade?: UpgradeRequest;
}

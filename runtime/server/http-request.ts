/**
 * One request as the filter chain sees it, made by the HTTP server from node's IncomingMessage
 * once its headers are in. The body stays on the wire until the chain's request-body filter
 * asks for it (body.ts); what the request holds (its body's memory, its in-flight slot) is
 * released by finish() once the response is written.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import type { ClientCertificate } from '../authentication/x509.js';
import type { UpgradeRequest } from '../endpoints/handler.js';
import { exceedsNestingDepth, nestingDepthError } from '../api/nesting.js';
import { PROTOBUF_CONTENT_TYPE } from '../endpoints/protobuf.js';
import { BodyMemoryBudget, declaredBody, readBody, type BodyRead } from './body.js';
import { LazyAbort } from './filters/context.js';
import type { IncomingAPIRequest } from './handler.js';

function isProtobuf(contentType: string | undefined): boolean {
  return (contentType ?? '').trim().toLowerCase().startsWith(PROTOBUF_CONTENT_TYPE);
}

function list(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The DER of the certificates above the peer's own in its chain (the last one links to itself). */
function issuersOf(peer: DetailedPeerCertificate): Buffer[] {
  const out: Buffer[] = [];
  const seen = new Set<object>([peer]);
  for (let c = peer.issuerCertificate; c && !seen.has(c) && Object.keys(c).length > 0; c = c.issuerCertificate) {
    seen.add(c);
    out.push(c.raw);
  }
  return out;
}

/** The client certificate of a TLS connection, read once per connection. */
const peerCertificates = new WeakMap<object, ClientCertificate | null>();

function clientCertificateOf(socket: TLSSocket): ClientCertificate | undefined {
  if (!socket.encrypted) return undefined;
  const known = peerCertificates.get(socket);
  if (known !== undefined) return known ?? undefined;
  const peer = socket.getPeerCertificate();
  let cert: ClientCertificate | null = null;
  if (peer && Object.keys(peer).length > 0) {
    const subject = (peer.subject ?? {}) as unknown as Record<string, string | string[] | undefined>;
    const authorizationError = socket.authorizationError as unknown;
    cert = {
      verified: socket.authorized,
      commonName: list(subject.CN)[0] ?? '',
      organizations: list(subject.O),
      extKeyUsage: peer.ext_key_usage,
      raw: peer.raw,
    };
    // The chain as the peer sent it (and as OpenSSL completed it from the trusted CAs), each
    // certificate linked to its issuer: the authenticators look for intermediates in it.
    let intermediates: Buffer[] | undefined;
    cert.intermediates = () => (intermediates ??= issuersOf(socket.getPeerCertificate(true)));
    if (authorizationError) cert.verifyError = String(authorizationError instanceof Error ? authorizationError.message : authorizationError);
  }
  peerCertificates.set(socket, cert);
  return cert ?? undefined;
}

/**
 * One request as the filter chain sees it. What few requests need is made on first use: the
 * abort signal (see LazyAbort) and Node's per-line header table. A body stays on the wire until
 * the chain's request-body filter calls readBody().
 */
export class HTTPRequest implements IncomingAPIRequest, BodyRead {
  readonly method: string;
  url: string;
  readonly headers: IncomingHttpHeaders;
  body?: Buffer;
  readonly clientCertificate?: ClientCertificate;
  readonly remoteAddress?: string;
  /** Set for an HTTP upgrade (WebSocket) request: its connection, for CONNECT subresources. */
  upgrade?: UpgradeRequest;
  /** Bytes of the body memory budget this request holds (BodyRead). */
  reserved = 0;
  /** The body the request declared and no one has started reading yet. */
  private unread?: { length: number | undefined };
  private readonly hasBody: boolean;
  private bodyComplete = false;
  private distinct?: Record<string, string[]>;
  private release?: () => void;
  private releases?: (() => void)[];
  /** Set by startDeadline: lazyAbort is to become a child of itself on first use (see lazyAbort). */
  private deadlinePending = false;

  constructor(
    private readonly raw: IncomingMessage,
    private abort: LazyAbort,
    private readonly bodies: BodyMemoryBudget,
    /** Set when the client waits for `100 Continue` before sending its body. */
    private readonly continueTo?: ServerResponse,
  ) {
    const socket = raw.socket as TLSSocket;
    this.method = raw.method ?? 'GET';
    this.url = raw.url ?? '/';
    this.headers = raw.headers;
    this.unread = declaredBody(raw);
    this.hasBody = this.unread !== undefined;
    this.clientCertificate = clientCertificateOf(socket);
    this.remoteAddress = socket.remoteAddress;
  }

  /**
   * What aborts the request: the connection's abort, or once a deadline started (the timeout
   * filter), a child of it that the deadline aborts too, made here on first use.
   */
  get lazyAbort(): LazyAbort {
    if (this.deadlinePending) {
      this.deadlinePending = false;
      this.abort = this.abort.child();
    }
    return this.abort;
  }

  get signal(): AbortSignal {
    return this.lazyAbort.signal;
  }

  startDeadline(): void {
    this.deadlinePending = true;
  }

  passDeadline(reason: unknown): void {
    this.lazyAbort.abort(reason);
  }

  get headersDistinct(): Record<string, string[]> {
    return (this.distinct ??= this.raw.headersDistinct as Record<string, string[]>);
  }

  /** Whether part of a declared body may still be on the wire (the connection cannot be reused). */
  get bodyLeftUnread(): boolean {
    return this.hasBody && !this.bodyComplete;
  }

  readBody(): Promise<void> | undefined {
    const declared = this.unread;
    if (declared === undefined) return undefined;
    this.unread = undefined;
    // Only now is the client told to send what it held back (kube's, Go's behaviour).
    if (this.continueTo && !this.continueTo.headersSent) this.continueTo.writeContinue();
    return readBody(this.raw, declared.length, this.bodies, this, this.lazyAbort).then((body) => {
      this.bodyComplete = true;
      // Text (JSON, YAML) nested too deeply is refused before anything parses it; protobuf is
      // binary, its decoder checks what it decoded instead.
      if (!isProtobuf(this.headers['content-type']) && exceedsNestingDepth(body)) throw nestingDepthError();
      this.body = body;
    });
  }

  untilWritten(release: () => void): void {
    if (this.release === undefined) this.release = release;
    else (this.releases ??= []).push(release);
  }

  /** The response is written (or its connection closed): releases what the request held. */
  finish(): void {
    if (this.reserved > 0) {
      this.bodies.give(this.reserved);
      this.reserved = 0;
    }
    const release = this.release;
    if (release === undefined) return;
    this.release = undefined;
    release();
    const more = this.releases;
    this.releases = undefined;
    if (more) for (const r of more) r();
  }
}

/**
 * The contract of custom subresources (`@kgen:subresource custom name=… verbs=get|connect`): what
 * a user handler, loaded with `kgen serve --handlers <module>`, receives and may answer. Handlers
 * are attached to the generated registrations (`widgets.subresource('logs', {...})`) and typed
 * from the generated model.
 */
import type { UserInfo } from './auth.js';
import type { ChannelProtocol, TerminalSize } from './channels.js';

export interface SubresourceContext<T, O> {
  /** The authenticated (or impersonated) user; RBAC allowed them the subresource already. */
  user: UserInfo;
  /** The object the subresource belongs to, read after authorization (NotFound answered before). */
  object: T;
  /** The query options, as the handler's parseOptions made them (else the query as a record). */
  options: O;
  query: URLSearchParams;
  /** Aborted when the client goes away (or the server shuts down). */
  signal: AbortSignal;
}

/** A streamed body: written chunk by chunk, each flushed (as pods/log?follow=true). */
export interface StreamBody {
  readonly kind: 'kgen.stream';
  chunks: AsyncIterable<string | Uint8Array>;
  contentType: string;
}

/** Answers a GET with a body streamed from `chunks` (text/plain unless said otherwise). */
export function streamBody(chunks: AsyncIterable<string | Uint8Array>, contentType = 'text/plain'): StreamBody {
  return { kind: 'kgen.stream', chunks, contentType };
}

export function isStreamBody(value: unknown): value is StreamBody {
  return typeof value === 'object' && value !== null && (value as Partial<StreamBody>).kind === 'kgen.stream';
}

/** The server's side of a CONNECT (WebSocket with a Kubernetes channel protocol). */
export interface ChannelSession {
  readonly protocol: ChannelProtocol;
  /** What the client writes to channel 0; ends when the client closes stdin (v5) or the socket. */
  readonly stdin: AsyncIterable<Buffer>;
  readonly stdout: { write(data: string | Uint8Array): void };
  readonly stderr: { write(data: string | Uint8Array): void };
  /** Terminal size changes the client sends on the resize channel. */
  onResize(listener: (size: TerminalSize) => void): void;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
}

export interface SubresourceHandler<T, O = Record<string, string>> {
  /** Makes the typed options from the query (throw a StatusError for a bad one: 400). */
  parseOptions?(query: URLSearchParams): O;
  /** `verbs=get`: an object (JSON), or streamBody(…). */
  get?(ctx: SubresourceContext<T, O>): unknown;
  /**
   * `verbs=connect`: runs the session; when it resolves the server sends a Success Status on the
   * error channel and closes, when it throws a Failure Status with the error's message.
   */
  connect?(ctx: SubresourceContext<T, O>, session: ChannelSession): void | Promise<void>;
}

/**
 * Reading request bodies, after the filter chain has authenticated and authorized the request
 * (kube reads a body in the handler, behind every filter). Three bounds hold while a body is read:
 *
 * - its size: at most MAX_REQUEST_BODY_BYTES (kube's --max-request-bytes, 3 MiB); a declared
 *   Content-Length over it is refused with 413 before a byte is read;
 * - its time: the request's deadline (the timeout filter's signal) aborts the read;
 * - the memory of every body being read or held at once: a global BodyMemoryBudget. A body that
 *   does not fit is refused with 429 and Retry-After, as the in-flight limits refuse requests.
 *   A declared length is reserved up front; a chunked body reserves what has arrived.
 *
 * What a request reserved is given back when its response has been written (HTTPRequest.finish).
 */
import type { IncomingMessage } from 'node:http';
import { statusError } from '../api/status.js';

/** kube-apiserver's default --max-request-bytes for JSON/YAML bodies: 3 MiB. */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

/** Default memory all request bodies being read or held at once may take: 64 MiB. */
export const DEFAULT_MAX_REQUEST_BODY_MEMORY_BYTES = 64 * 1024 * 1024;

export function requestEntityTooLarge() {
  return statusError('RequestEntityTooLarge', `Request entity too large: limit is ${MAX_REQUEST_BODY_BYTES}`);
}

function bodyBudgetExhausted() {
  return statusError('TooManyRequests', 'Too many request bodies are being read, please try again later.', { retryAfterSeconds: 1 });
}

/** The bytes of request bodies held at once, across all connections. A limit of 0 means no limit. */
export class BodyMemoryBudget {
  held = 0;
  constructor(readonly limit: number = DEFAULT_MAX_REQUEST_BODY_MEMORY_BYTES) {}

  /** Reserves n bytes; false (and nothing reserved) when they do not fit. */
  take(n: number): boolean {
    if (this.limit > 0 && this.held + n > this.limit) return false;
    this.held += n;
    return true;
  }

  give(n: number): void {
    this.held -= n;
  }
}

/**
 * Whether the request carries a body (a non-zero Content-Length, or chunked). Node's parser
 * enforces Content-Length, so a body never exceeds what was declared.
 */
export function declaredBody(req: IncomingMessage): { length: number | undefined } | undefined {
  const length = req.headers['content-length'];
  if (length !== undefined) {
    const n = Number(length);
    return n > 0 ? { length: n } : undefined;
  }
  return req.headers['transfer-encoding'] !== undefined ? { length: undefined } : undefined;
}

/** A body being read; `reserved` is what it holds of the budget until released. */
export interface BodyRead {
  reserved: number;
}

/** What a body read stops on: the request's LazyAbort (server/filters/context.ts), which makes no AbortSignal for it. */
export interface AbortSource {
  readonly aborted: boolean;
  readonly reason: unknown;
  /** Calls listener with the reason when it aborts; returns the listener's removal. */
  onAbort(listener: (reason: unknown) => void): () => void;
}

/**
 * Reads req's body within the bounds above. Rejects with a StatusError (413, 429) or the
 * abort's reason; on any rejection the rest of the body is left unread, and the caller closes
 * the connection after answering (see linger.ts).
 */
export function readBody(req: IncomingMessage, declaredLength: number | undefined, budget: BodyMemoryBudget, read: BodyRead, abort: AbortSource): Promise<Buffer> {
  if (declaredLength !== undefined && declaredLength > MAX_REQUEST_BODY_BYTES) return Promise.reject(requestEntityTooLarge());
  if (declaredLength !== undefined) {
    if (!budget.take(declaredLength)) return Promise.reject(bodyBudgetExhausted());
    read.reserved += declaredLength;
  }
  if (abort.aborted) return Promise.reject(abort.reason);
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = (err: unknown) => {
      cleanup();
      // Bytes still arriving are discarded, not buffered, until the connection closes.
      chunks.length = 0;
      req.resume();
      reject(err);
    };
    const stopListening = abort.onAbort(stop);
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_REQUEST_BODY_BYTES) return stop(requestEntityTooLarge());
      if (declaredLength === undefined) {
        if (!budget.take(chunk.length)) return stop(bodyBudgetExhausted());
        read.reserved += chunk.length;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
    };
    const onClose = () => stop(statusError('BadRequest', 'the client closed the connection before sending the whole request body'));
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onClose);
      req.off('aborted', onClose);
      stopListening();
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onClose);
    req.on('aborted', onClose);
  });
}

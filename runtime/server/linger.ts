/**
 * Closing a connection whose request body was left unread: the request was refused before its
 * body was read (401, 403, 413, 429, …) or while it was read. The connection cannot be reused
 * (the rest of the body is still on its way), and must not stay open for a client that never
 * finishes sending (an unauthenticated client must not hold a connection open).
 *
 * Node ends a `Connection: close` response with socket.destroySoon(): the socket is destroyed as
 * soon as the response is flushed. Bytes the client is still sending then reach a closed socket
 * and the kernel answers with RST, and the client reports "connection reset" instead of the
 * response (a 413 is never seen). Go's server avoids that by half-closing and waiting
 * (closeWriteAndWait). Here, likewise: after the response the socket half-closes, what still
 * arrives is read and discarded (Node dumps the unread request), and the socket is destroyed when
 * the client closes its side or after LINGER_MS at most.
 */
import type { Socket } from 'node:net';

/** How long a refused connection may keep sending (discarded) after its response: 1 s. */
export const LINGER_MS = 1_000;

function lingeringDestroySoon(this: Socket): void {
  if (this.destroyed) return;
  if (this.writable) this.end();
  const timer = setTimeout(() => this.destroy(), LINGER_MS);
  timer.unref();
  this.once('close', () => clearTimeout(timer));
  // Node dumps the unread request body (it is discarded, not buffered); once the client has
  // closed its side there is nothing left to wait for.
  this.once('end', () => this.destroy());
  this.resume();
}

/**
 * Makes the close after the current response linger (see above) instead of destroying at once.
 * A response whose connection is already gone (`res.socket` is null once the client has closed)
 * has nothing to linger on.
 */
export function lingerOnClose(socket: Socket | null): void {
  if (!socket || socket.destroyed) return;
  // destroySoon is what node:http calls after a `Connection: close` response; an own property
  // on this one socket replaces it for this connection only.
  (socket as Socket & { destroySoon: () => void }).destroySoon = lingeringDestroySoon;
}

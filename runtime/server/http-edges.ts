/**
 * Answers given on a raw socket, where no ServerResponse speaks: requests node's HTTP parser
 * refuses (malformed, headers over 16 KiB, deadlines) and CONNECT. Each is a Status, and the
 * connection closes.
 */
import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Status } from '../api/meta.js';
import { newStatus } from '../api/status.js';

/** A raw HTTP/1.1 answer with a Status, for sockets no ServerResponse speaks on; the connection closes. */
function rawStatusAnswer(status: Status, withBody: boolean): string {
  const body = JSON.stringify(status);
  const head = `HTTP/1.1 ${status.code} ${STATUS_CODES[status.code]}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
  return withBody ? head + body : head;
}

/**
 * Requests Node's HTTP parser refuses before the chain sees them (malformed request lines, unknown
 * methods, headers over 16 KiB, timeouts): answered with a Status and `Connection: close`, since
 * the connection cannot be reused after a parse error. A header overflow is 431, whose Status has
 * no reason (kube's table has none for 431: StatusReasonUnknown), and a HEAD gets no body.
 */
export function clientErrorHandler(err: { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // A response already under way on this connection cannot be followed by another one.
  const inProgress = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (!socket.writable || inProgress?.headersSent) {
    socket.destroy();
    return;
  }
  let status: Status;
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'request header fields too large', code: 431 };
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = newStatus('Timeout', 'request timeout: the request was not received in time', undefined, 408);
  } else {
    status = newStatus('BadRequest', 'malformed HTTP request');
  }
  const head = Buffer.isBuffer(err.rawPacket) && err.rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(rawStatusAnswer(status, !head));
}

/**
 * CONNECT: no resource has a connect subresource that tunnels here, so it is answered as kube
 * answers a method a resource does not serve: 405 MethodNotAllowed, and the connection closes.
 */
export function connectHandler(_req: IncomingMessage, socket: Duplex): void {
  const status = newStatus('MethodNotAllowed', 'the server does not allow this method on the requested resource');
  socket.on('error', () => undefined);
  socket.end(rawStatusAnswer(status, true));
}

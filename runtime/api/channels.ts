/**
 * Kubernetes' WebSocket channel protocols (k8s.io/apimachinery pkg/util/httpstream/wsstream and
 * the remotecommand subprotocols), shared by the server's CONNECT subresources and the client:
 * every binary message is one channel byte followed by that channel's data.
 *
 *   v4.channel.k8s.io  channels 0 stdin, 1 stdout, 2 stderr, 3 error (a metav1.Status as JSON,
 *                      sent once at the end), 4 resize ({"Width":w,"Height":h})
 *   v5.channel.k8s.io  v4 plus the close signal: [255, channel] half-closes that channel
 *                      (kubectl sends [255, 0] when stdin ends)
 */

export const CHANNEL_PROTOCOL_V5 = 'v5.channel.k8s.io';
export const CHANNEL_PROTOCOL_V4 = 'v4.channel.k8s.io';
/** In preference order. */
export const CHANNEL_PROTOCOLS = [CHANNEL_PROTOCOL_V5, CHANNEL_PROTOCOL_V4] as const;
export type ChannelProtocol = (typeof CHANNEL_PROTOCOLS)[number];

export const STDIN = 0;
export const STDOUT = 1;
export const STDERR = 2;
export const ERROR_CHANNEL = 3;
export const RESIZE = 4;
/** v5: the message [CLOSE_SIGNAL, channel] closes `channel` for writing. */
export const CLOSE_SIGNAL = 255;

export interface TerminalSize {
  width: number;
  height: number;
}

/** One message: the channel byte, then the data. */
export function encodeFrame(channel: number, data: string | Uint8Array): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const frame = Buffer.allocUnsafe(body.length + 1);
  frame[0] = channel;
  body.copy(frame, 1);
  return frame;
}

/** The channel and data of a message; undefined for an empty one. */
export function decodeFrame(message: Buffer): { channel: number; data: Buffer } | undefined {
  if (message.length === 0) return undefined;
  return { channel: message[0]!, data: message.subarray(1) };
}

/** The server's choice among the client's offered subprotocols: v5, else v4. */
export function negotiateChannelProtocol(offered: Iterable<string>): ChannelProtocol | undefined {
  const set = new Set(offered);
  return CHANNEL_PROTOCOLS.find((p) => set.has(p));
}

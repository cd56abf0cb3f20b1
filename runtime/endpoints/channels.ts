/**
 * Accepting a CONNECT subresource's WebSocket upgrade and running a user's session over
 * Kubernetes' channel protocol (runtime/api/channels.ts), as kube's wsstream does for pods/exec:
 * v5.channel.k8s.io preferred, v4.channel.k8s.io as fallback; at the end one metav1.Status on the
 * error channel, then a normal close.
 */
import { createRequire } from 'node:module';
import type { WebSocket, WebSocketServer } from 'ws';
import {
  CLOSE_SIGNAL,
  CHANNEL_PROTOCOL_V5,
  decodeFrame,
  encodeFrame,
  ERROR_CHANNEL,
  negotiateChannelProtocol,
  RESIZE,
  STDERR,
  STDIN,
  STDOUT,
  type ChannelProtocol,
  type TerminalSize,
} from '../api/channels.js';
import { newStatus, statusError } from '../api/status.js';
import type { ChannelSession } from '../api/subresources.js';
import type { StreamResponse, UpgradeRequest } from './handler.js';
import { upgradedResponse } from './upgraded.js';

let upgradeServer: WebSocketServer | undefined;

/**
 * One server for every upgrade: it owns no listener (noServer), only the handshake. Made (and ws,
 * 14 modules, loaded) on the first upgrade, not at start-up: most servers never see one.
 */
function upgrades(): WebSocketServer {
  if (!upgradeServer) {
    const ws = createRequire(import.meta.url)('ws') as typeof import('ws');
    upgradeServer = new ws.WebSocketServer({
      noServer: true,
      // The client's offer decides nothing: v5 if offered, else v4; none of them fails the handshake.
      handleProtocols: (offered: Set<string>) => negotiateChannelProtocol(offered) ?? false,
      maxPayload: 16 * 1024 * 1024,
    });
  }
  return upgradeServer;
}

/** Whether the upgrade offers a channel protocol this server speaks. */
export function offersChannelProtocol(upgrade: UpgradeRequest): boolean {
  const header = upgrade.request.headers['sec-websocket-protocol'];
  const offered = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((p) => p.trim());
  return negotiateChannelProtocol(offered) !== undefined;
}

export function badUpgrade(message: string) {
  return statusError('BadRequest', message);
}

/** An async iterable fed by push(), ended by end(). */
class Inbox<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting?: (r: IteratorResult<T>) => void;
  private ended = false;

  push(item: T): void {
    if (this.ended) return;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = undefined;
      w({ value: item, done: false });
    } else this.items.push(item);
  }

  end(): void {
    this.ended = true;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = undefined;
      w({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.items.length > 0) return Promise.resolve({ value: this.items.shift()!, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiting = resolve));
      },
    };
  }
}

/**
 * Completes the WebSocket handshake and runs `run` with the session. The answer is a 101
 * StreamResponse that produces no chunks and ends when the socket closes: the filter chain sees
 * the request as long-running until then (metrics, audit), and close() ends the session (server
 * shutdown).
 */
export function acceptChannelSession(upgrade: UpgradeRequest, run: (session: ChannelSession) => void | Promise<void>): Promise<StreamResponse> {
  return new Promise((resolve) => {
    upgrades().handleUpgrade(upgrade.request, upgrade.socket, upgrade.head, (ws) => {
      const done = new Promise<void>((closed) => ws.once('close', () => closed()));
      const response = upgradedResponse(done, () => {
        if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(1001, 'server shutting down');
      });
      resolve(response);
      runSession(ws, run, done);
    });
  });
}

function runSession(ws: WebSocket, run: (session: ChannelSession) => void | Promise<void>, closed: Promise<void>): void {
  const protocol = ws.protocol as ChannelProtocol;
  const stdin = new Inbox<Buffer>();
  const abort = new AbortController();
  const resizeListeners: ((size: TerminalSize) => void)[] = [];
  void closed.then(() => {
    stdin.end();
    abort.abort();
  });
  ws.on('message', (raw, isBinary) => {
    const message = Buffer.isBuffer(raw) ? raw : Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw as ArrayBuffer);
    if (!isBinary) return;
    const frame = decodeFrame(message);
    if (!frame) return;
    if (frame.channel === STDIN) stdin.push(Buffer.from(frame.data));
    else if (frame.channel === RESIZE) {
      try {
        const size = JSON.parse(frame.data.toString('utf8')) as { Width?: number; Height?: number };
        for (const l of resizeListeners) l({ width: Number(size.Width ?? 0), height: Number(size.Height ?? 0) });
      } catch {
        // A malformed resize message is ignored, as kube's terminal size queue does.
      }
    } else if (frame.channel === CLOSE_SIGNAL && protocol === CHANNEL_PROTOCOL_V5 && frame.data[0] === STDIN) stdin.end();
  });
  const writer = (channel: number) => ({
    write(data: string | Uint8Array) {
      if (ws.readyState === ws.OPEN) ws.send(encodeFrame(channel, data));
    },
  });
  const session: ChannelSession = {
    protocol,
    stdin,
    stdout: writer(STDOUT),
    stderr: writer(STDERR),
    onResize: (listener) => void resizeListeners.push(listener),
    signal: abort.signal,
  };
  const finish = (status: object) => {
    if (ws.readyState !== ws.OPEN) return;
    ws.send(encodeFrame(ERROR_CHANNEL, JSON.stringify(status)));
    ws.close(1000);
  };
  Promise.resolve()
    .then(() => run(session))
    .then(
      () => finish({ metadata: {}, status: 'Success' }),
      (err: unknown) => finish({ ...newStatus('InternalError', err instanceof Error ? err.message : String(err), undefined, 500), reason: 'InternalError' }),
    );
}

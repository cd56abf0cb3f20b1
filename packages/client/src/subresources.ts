/**
 * Typed access to custom subresources (`@kgen:subresource custom`): a `get` subresource is read
 * as an async iterable of text chunks as they arrive (pods/log?follow=true style; breaking out of
 * the loop or aborting ends the request), a `connect` one opens a WebSocket speaking
 * v5.channel.k8s.io (v4 as fallback) and hands back a duplex ChannelConnection.
 *
 * Generated clients attach one method per subresource (`widgets.logs(name, opts)`,
 * `widgets.console(name)`) with withSubresources.
 */
import {
  CHANNEL_PROTOCOLS,
  CLOSE_SIGNAL,
  decodeFrame,
  encodeFrame,
  ERROR_CHANNEL,
  RESIZE,
  STDERR,
  STDIN,
  STDOUT,
} from '../../../runtime/api/channels.js';
import type { APIObject, Status } from '../../../runtime/api/meta.js';
import type { Query } from './rest.js';
import type { ResourceClient } from './resource.js';

export interface SubresourceStreamOptions {
  query?: Query;
  signal?: AbortSignal;
}

/** Reads a `get` subresource: each chunk as the server flushed it. */
export async function* readSubresource(client: ResourceClient<APIObject>, name: string, subresource: string, opts: SubresourceStreamOptions = {}): AsyncIterable<string> {
  const res = await client.rest.stream({ method: 'GET', path: client.itemPath(name, undefined, subresource as never), query: opts.query, accept: '*/*', signal: opts.signal });
  // Chunks are bytes (node:http) or text (fetch); a streaming decoder keeps multi-byte characters
  // split across chunks whole.
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res) {
      const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      if (text !== '') yield text;
    }
    const rest = decoder.decode();
    if (rest !== '') yield rest;
  } finally {
    res.destroy();
  }
}

/** The client's side of a CONNECT subresource session. */
export interface ChannelConnection {
  /** The negotiated subprotocol: v5.channel.k8s.io, or v4.channel.k8s.io. */
  readonly protocol: string;
  readonly stdout: AsyncIterable<Buffer>;
  readonly stderr: AsyncIterable<Buffer>;
  writeStdin(data: string | Uint8Array): void;
  /** v5: tells the server stdin ended ([255, 0]); v4 has no such signal (close() instead). */
  closeStdin(): void;
  resize(width: number, height: number): void;
  /** The Status the server sent on the error channel (Success or Failure) once the session ended. */
  readonly status: Promise<Status>;
  close(): void;
}

class Channel implements AsyncIterable<Buffer> {
  private readonly items: Buffer[] = [];
  private waiting?: (r: IteratorResult<Buffer>) => void;
  private ended = false;
  push(b: Buffer): void {
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = undefined;
      w({ value: b, done: false });
    } else this.items.push(b);
  }
  end(): void {
    this.ended = true;
    const w = this.waiting;
    this.waiting = undefined;
    w?.({ value: undefined, done: true });
  }
  [Symbol.asyncIterator](): AsyncIterator<Buffer> {
    return {
      next: () => {
        if (this.items.length > 0) return Promise.resolve({ value: this.items.shift()!, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiting = resolve));
      },
    };
  }
}

export interface ConnectOptions {
  query?: Query;
  /** Offered subprotocols, in preference order; default v5 then v4. */
  protocols?: string[];
}

/**
 * Opens a CONNECT subresource over a WebSocket with the client's credentials. The `ws` package is
 * loaded here, not when the client is imported: a program (or a bundle) that never connects does
 * not evaluate it.
 */
export async function connectSubresource(client: ResourceClient<APIObject>, name: string, subresource: string, opts: ConnectOptions = {}): Promise<ChannelConnection> {
  const { default: WebSocket } = await import('ws');
  const config = client.rest.config;
  const url = client.rest.url(client.itemPath(name, undefined, subresource as never), opts.query);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(url, opts.protocols ?? [...CHANNEL_PROTOCOLS], {
    ca: config.ca,
    cert: config.cert,
    key: config.key,
    rejectUnauthorized: !config.insecureSkipTLSVerify,
    headers: config.token ? { Authorization: `Bearer ${config.token}` } : {},
  });
  const stdout = new Channel();
  const stderr = new Channel();
  let resolveStatus!: (s: Status) => void;
  const status = new Promise<Status>((resolve) => (resolveStatus = resolve));
  ws.on('message', (raw: Buffer) => {
    const frame = decodeFrame(Buffer.isBuffer(raw) ? raw : Buffer.from(raw as ArrayBuffer));
    if (!frame) return;
    if (frame.channel === STDOUT) stdout.push(Buffer.from(frame.data));
    else if (frame.channel === STDERR) stderr.push(Buffer.from(frame.data));
    else if (frame.channel === ERROR_CHANNEL) resolveStatus(JSON.parse(frame.data.toString('utf8')) as Status);
  });
  ws.on('close', () => {
    stdout.end();
    stderr.end();
    resolveStatus({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the connection closed without a status' } as Status);
  });
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => reject(Object.assign(new Error(`HTTP ${res.statusCode}: ${Buffer.concat(chunks).toString('utf8')}`), { statusCode: res.statusCode })));
    });
    ws.once('error', reject);
    ws.once('open', () => {
      resolve({
        protocol: ws.protocol,
        stdout,
        stderr,
        status,
        writeStdin: (data) => ws.send(encodeFrame(STDIN, data)),
        closeStdin: () => ws.send(Buffer.from([CLOSE_SIGNAL, STDIN])),
        resize: (width, height) => ws.send(encodeFrame(RESIZE, JSON.stringify({ Width: width, Height: height }))),
        close: () => ws.close(1000),
      });
    });
  });
}

export type SubresourceMethods<G extends string, C extends string> = {
  [K in G]: (name: string, opts?: SubresourceStreamOptions) => AsyncIterable<string>;
} & {
  [K in C]: (name: string, opts?: ConnectOptions) => Promise<ChannelConnection>;
};

/** `getters` and `connectors` map a method name to its subresource (e.g. `{ logs: 'logs' }`). */
export function withSubresources<T extends APIObject, G extends string, C extends string>(
  client: ResourceClient<T>,
  getters: Record<G, string>,
  connectors: Record<C, string>,
): ResourceClient<T> & SubresourceMethods<G, C> {
  const methods: Record<string, unknown> = {};
  const base = client as unknown as ResourceClient<APIObject>;
  for (const [method, sub] of Object.entries<string>(getters)) methods[method] = (name: string, opts?: SubresourceStreamOptions) => readSubresource(base, name, sub, opts);
  for (const [method, sub] of Object.entries<string>(connectors)) methods[method] = (name: string, opts?: ConnectOptions) => connectSubresource(base, name, sub, opts);
  return Object.assign(client, methods) as ResourceClient<T> & SubresourceMethods<G, C>;
}

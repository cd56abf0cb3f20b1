/**
 * A small HTTPS client for tests against a server with TLS: trusts the server's CA and
 * authenticates with a bearer token, a client certificate, or nothing. Watches are answered by
 * their status line only (the stream is closed once the headers arrive).
 */
import { Agent, request as httpsRequest } from 'node:https';

export interface Credentials {
  token?: string;
  cert?: string;
  key?: string;
}

export interface Reply {
  status: number;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface RequestOptions {
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  /** Resolve on the response headers and close the stream (for watches). */
  headersOnly?: boolean;
}

export type Requester = (method: string, path: string, opts?: RequestOptions) => Promise<Reply>;

export function httpsClient(baseURL: string, ca: string, creds: Credentials = {}): { request: Requester; close(): void } {
  const agent = new Agent({ keepAlive: true, ca, cert: creds.cert, key: creds.key, maxSockets: 8 });
  const request: Requester = (method, path, opts = {}) =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = { accept: 'application/json', ...(opts.headers ?? {}) };
      if (creds.token) headers.authorization = `Bearer ${creds.token}`;
      let payload: string | Uint8Array | undefined;
      if (opts.body !== undefined) {
        payload = typeof opts.body === 'string' || opts.body instanceof Uint8Array ? opts.body : JSON.stringify(opts.body);
        headers['content-type'] = opts.contentType ?? 'application/json';
      }
      const req = httpsRequest(new URL(path, baseURL), { method, headers, agent }, (res) => {
        if (opts.headersOnly && res.statusCode === 200) {
          res.destroy();
          resolve({ status: 200, text: '', body: undefined });
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, text, body });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  return { request, close: () => agent.destroy() };
}

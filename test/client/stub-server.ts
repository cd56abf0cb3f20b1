/**
 * A node:http stub API server for client tests: records every request (body included) and
 * answers through a handler the test supplies. Listens on 127.0.0.1, port 0.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type StubHandler = (req: RecordedRequest, res: ServerResponse, raw: IncomingMessage) => void | Promise<void>;

export interface Stub {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startStub(handler: StubHandler): Promise<Stub> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer(async (raw, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of raw) chunks.push(chunk as Buffer);
    const url = new URL(raw.url ?? '/', 'http://stub');
    const recorded: RecordedRequest = {
      method: raw.method ?? '',
      url: raw.url ?? '',
      path: url.pathname,
      query: url.searchParams,
      headers: raw.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    requests.push(recorded);
    try {
      await handler(recorded, res, raw);
    } catch (err) {
      res.statusCode = 599;
      res.end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends a JSON body with a status code. */
export function sendJSON(res: ServerResponse, code: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(code, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Echoes the request back as JSON, so a test can see what the client sent. */
export const echo: StubHandler = (req, res) => {
  sendJSON(res, 200, { method: req.method, url: req.url, body: req.body ? JSON.parse(req.body) : undefined });
};

/**
 * The in-process chain that chain-cpu.ts and chain-allocs.ts drive: a server over the test fixture
 * (memory storage, insecure dev mode, no controllers) holding one Widget (`get`) or 500 (`list`),
 * and the HTTP server's private parts (`serveRequest`, the body budget), found by the first request
 * it serves, so a tool can call the chain on a fake request the way node:http hands one over.
 */
import type { RequestServer } from '../../runtime/server/filters/chain.js';
import { HTTPServer } from '../../runtime/server/http.js';
import type { BodyMemoryBudget } from '../../runtime/server/body.js';
import { startTestServer, widget, WIDGETS } from '../../test/server/testserver.js';

/** The HTTPServer's private parts the tools drive. */
export interface ServerInternals {
  serveRequest: RequestServer;
  bodies: BodyMemoryBudget;
}

export interface ChainFixture {
  internals: ServerInternals;
  /** The path a request asks for: one Widget, or the list of 500 from the watch cache. */
  path: string;
  socket: { remoteAddress: string; timeout: number; setTimeout(): void };
  headers: Record<string, string>;
  close(): Promise<void>;
}

export async function startChainFixture(scenario: string, userAgent: string): Promise<ChainFixture> {
  // The HTTPServer is made inside startServer: the first request served tells which one it is.
  let server: ServerInternals | undefined;
  const proto = HTTPServer.prototype as unknown as { serveRaw(this: ServerInternals, ...args: unknown[]): void };
  const serveRaw = proto.serveRaw;
  proto.serveRaw = function (this: ServerInternals, ...args: unknown[]) {
    server = this;
    return serveRaw.apply(this, args);
  };
  const t = await startTestServer({ controllers: false });
  for (let i = 0; i < (scenario === 'list' ? 500 : 1); i++) {
    const r = await t.request('POST', WIDGETS, { body: widget(`w${i}`) });
    if (r.status !== 201) throw new Error(`create: ${r.status} ${r.text}`);
  }
  const path = scenario === 'list' ? `${WIDGETS}?resourceVersion=0` : `${WIDGETS}/w0`;
  if ((await t.request('GET', path)).status !== 200) throw new Error(`GET ${path} failed`);
  proto.serveRaw = serveRaw;
  return {
    internals: server!,
    path,
    socket: { remoteAddress: '127.0.0.1', timeout: 0, setTimeout() {} },
    headers: { host: '127.0.0.1:6443', accept: 'application/json', 'user-agent': userAgent, connection: 'keep-alive' },
    close: () => t.close(),
  };
}

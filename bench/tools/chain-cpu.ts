/**
 * CPU per request of kgen's request path without a socket: a server over the test fixture (memory
 * storage, insecure dev mode) is started in this process, and the HTTP server's chain
 * (`serveRequest`: the filters, the handler, the store) is called on a fake request in a tight
 * loop, the way a GET or a LIST arrives from node:http. Precise enough to compare two commits on
 * a busy machine (run it in each worktree, alternately).
 *
 *   node --conditions=kgen:source --import tsx bench/tools/chain-cpu.ts [get|list] [--requests n] [--rounds n] [--thrash-kb n]
 *
 * --thrash-kb reads that much other memory between two requests (and reports what the reading
 * alone costs): on a socket the kernel's and node's work between requests empties the CPU caches,
 * and the chain then costs several times what it costs in a warm tight loop.
 *
 * Prints one JSON line: µs of CPU per request for each round, and their median.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { IncomingMessage } from 'node:http';
import type { APIResponse } from '../../runtime/endpoints/handler.js';
import type { RequestServer } from '../../runtime/server/filters/chain.js';
import { LazyAbort } from '../../runtime/server/filters/context.js';
import { HTTPServer } from '../../runtime/server/http.js';
import { HTTPRequest } from '../../runtime/server/http-request.js';
import type { BodyMemoryBudget } from '../../runtime/server/body.js';
import { startTestServer, widget, WIDGETS } from '../../test/server/testserver.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { requests: { type: 'string', default: '60000' }, rounds: { type: 'string', default: '7' }, 'thrash-kb': { type: 'string', default: '0' } },
});
const scenario = positionals[0] ?? 'get';
const requests = Number(values.requests);
const rounds = Number(values.rounds);
const thrash = new Uint32Array(Number(values['thrash-kb']) * 256);

/** The HTTPServer's private parts this tool drives. */
interface ServerInternals {
  serveRequest: RequestServer;
  bodies: BodyMemoryBudget;
}

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
const internals = server!;

const socket = { remoteAddress: '127.0.0.1', timeout: 0, setTimeout() {} };
const headers = { host: '127.0.0.1:6443', accept: 'application/json', 'user-agent': 'chain-cpu', connection: 'keep-alive' };
let sink = 0;

function one(): APIResponse | Promise<APIResponse> {
  if (thrash.length > 0) for (let i = 0; i < thrash.length; i += 16) sink += thrash[i]!;
  const raw = { method: 'GET', url: path, headers, socket } as unknown as IncomingMessage;
  const request = new HTTPRequest(raw, new LazyAbort(), internals.bodies);
  const result = internals.serveRequest(request);
  if (result instanceof Promise) return result.then((response) => (request.finish(), response));
  request.finish();
  return result;
}

async function round(work: () => unknown): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < requests; i++) {
    const r = work();
    if (r instanceof Promise) await r;
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / requests;
}

const first = await one();
if (first.code !== 200) throw new Error(`${path}: ${first.code}`);
const load0 = loadavg()[0]!;
const perRequest: number[] = [];
const thrashOnly: number[] = [];
for (let r = 0; r < rounds; r++) {
  perRequest.push(await round(one));
  if (thrash.length > 0) thrashOnly.push(await round(() => {
    for (let i = 0; i < thrash.length; i += 16) sink += thrash[i]!;
  }));
}
await t.close();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round2 = (x: number) => Math.round(x * 100) / 100;
console.log(
  JSON.stringify({
    scenario,
    cpuMicrosPerRequest: perRequest.map(round2),
    median: round2(median(perRequest)),
    ...(thrash.length > 0 ? { thrashOnlyMedian: round2(median(thrashOnly)), chainMedian: round2(median(perRequest) - median(thrashOnly)) } : {}),
    load: [load0, loadavg()[0]!].map(round2),
    sink: sink === -1 ? sink : undefined,
  }),
);
process.exit(0);

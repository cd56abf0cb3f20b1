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
import { LazyAbort } from '../../runtime/server/filters/context.js';
import { HTTPRequest } from '../../runtime/server/http-request.js';
import { startChainFixture } from './chain-fixture.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { requests: { type: 'string', default: '60000' }, rounds: { type: 'string', default: '7' }, 'thrash-kb': { type: 'string', default: '0' } },
});
const scenario = positionals[0] ?? 'get';
const requests = Number(values.requests);
const rounds = Number(values.rounds);
const thrash = new Uint32Array(Number(values['thrash-kb']) * 256);

const fixture = await startChainFixture(scenario, 'chain-cpu');
const { internals, path, socket, headers } = fixture;
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
await fixture.close();
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

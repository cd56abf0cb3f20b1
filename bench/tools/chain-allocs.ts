/**
 * Where kgen's request path allocates: the chain of chain-cpu.ts (a server over the test fixture,
 * memory storage, insecure dev mode, the chain called on a fake request in a tight loop), under
 * V8's sampling heap profiler with every object kept in the sample (collected ones included).
 *
 *   node --conditions=kgen:source --import tsx bench/tools/chain-allocs.ts [get|list] [--requests n] [--top n]
 *
 * Prints bytes allocated per request, then the allocation sites (function, file:line) with their
 * bytes per request, largest first. Sampled: the figures are estimates (±10 % for the sites
 * above ~100 bytes per request at the default 20,000 requests).
 */
import { parseArgs } from 'node:util';
import type { IncomingMessage } from 'node:http';
import { LazyAbort } from '../../runtime/server/filters/context.js';
import { HTTPRequest } from '../../runtime/server/http-request.js';
import { allocationSites, printSites } from './alloc-sites.js';
import { startChainFixture } from './chain-fixture.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { requests: { type: 'string', default: '20000' }, top: { type: 'string', default: '30' } },
});
const scenario = positionals[0] ?? 'get';
const requests = Number(values.requests);

const fixture = await startChainFixture(scenario, 'chain-allocs');
const { internals, path, socket, headers } = fixture;

async function one(): Promise<void> {
  const raw = { method: 'GET', url: path, headers, socket } as unknown as IncomingMessage;
  const request = new HTTPRequest(raw, new LazyAbort(), internals.bodies);
  const result = internals.serveRequest(request);
  if (result instanceof Promise) await result;
  request.finish();
}
for (let i = 0; i < 5000; i++) await one();

const allocations = await allocationSites(async () => {
  for (let i = 0; i < requests; i++) await one();
});
await fixture.close();
printSites(scenario, requests, Number(values.top), allocations);
process.exit(0);

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
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import type { IncomingMessage } from 'node:http';
import { LazyAbort } from '../../runtime/server/filters/context.js';
import { HTTPRequest } from '../../runtime/server/http-request.js';
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

interface Node {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: Node[];
}
const session = new Session();
session.connect();
await session.post('HeapProfiler.startSampling', { samplingInterval: 128, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
for (let i = 0; i < requests; i++) await one();
const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: Node } };
await fixture.close();

const sites = new Map<string, number>();
let total = 0;
const walk = (node: Node) => {
  if (node.selfSize > 0) {
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(runtime|node_modules|test|bench)\//, '$1/')}:${f.lineNumber + 1}`;
    sites.set(key, (sites.get(key) ?? 0) + node.selfSize);
    total += node.selfSize;
  }
  for (const child of node.children) walk(child);
};
walk(profile.head);
console.log(`${scenario}: ${Math.round(total / requests)} bytes per request (${requests} requests)`);
for (const [site, bytes] of [...sites].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) {
  console.log(`${String(Math.round(bytes / requests)).padStart(7)}  ${site}`);
}
process.exit(0);

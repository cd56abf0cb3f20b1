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
import type { RequestServer } from '../../runtime/server/filters/chain.js';
import { LazyAbort } from '../../runtime/server/filters/context.js';
import { HTTPServer } from '../../runtime/server/http.js';
import { HTTPRequest } from '../../runtime/server/http-request.js';
import type { BodyMemoryBudget } from '../../runtime/server/body.js';
import { startTestServer, widget, WIDGETS } from '../../test/server/testserver.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { requests: { type: 'string', default: '20000' }, top: { type: 'string', default: '30' } },
});
const scenario = positionals[0] ?? 'get';
const requests = Number(values.requests);

interface ServerInternals {
  serveRequest: RequestServer;
  bodies: BodyMemoryBudget;
}
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
const headers = { host: '127.0.0.1:6443', accept: 'application/json', 'user-agent': 'chain-allocs', connection: 'keep-alive' };

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
await t.close();

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

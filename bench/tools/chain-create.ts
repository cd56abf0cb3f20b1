/**
 * The create path in process: `kgen serve`'s server (the bench's synthetic API set, memory storage,
 * insecure dev mode, the controllers on, as the bench runs it) started in this process, and the
 * HTTP server's chain called on fake POSTs of the bench object (distinct names), one after the
 * other. The watch event, the cache's intake and the controllers' informers run in the same turns,
 * so they are in the figures. SQLite's insert is not (memory storage: the same LogStorage).
 *
 *   node --conditions=kgen:source --import tsx bench/tools/chain-create.ts cpu|allocs [--requests n] [--rounds n] [--top n]
 *
 * cpu: µs of CPU per create for each round, and their median (one JSON line).
 * allocs: bytes allocated per create by allocation site, V8's sampling heap profiler keeping
 * every object in the sample (collected ones included); ±10 % for sites above ~100 bytes.
 * About 1.5 KB per create are the tool's own fake request (its body, emitter and headers).
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { APIResponse } from '../../runtime/endpoints/handler.js';
import { startServer } from '../../runtime/controlplane/index.js';
import { HTTPServer } from '../../runtime/server/http.js';
import { LazyAbort } from '../../runtime/server/filters/context.js';
import { HTTPRequest } from '../../runtime/server/http-request.js';
import { serverFixture } from '../lib/fixture.js';
import { makeContext } from '../lib/harness.js';
import { collectionPath, sampleObject } from '../lib/objects.js';
import { removeWorkDirs, workDir } from '../lib/paths.js';
import { FULL } from '../lib/profile.js';
import { allocationSites, printSites } from './alloc-sites.js';
import type { ServerInternals } from './chain-fixture.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { requests: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '5' }, top: { type: 'string', default: '40' } },
});
const mode = positionals[0] ?? 'cpu';
const requests = Number(values.requests);

const ctx = makeContext(FULL, workDir('chain-create'), (m) => console.error(`[chain-create] ${m}`));
const fx = await serverFixture(ctx);
let internals: ServerInternals | undefined;
const proto = HTTPServer.prototype as unknown as { serveRaw(this: ServerInternals, ...args: unknown[]): void };
const serveRaw = proto.serveRaw;
proto.serveRaw = function (this: ServerInternals, ...args: unknown[]) {
  internals = this;
  return serveRaw.apply(this, args);
};
const server = await startServer({ generatedDir: fx.generatedDir, storage: 'memory:', port: 0, insecureDevMode: true });
await fetch(`${server.url}/readyz`);
proto.serveRaw = serveRaw;
const path = collectionPath(fx.kind);
const socket = { remoteAddress: '127.0.0.1', timeout: 0, setTimeout() {} };

/** A request whose body arrives once the body reader listens (readBody adds 'aborted' last). */
class FakeRaw extends EventEmitter {
  constructor(
    readonly method: string,
    readonly url: string,
    readonly headers: Record<string, string>,
    private readonly bodyBytes: Buffer,
  ) {
    super();
  }
  readonly socket = socket;
  resume(): this {
    return this;
  }
  override on(event: string, listener: (...args: unknown[]) => void): this {
    super.on(event, listener);
    if (event === 'aborted') queueMicrotask(() => (this.emit('data', this.bodyBytes), this.emit('end')));
    return this;
  }
}

let seq = 0;
async function one(): Promise<APIResponse> {
  const body = Buffer.from(JSON.stringify(sampleObject(fx.kind, `c-${String(seq).padStart(8, '0')}`, seq++)));
  const headers = { host: '127.0.0.1', accept: 'application/json', 'content-type': 'application/json', 'content-length': String(body.length), 'user-agent': 'chain-create' };
  const raw = new FakeRaw('POST', path, headers, body) as unknown as IncomingMessage;
  const request = new HTTPRequest(raw, new LazyAbort(), internals!.bodies);
  const response = await internals!.serveRequest(request);
  request.finish();
  return response;
}
/** Lets the watch events of the last creates reach the cache and the informers. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

const first = await one();
if (first.code !== 201) throw new Error(`create: ${first.code}`);
for (let i = 0; i < 3000; i++) await one();
await settle();

const load0 = loadavg()[0]!;
const round2 = (x: number) => Math.round(x * 100) / 100;
if (mode === 'cpu') {
  const perRequest: number[] = [];
  for (let r = 0; r < Number(values.rounds); r++) {
    const before = process.cpuUsage();
    for (let i = 0; i < requests; i++) await one();
    await settle();
    const used = process.cpuUsage(before);
    perRequest.push((used.user + used.system) / requests);
  }
  const median = [...perRequest].sort((a, b) => a - b)[Math.floor(perRequest.length / 2)]!;
  console.log(JSON.stringify({ scenario: 'create', cpuMicrosPerRequest: perRequest.map(round2), median: round2(median), load: [load0, loadavg()[0]!].map(round2) }));
} else {
  const allocations = await allocationSites(async () => {
    for (let i = 0; i < requests; i++) await one();
    await settle();
  });
  printSites('create', requests, Number(values.top), allocations);
}
await server.close();
removeWorkDirs();
process.exit(0);

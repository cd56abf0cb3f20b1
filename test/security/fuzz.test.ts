/**
 * Bad input: 10,000+ generated requests that make no sense (see fuzz-requests.ts) against an
 * in-process server over keep-alive HTTP. None may get a 5xx or a stack trace, every JSON error
 * is a Status, and the server must be healthy and serving afterwards.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startTestServer, widget, WIDGETS, type TestServer } from '../server/testserver.js';
import { Fuzzer, fuzzRequest, hugeRequests, random, type FuzzRequest } from './fuzz-requests.js';

const COUNT = 10_000;
const CONCURRENCY = 16;
const SEED = 20_250_605;

interface Outcome {
  status?: number;
  contentType?: string;
  body?: string;
  error?: string;
}

function send(agent: http.Agent, base: URL, req: FuzzRequest): Promise<Outcome> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body) headers['content-length'] = req.body.length;
    const r = http.request({ host: base.hostname, port: base.port, method: req.method, path: req.path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, contentType: res.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (err) => resolve({ status: res.statusCode, error: err.message }));
    });
    r.on('error', (err) => resolve({ error: `${(err as NodeJS.ErrnoException).code ?? ''} ${err.message}` }));
    r.setTimeout(30_000, () => r.destroy(new Error('no answer within 30 s')));
    r.end(req.body);
  });
}

/** Requests Node's HTTP parser refuses itself (unknown methods, oversized headers, bodies past the limit) may see the connection closed. */
function mayBeCutOff(req: FuzzRequest): boolean {
  const standard = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND'];
  const headerBytes = Object.entries(req.headers).reduce((n, [k, v]) => n + k.length + v.length, 0);
  return !standard.includes(req.method) || headerBytes > 16_000 || (req.body?.length ?? 0) > 3 * 1024 * 1024;
}

function describeRequest(req: FuzzRequest): string {
  return `${req.method} ${req.path.slice(0, 200)} ${JSON.stringify(req.headers).slice(0, 200)} body=${req.body?.subarray(0, 200).toString('utf8') ?? ''}`;
}

describe('bad input fuzzing', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false });
    await t.request('POST', WIDGETS, { body: widget('w0') });
    await t.request('POST', '/apis/widgets.example.com/v1/gadgets', { body: { apiVersion: 'widgets.example.com/v1', kind: 'Gadget', metadata: { name: 'g0' }, spec: { size: 'small' } } });
    await t.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fz' } } });
  });
  after(() => t?.close());

  it(`answers ${COUNT} nonsensical requests without a 5xx, a stack trace or a crash`, async () => {
    const fuzzer = new Fuzzer(random(SEED));
    const requests = [...hugeRequests(), ...Array.from({ length: COUNT }, () => fuzzRequest(fuzzer))];
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const base = new URL(t.url);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const req = requests[next++]!;
        const out = await send(agent, base, req);
        if (out.status !== undefined) statuses.set(out.status, (statuses.get(out.status) ?? 0) + 1);
        if (out.error !== undefined) {
          if (!mayBeCutOff(req)) failures.push(`${describeRequest(req)} → ${out.error}`);
          continue;
        }
        if (out.status! >= 500) failures.push(`${describeRequest(req)} → ${out.status} ${out.body?.slice(0, 300)}`);
        else if (/\n\s+at .+:\d+:\d+/.test(out.body ?? '')) failures.push(`${describeRequest(req)} → stack trace in ${out.body?.slice(0, 300)}`);
        else if (out.status! >= 400 && out.contentType?.startsWith('application/json') && req.method !== 'HEAD') {
          const body = JSON.parse(out.body!) as { kind?: string; status?: string };
          if (body.kind !== 'Status' || body.status !== 'Failure') failures.push(`${describeRequest(req)} → ${out.status} without a Status: ${out.body?.slice(0, 200)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    agent.destroy();
    if (process.env.FUZZ_STATS) console.log(JSON.stringify([...statuses].sort((a, b) => a[0] - b[0])), failures.length);
    assert.deepEqual(failures.slice(0, 20), [], `${failures.length} bad answers; statuses: ${JSON.stringify([...statuses])}`);
    assert.ok([...statuses.values()].reduce((a, b) => a + b, 0) >= COUNT - 100, `most requests were answered: ${JSON.stringify([...statuses])}`);

    const ready = await t.request('GET', '/readyz');
    assert.equal(ready.status, 200);
    assert.equal((await t.request('POST', WIDGETS, { body: widget('after-fuzz') })).status, 201);
  });
});

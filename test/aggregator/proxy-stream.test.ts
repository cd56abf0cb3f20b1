/**
 * A proxied answer is copied as it comes, as kube's UpgradeAwareHandler does, through the whole
 * server (filters, audit, metrics, the HTTP writer): a 200 MB answer the backend sends slowly
 * reaches the client while the backend is still sending, without kgen holding it in memory; the
 * backend's status and headers are passed on; a backend breaking off mid-body cuts the client's
 * answer (no clean end, no second status), and a proxied watch or followed log likewise; a client going away aborts the backend request; the
 * request's deadline still applies once the headers are written; audit at RequestResponse
 * records the status code and no response object (kube records none for proxied requests).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { newCA, newSignedCertificate } from '../../runtime/controlplane/certs.js';
import { startTestServer, type TestServer } from '../server/testserver.js';

const MB = 1024 * 1024;
/** A full collection, to measure what is held rather than garbage not yet collected. */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const HUGE_BYTES = 200 * MB;
const GV = '/apis/big.example.com/v1';

let backend: Server;
/** Set when the backend wrote the last byte of /huge. */
let hugeFinished = false;
/** Resolved when the backend sees the client side of a request close before it finished. */
const backendClosed = new Map<string, Promise<void>>();
const timers = new Set<NodeJS.Timeout>();

function onClose(name: string, res: import('node:http').ServerResponse): void {
  backendClosed.set(name, new Promise<void>((resolve) => res.on('close', () => resolve())));
}

before(async () => {
  const ca = newCA('big-ca');
  const serving = newSignedCertificate(ca, { commonName: 'big', usage: 'server', hosts: ['big.default.svc', '127.0.0.1'] });
  backend = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === GV) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'big.example.com/v1', resources: [] }));
    } else if (path === `${GV}/huge`) {
      // 200 MB in 1 MiB chunks, as the socket takes them, a pause every 8 MiB: "slowly".
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-backend': 'big', 'cache-control': 'private, max-age=5' });
      const chunk = Buffer.alloc(MB, 0x61);
      let sent = 0;
      const more = () => {
        while (sent < HUGE_BYTES) {
          sent += MB;
          const last = sent >= HUGE_BYTES;
          const ok = last ? (res.end(chunk, () => (hugeFinished = true)), true) : res.write(chunk);
          if (last) return;
          if (!ok) return void res.once('drain', more);
          if (sent % (8 * MB) === 0) return void setTimeout(more, 5);
        }
      };
      more();
    } else if (path === `${GV}/broken`) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"kind":"List","items":[');
      setTimeout(() => res.destroy(), 100);
    } else if (path === `${GV}/namespaces/default/things` || path === `${GV}/namespaces/default/things/x/log`) {
      // A watch (or a followed log) that sends one event, then breaks off, or ends when asked.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"type":"ADDED","object":{"kind":"Thing","apiVersion":"big.example.com/v1","metadata":{"name":"x"}}}\n');
      setTimeout(() => (req.url?.includes('end=clean') ? res.end() : res.destroy()), 100);
    } else if (path === `${GV}/endless`) {
      // Headers and a first chunk at once, then a byte now and then for ever.
      onClose('endless', res);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      const timer = setInterval(() => res.write(' '), 50);
      timers.add(timer);
      res.on('close', () => clearInterval(timer));
    } else if (path === `${GV}/missing`) {
      res.writeHead(404, { 'content-type': 'application/json', 'x-backend': 'big' });
      res.end('{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}');
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
});

after(() => {
  for (const t of timers) clearInterval(t);
  backend.closeAllConnections();
  backend.close();
});

/** A GET through the front whose response is handed over once its headers are in. */
function get(url: string, path: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url + path, { method: 'GET' }, resolve);
    req.on('error', reject);
    req.end();
  });
}

/** Reads a response to its end: its bytes, or the error it ended with. */
function drain(res: IncomingMessage): Promise<{ bytes: number; text: string; error?: Error; complete: boolean }> {
  return new Promise((resolve) => {
    let bytes = 0;
    const kept: Buffer[] = [];
    res.on('data', (c: Buffer) => {
      bytes += c.length;
      if (bytes < 64 * 1024) kept.push(c);
    });
    const done = (error?: Error) => resolve({ bytes, text: Buffer.concat(kept).toString('utf8'), error, complete: res.complete });
    res.on('end', () => done());
    res.on('error', (err) => done(err));
    res.on('close', () => done(res.complete ? undefined : new Error('closed before the end')));
  });
}

describe('aggregator: a proxied answer is streamed', () => {
  let t: TestServer;
  let dir: string;
  const auditLog = () => readFileSync(join(dir, 'audit.log'), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kgen-proxy-stream-'));
    writeFileSync(join(dir, 'policy.yaml'), 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: RequestResponse\n');
    t = await startTestServer({
      aggregator: { availabilityIntervalMs: 200, discoveryTimeoutMs: 2_000 },
      audit: { logPath: join(dir, 'audit.log'), policyFile: join(dir, 'policy.yaml') },
    });
    const port = (backend.address() as AddressInfo).port;
    const post = async (path: string, body: unknown) => {
      const r = await t.request('POST', path, { body });
      assert.equal(r.status, 201, r.text);
    };
    await post('/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'big' }, spec: { ports: [{ name: 'https', port: 443 }] } });
    await post('/api/v1/namespaces/default/endpoints', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'big' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port }] }] });
    await post('/apis/apiregistration.k8s.io/v1/apiservices', {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1.big.example.com' },
      spec: { group: 'big.example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 100, insecureSkipTLSVerify: true, service: { namespace: 'default', name: 'big' } },
    });
    const deadline = Date.now() + 30_000;
    for (;;) {
      const r = await t.request('GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1.big.example.com');
      if (r.body?.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'Available' && c.status === 'True')) break;
      assert.ok(Date.now() < deadline, `the APIService never became Available: ${r.text}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  after(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes 200 MB on as it comes: the first bytes arrive before the backend is done, and memory stays bounded', { timeout: 300_000 }, async () => {
    const held = () => {
      gc();
      const m = process.memoryUsage();
      return m.heapUsed + m.external;
    };
    const baseline = held();
    const res = await get(t.url, `${GV}/huge`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/octet-stream');
    assert.equal(res.headers['x-backend'], 'big');
    assert.equal(res.headers['cache-control'], 'private, max-age=5', "the backend's Cache-Control, as it sent it");
    let finishedAtFirstBytes: boolean | undefined;
    const firstBytes = new Promise<void>((resolve) =>
      res.once('data', () => {
        finishedAtFirstBytes = hugeFinished;
        res.pause();
        resolve();
      }),
    );
    const whole = drain(res);
    await firstBytes;
    assert.equal(finishedAtFirstBytes, false, 'the first bytes reached the client while the backend was still sending');
    // A client that does not read holds the backend back (backpressure), not kgen's memory.
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(hugeFinished, false, 'a client that does not read holds the backend back');
    // What is held while the answer is in flight (after a collection: garbage is not held):
    // read whole, it was all 200 MB; copied as it comes, a few socket buffers (this process
    // holds the backend, the front and the client).
    const inFlight = held() - baseline;
    assert.ok(inFlight < 48 * MB, `${Math.round(inFlight / MB)} MB held while 200 MB went through`);
    res.resume();
    const all = await whole;
    assert.equal(all.error, undefined);
    assert.equal(all.bytes, HUGE_BYTES);
    assert.equal(hugeFinished, true);
  });

  it("passes a backend's error status and headers on as they are", async () => {
    const res = await get(t.url, `${GV}/missing`);
    const body = await drain(res);
    assert.equal(res.statusCode, 404);
    assert.equal(res.headers['x-backend'], 'big');
    assert.equal(body.text, '{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}');
  });

  it("answers an upgrade request the backend does not switch with the backend's answer, then closes", async () => {
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest(t.url + `${GV}/missing`, { method: 'GET', headers: { connection: 'Upgrade', upgrade: 'websocket' } }, resolve);
      req.on('upgrade', () => reject(new Error('upgraded')));
      req.on('error', reject);
      req.end();
    });
    const body = await drain(res);
    assert.equal(res.statusCode, 404);
    assert.equal(res.headers['x-backend'], 'big');
    assert.equal(res.headers.connection, 'close');
    assert.equal(body.text, '{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}');
  });

  it('cuts the client off when the backend breaks off mid-body: no clean end, no second status', async () => {
    const res = await get(t.url, `${GV}/broken`);
    assert.equal(res.statusCode, 200);
    const body = await drain(res);
    assert.equal(body.complete, false, 'the answer did not end as if it were whole');
    assert.ok(body.error, 'the client saw its answer break off');
    assert.equal(body.text, '{"kind":"List","items":[', 'only what the backend sent, nothing after it');
  });

  // kube: ReverseProxy panics with http.ErrAbortHandler when copying fails, so net/http closes
  // the connection; a watch must not look as if it ended normally (the client would not relist).
  for (const [what, path] of [
    ['a watch', `${GV}/namespaces/default/things?watch=true`],
    ['a long-running GET (a followed log)', `${GV}/namespaces/default/things/x/log?follow=true`],
  ]) {
    it(`cuts ${what} when the backend breaks off mid-stream: the client sees an unexpected EOF`, async () => {
      const res = await get(t.url, path);
      assert.equal(res.statusCode, 200);
      const body = await drain(res);
      assert.match(body.text, /"type":"ADDED"/);
      assert.equal(body.complete, false, 'the stream did not end as if it were whole');
      assert.ok(body.error, 'the client saw its stream break off');
    });

    it(`ends ${what} cleanly when the backend ends it cleanly`, async () => {
      const res = await get(t.url, `${path}&end=clean`);
      const body = await drain(res);
      assert.equal(body.error, undefined);
      assert.equal(body.complete, true);
      assert.match(body.text, /"type":"ADDED"/);
    });
  }

  /**
   * Waits for the backend request to close, for 10 s at most. The timer is cleared: left running,
   * the two of these kept the file's process alive ~9 s after its last test.
   */
  async function abortedWithin(closed: Promise<unknown>): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([closed, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('the backend request was not aborted')), 10_000)))]);
    } finally {
      clearTimeout(timer);
    }
  }

  it('aborts the backend request when the client goes away', async () => {
    const res = await get(t.url, `${GV}/endless`);
    await new Promise((resolve) => res.once('data', resolve));
    const closed = backendClosed.get('endless')!;
    res.destroy();
    await abortedWithin(closed);
  });

  it('still applies the request deadline once the headers are written', async () => {
    const started = Date.now();
    const res = await get(t.url, `${GV}/endless?timeout=1s`);
    assert.equal(res.statusCode, 200);
    const closed = backendClosed.get('endless')!;
    const body = await drain(res);
    const took = Date.now() - started;
    assert.ok(body.error && !body.complete, 'the answer was cut at the deadline');
    assert.ok(took >= 900 && took < 15_000, `cut after ${took} ms`);
    await abortedWithin(closed);
  });

  it('audits a proxied request with its status code and no response object (as kube)', async () => {
    const res = await get(t.url, `${GV}/missing`);
    await drain(res);
    const deadline = Date.now() + 10_000;
    let event: { stage: string; responseStatus?: { code: number }; responseObject?: unknown } | undefined;
    while (!event && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      event = auditLog().find((e) => e.requestURI === `${GV}/missing` && e.stage === 'ResponseComplete');
    }
    assert.ok(event, 'a ResponseComplete event for the proxied request');
    assert.equal(event.responseStatus?.code, 404);
    assert.equal(event.responseObject, undefined);
  });
});

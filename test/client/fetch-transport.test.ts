/**
 * FetchTransport under Node (the browser test drives it in Chromium): bodies, headers, bearer
 * token and 401 as StatusError, a watch read from the response stream and stopped by its signal,
 * and the timeout.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { FetchTransport, ResourceClient, RestClient, TimeoutError, isUnauthorized, type KubeObject } from '@kgen/client';
import { startStub, type Stub } from './stub-server.js';

const info = { group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true };

describe('FetchTransport', () => {
  const stubs: Stub[] = [];
  after(() => Promise.all(stubs.map((s) => s.close())));

  it('sends method, body, token and impersonation headers; decodes JSON; 401 is a StatusError', async () => {
    const stub = await startStub((req, res) => {
      if (req.headers.authorization !== 'Bearer t0k') {
        res.writeHead(401, { 'Content-Type': 'application/json' }).end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Unauthorized', code: 401, message: 'Unauthorized' }));
        return;
      }
      res.writeHead(201, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ...JSON.parse(req.body), metadata: { name: 'w', uid: 'u1' } }));
    });
    stubs.push(stub);
    const rest = new RestClient({ server: stub.url, token: 't0k', qps: 0, impersonate: { user: 'jane', groups: ['a', 'b'] } }, { transport: new FetchTransport() });
    const widgets = new ResourceClient<KubeObject & { spec: { n: number } }>(rest, info, 'default');
    const created = await widgets.create({ metadata: { name: 'w' }, spec: { n: 1 } });
    assert.equal(created.metadata.uid, 'u1');
    const req = stub.requests[0]!;
    assert.equal(req.method, 'POST');
    assert.equal(req.path, '/apis/example.com/v1/namespaces/default/widgets');
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers['impersonate-user'], 'jane');
    assert.equal(req.headers['impersonate-group'], 'a, b');
    const stranger = new ResourceClient(new RestClient({ server: stub.url, token: 'bad', qps: 0 }, { transport: new FetchTransport() }), info, 'default');
    await assert.rejects(stranger.list(), (err) => isUnauthorized(err));
  });

  it('watches over the response stream, events split across chunks; the signal stops it', async () => {
    let closed!: () => void;
    const gone = new Promise<void>((r) => (closed = r));
    const stub = await startStub(async (_req, res, raw) => {
      raw.socket.once('close', closed);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const line = JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'ä-1' } } }) + '\n';
      const bytes = Buffer.from(line);
      res.write(bytes.subarray(0, 40));
      await new Promise((r) => setTimeout(r, 50));
      res.write(Buffer.concat([bytes.subarray(40), Buffer.from(JSON.stringify({ type: 'MODIFIED', object: { metadata: { name: 'ä-1' } } }) + '\n')]));
      // The stream stays open until the client stops.
    });
    stubs.push(stub);
    const widgets = new ResourceClient<KubeObject>(new RestClient({ server: stub.url, qps: 0 }, { transport: new FetchTransport() }), info, 'default');
    const stop = new AbortController();
    const seen: string[] = [];
    for await (const event of widgets.watch({ signal: stop.signal })) {
      seen.push(`${event.type} ${event.object.metadata.name}`);
      if (seen.length === 2) stop.abort();
    }
    assert.deepEqual(seen, ['ADDED ä-1', 'MODIFIED ä-1']);
    await gone;
  });

  it('times out with TimeoutError', async () => {
    const stub = await startStub(() => new Promise(() => {}));
    stubs.push(stub);
    const rest = new RestClient({ server: stub.url, qps: 0, timeoutMs: 200, maxRetries: 0 }, { transport: new FetchTransport() });
    await assert.rejects(rest.request({ method: 'GET', path: '/api' }), (err) => err instanceof TimeoutError);
  });
});

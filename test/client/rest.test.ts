import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  RestClient,
  StatusError,
  isAlreadyExists,
  isConflict,
  isInvalid,
  isNotFound,
  isTooManyRequests,
  type Status,
} from '@kgen/client';
import { newInvalid, newNotFound } from '../../runtime/api/status.js';
import { sendJSON, startStub, type Stub } from './stub-server.js';

/** A client with no rate limit and a sleep that records delays instead of waiting. */
function fastClient(server: string, extra: Partial<ConstructorParameters<typeof RestClient>[0]> = {}) {
  const delays: number[] = [];
  const client = new RestClient({ server, qps: 0, ...extra }, { sleep: async (ms) => void delays.push(ms) });
  return { client, delays };
}

describe('RestClient requests', () => {
  let stub: Stub;
  before(async () => {
    stub = await startStub((req, res) => sendJSON(res, 200, { ok: true, method: req.method }));
  });
  after(() => stub.close());

  it('sends JSON with the default headers, token and user agent, and decodes JSON', async () => {
    const { client } = fastClient(stub.url, { token: 'sekret', userAgent: 'test-agent/1' });
    const out = await client.request<{ ok: boolean; method: string }>({
      method: 'post',
      path: '/apis/example.com/v1/widgets',
      query: { dryRun: 'All', limit: 5, watch: false, skipped: undefined },
      body: { metadata: { name: 'w1' } },
    });
    assert.deepEqual(out, { ok: true, method: 'POST' });
    const req = stub.requests.at(-1)!;
    assert.equal(req.url, '/apis/example.com/v1/widgets?dryRun=All&limit=5&watch=false');
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers['accept'], 'application/json');
    assert.equal(req.headers['authorization'], 'Bearer sekret');
    assert.equal(req.headers['user-agent'], 'test-agent/1');
    assert.deepEqual(JSON.parse(req.body), { metadata: { name: 'w1' } });
    client.close();
  });

  it('sends strings and Buffers as is, with the given content type, and no Content-Type without a body', async () => {
    const { client } = fastClient(stub.url);
    await client.request({ method: 'PATCH', path: '/x', body: 'a: 1\n', contentType: 'application/apply-patch+yaml' });
    assert.equal(stub.requests.at(-1)!.body, 'a: 1\n');
    assert.equal(stub.requests.at(-1)!.headers['content-type'], 'application/apply-patch+yaml');
    await client.request({ method: 'GET', path: '/y' });
    assert.equal(stub.requests.at(-1)!.headers['content-type'], undefined);
    client.close();
  });

  it('keeps a path prefix of the server URL', async () => {
    const { client } = fastClient(`${stub.url}/prefix/`);
    await client.request({ method: 'GET', path: '/api/v1/namespaces' });
    assert.equal(stub.requests.at(-1)!.path, '/prefix/api/v1/namespaces');
    client.close();
  });

  it('rejects a server URL that is not http(s)', () => {
    assert.throws(() => new RestClient({ server: 'ftp://x' }), /must use http or https/);
    assert.throws(() => new RestClient({ server: 'not a url' }), /invalid server URL/);
  });
});

describe('RestClient errors', () => {
  const routes = new Map<string, (res: import('node:http').ServerResponse) => void>();
  let stub: Stub;
  before(async () => {
    stub = await startStub((req, res) => routes.get(req.path)!(res));
  });
  after(() => stub.close());
  const route = (path: string, fn: (res: import('node:http').ServerResponse) => void) => routes.set(path, fn);

  async function failure(method: string, path: string): Promise<StatusError> {
    const { client } = fastClient(stub.url, { maxRetries: 0 });
    try {
      await client.request({ method, path });
    } catch (err) {
      assert.ok(err instanceof StatusError, `expected StatusError, got ${err}`);
      return err;
    } finally {
      client.close();
    }
    assert.fail('request succeeded');
  }

  it('throws the Status body as sent', async () => {
    const sent = newNotFound({ group: 'example.com', resource: 'widgets' }, 'w1').status;
    route('/nf', (res) => sendJSON(res, 404, sent));
    const err = await failure('GET', '/nf');
    assert.ok(isNotFound(err));
    assert.deepEqual(err.status, sent);
    assert.equal(err.message, 'widgets.example.com "w1" not found');
  });

  it('decodes Invalid with its causes', async () => {
    const sent = newInvalid({ group: 'example.com', kind: 'Widget' }, 'w1', [
      { reason: 'FieldValueInvalid', field: 'spec.replicas', message: 'Invalid value: -1: must be >= 0' },
      { reason: 'FieldValueRequired', field: 'spec.size', message: 'Required value' },
    ]).status;
    route('/invalid', (res) => sendJSON(res, 422, sent));
    const err = await failure('PUT', '/invalid');
    assert.ok(isInvalid(err));
    assert.equal(err.code, 422);
    assert.deepEqual(err.status.details?.causes?.map((c) => c.field), ['spec.replicas', 'spec.size']);
  });

  it('decodes Conflict and AlreadyExists Status bodies apart', async () => {
    route('/conflict', (res) => sendJSON(res, 409, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Conflict', code: 409, message: 'stale' }));
    route('/exists', (res) => sendJSON(res, 409, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'AlreadyExists', code: 409 }));
    const conflict = await failure('PUT', '/conflict');
    assert.ok(isConflict(conflict) && !isAlreadyExists(conflict));
    const exists = await failure('POST', '/exists');
    assert.ok(isAlreadyExists(exists) && !isConflict(exists));
  });

  it('synthesizes a Status from a non-Status body, reason by HTTP code, body text as message', async () => {
    route('/text404', (res) => res.writeHead(404, { 'Content-Type': 'text/plain' }).end('404 page not found\n'));
    route('/text409', (res) => res.writeHead(409).end('conflict!'));
    route('/text503', (res) => res.writeHead(503).end('upstream down'));
    route('/text502', (res) => res.writeHead(502).end('bad gateway'));
    route('/text418', (res) => res.writeHead(418).end(''));
    route('/json500', (res) => sendJSON(res, 500, { error: 'boom' }));

    const nf = await failure('GET', '/text404');
    assert.ok(isNotFound(nf));
    assert.equal(nf.status.reason, 'NotFound');
    assert.equal(nf.status.code, 404);
    assert.equal(nf.status.status, 'Failure');
    assert.equal(nf.message, '404 page not found');
    assert.equal(nf.status.details?.causes?.[0]?.reason, 'UnexpectedServerResponse');

    assert.ok(isAlreadyExists(await failure('POST', '/text409')), '409 on POST is AlreadyExists, as client-go');
    assert.ok(isConflict(await failure('PUT', '/text409')), '409 otherwise is Conflict');

    const unavailable = await failure('GET', '/text503');
    assert.equal(unavailable.reason, 'ServiceUnavailable');
    assert.equal(unavailable.message, 'upstream down');

    const badGateway = await failure('GET', '/text502');
    assert.equal(badGateway.reason, 'InternalError');
    assert.equal(badGateway.code, 502);

    const teapot = await failure('GET', '/text418');
    assert.equal(teapot.reason, undefined);
    assert.equal(teapot.code, 418);
    assert.match(teapot.message, /status code 418/);

    const json = await failure('GET', '/json500');
    assert.equal(json.reason, 'InternalError');
    assert.equal(json.message, '{"error":"boom"}');
  });

  it('treats a 2xx Failure Status as an error and passes a Success Status through', async () => {
    route('/ok-failure', (res) => sendJSON(res, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'NotFound', code: 404 }));
    route('/ok-success', (res) => sendJSON(res, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 }));
    assert.ok(isNotFound(await failure('GET', '/ok-failure')));
    const { client } = fastClient(stub.url);
    const ok = await client.request<Status>({ method: 'DELETE', path: '/ok-success' });
    assert.equal(ok.status, 'Success');
    client.close();
  });
});

describe('RestClient retries', () => {
  let stub: Stub;
  let script: Array<'reset' | '429' | '503' | '503-no-retry-after' | 'ok'> = [];
  before(async () => {
    stub = await startStub((req, res, raw) => {
      const step = script.shift() ?? 'ok';
      if (step === 'reset') return void raw.socket.destroy();
      if (step === '429') return sendJSON(res, 429, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'TooManyRequests', code: 429, details: { retryAfterSeconds: 2 } }, { 'Retry-After': '2' });
      if (step === '503') return void res.writeHead(503, { 'Retry-After': '120' }).end('shutting down');
      if (step === '503-no-retry-after') return void res.writeHead(503).end('no hint');
      sendJSON(res, 200, { attempt: stub.requests.length, method: req.method });
    });
  });
  after(() => stub.close());

  it('retries a GET after a connection reset, with backoff', async () => {
    script = ['reset', 'reset', 'ok'];
    const before = stub.requests.length;
    const { client, delays } = fastClient(stub.url);
    const out = await client.request<{ method: string }>({ method: 'GET', path: '/r' });
    assert.equal(out.method, 'GET');
    assert.equal(stub.requests.length - before, 3);
    assert.equal(delays.length, 2);
    assert.ok(delays[1]! > delays[0]!, `backoff grows: ${delays}`);
    client.close();
  });

  it('does not retry a POST after a connection reset', async () => {
    script = ['reset', 'ok'];
    const before = stub.requests.length;
    const { client, delays } = fastClient(stub.url);
    await assert.rejects(client.request({ method: 'POST', path: '/r', body: {} }), (err: NodeJS.ErrnoException) => {
      assert.ok(!(err instanceof StatusError));
      assert.ok(err.code === 'ECONNRESET' || /socket hang up/.test(err.message), String(err));
      return true;
    });
    assert.equal(stub.requests.length - before, 1);
    assert.deepEqual(delays, []);
    script = [];
    client.close();
  });

  it('retries any method on 429 with Retry-After, honouring its seconds', async () => {
    script = ['429', 'ok'];
    const before = stub.requests.length;
    const { client, delays } = fastClient(stub.url);
    await client.request({ method: 'POST', path: '/r', body: { a: 1 } });
    assert.equal(stub.requests.length - before, 2);
    assert.deepEqual(delays, [2000]);
    assert.equal(stub.requests.at(-1)!.body, '{"a":1}', 'the body is sent again');
    client.close();
  });

  it('caps a long Retry-After and does not retry 5xx without one', async () => {
    script = ['503', 'ok'];
    const { client, delays } = fastClient(stub.url);
    await client.request({ method: 'GET', path: '/r' });
    assert.deepEqual(delays, [30_000]);

    script = ['503-no-retry-after', 'ok'];
    const before = stub.requests.length;
    await assert.rejects(client.request({ method: 'GET', path: '/r' }), (err: StatusError) => err.reason === 'ServiceUnavailable');
    assert.equal(stub.requests.length - before, 1);
    script = [];
    client.close();
  });

  it('stops after maxRetries and throws the last response', async () => {
    script = ['429', '429', '429', 'ok'];
    const before = stub.requests.length;
    const { client, delays } = fastClient(stub.url, { maxRetries: 2 });
    await assert.rejects(client.request({ method: 'GET', path: '/r' }), (err: StatusError) => {
      assert.ok(isTooManyRequests(err));
      assert.equal(err.status.details?.retryAfterSeconds, 2);
      return true;
    });
    assert.equal(stub.requests.length - before, 3);
    assert.equal(delays.length, 2);
    script = [];
    client.close();
  });

  it('waits Retry-After in real time by default', async () => {
    const s = await startStub((req, res) => {
      if (s.requests.length === 1) return void res.writeHead(429, { 'Retry-After': '1' }).end();
      sendJSON(res, 200, {});
    });
    const client = new RestClient({ server: s.url, qps: 0 });
    const start = performance.now();
    await client.request({ method: 'GET', path: '/' });
    const elapsed = performance.now() - start;
    assert.ok(elapsed >= 950, `waited ${elapsed}ms`);
    assert.equal(s.requests.length, 2);
    client.close();
    await s.close();
  });

  it('retries a GET on ECONNREFUSED up to maxRetries, then fails with the connection error', async () => {
    const s = await startStub(() => {});
    const url = s.url;
    await s.close();
    const { client, delays } = fastClient(url, { maxRetries: 3 });
    await assert.rejects(client.request({ method: 'GET', path: '/' }), { code: 'ECONNREFUSED' });
    assert.equal(delays.length, 3);
    client.close();
  });
});

describe('RestClient timeouts and cancellation', () => {
  let stub: Stub;
  before(async () => {
    stub = await startStub(() => {
      /* never answers */
    });
  });
  after(() => stub.close());

  it('times out after timeoutMs, without retrying', async () => {
    const { client, delays } = fastClient(stub.url, { timeoutMs: 100 });
    await assert.rejects(client.request({ method: 'GET', path: '/slow' }), { name: 'TimeoutError' });
    assert.deepEqual(delays, []);
    client.close();
  });

  it('rejects with the abort reason when the signal aborts', async () => {
    const { client } = fastClient(stub.url);
    const ac = new AbortController();
    const pending = client.request({ method: 'GET', path: '/slow', signal: ac.signal });
    setTimeout(() => ac.abort(new Error('stop now')), 50);
    await assert.rejects(pending, /stop now/);
    client.close();
  });
});

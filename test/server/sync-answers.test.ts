/**
 * The synchronous contracts of the read path: authenticators, authorizers, delegation targets and
 * the GET handler answer with a value when they can decide at once (a promise otherwise), and a
 * GET the watch cache answers without awaiting gives the same bytes and headers as one that awaits.
 */
import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { AuthorizationAttributes } from '../../runtime/api/auth.js';
import { failOnError, unionAuthenticator, type RequestAuthenticator } from '../../runtime/authentication/index.js';
import { objectResponse } from '../../runtime/endpoints/responsewriters.js';
import type { APIResponse, ObjectResponse } from '../../runtime/endpoints/handler.js';
import { privilegedGroupAuthorizer } from '../../runtime/server/authorizer.js';
import type { DelegationResult, DelegationTarget } from '../../runtime/server/delegation.js';
import { APIServerHandler } from '../../runtime/server/handler.js';
import { HTTPServer } from '../../runtime/server/http.js';
import { Cacher } from '../../runtime/storage/cacher/cacher.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';
import { request } from './filters/helpers.js';
import { startTestServer, widget, WIDGETS, type TestServer } from './testserver.js';

const fixed = (r: ReturnType<RequestAuthenticator['authenticate']>): RequestAuthenticator => ({ authenticate: () => r });
const later = (r: Awaited<ReturnType<RequestAuthenticator['authenticate']>>): RequestAuthenticator => ({ authenticate: async () => r });
const bob = { username: 'bob', groups: ['g'] };

describe('authenticators answer synchronously when their parts do', () => {
  it('a union of synchronous authenticators gives its answer, not a promise', () => {
    const union = unionAuthenticator([fixed(undefined), fixed({ error: 'bad cert' }), fixed({ user: bob })]);
    assert.deepEqual(union.authenticate(request('GET', '/')), { user: { username: 'bob', groups: ['g', 'system:authenticated'] } });
    assert.deepEqual(unionAuthenticator([fixed({ error: 'a' }), fixed({ error: 'b' })]).authenticate(request('GET', '/')), { error: 'a, b' });
    assert.equal(unionAuthenticator([fixed(undefined)]).authenticate(request('GET', '/')), undefined);
  });

  it('awaits only from the first asynchronous authenticator on, with the same answers', async () => {
    const union = unionAuthenticator([fixed({ error: 'a' }), later({ error: 'b' }), fixed({ user: bob })]);
    const answer = union.authenticate(request('GET', '/'));
    assert.ok(answer instanceof Promise);
    assert.deepEqual(await answer, { user: { username: 'bob', groups: ['g', 'system:authenticated'] } });
    assert.deepEqual(await unionAuthenticator([later({ error: 'a' }), fixed({ error: 'b' })]).authenticate(request('GET', '/')), { error: 'a, b' });
    assert.deepEqual(await unionAuthenticator([later({ user: bob }), fixed({ error: 'never asked' })]).authenticate(request('GET', '/')), {
      user: { username: 'bob', groups: ['g', 'system:authenticated'] },
    });
  });

  it('fail-on-error is synchronous when both sides are, and falls back only without credentials', async () => {
    const anon = fixed({ user: { username: 'system:anonymous', groups: ['system:unauthenticated'] } });
    assert.deepEqual(failOnError(fixed({ error: 'bad' }), anon).authenticate(request('GET', '/')), { error: 'bad' });
    assert.equal((failOnError(fixed(undefined), anon).authenticate(request('GET', '/')) as { user: { username: string } }).user.username, 'system:anonymous');
    const waited = failOnError(later(undefined), anon).authenticate(request('GET', '/'));
    assert.ok(waited instanceof Promise);
    assert.equal(((await waited) as { user: { username: string } }).user.username, 'system:anonymous');
  });
});

describe('authorizers answer synchronously', () => {
  it('the privileged-group authorizer decides without a promise', () => {
    const attrs = (groups: string[]): AuthorizationAttributes => ({
      user: { username: 'u', groups },
      verb: 'get',
      isResourceRequest: true,
      path: '/apis/widgets.example.com/v1/namespaces/default/widgets/a',
      namespace: 'default',
      apiGroup: 'widgets.example.com',
      apiVersion: 'v1',
      resource: 'widgets',
      subresource: '',
      name: 'a',
    });
    assert.deepEqual(privilegedGroupAuthorizer().authorize(attrs(['system:masters'])), { decision: 'Allow', reason: '' });
    assert.deepEqual(privilegedGroupAuthorizer().authorize(attrs(['dev'])), { decision: 'NoOpinion', reason: '' });
  });
});

describe('delegation answers synchronously when its servers do', () => {
  const target = (name: string, serve: () => DelegationResult): DelegationTarget => ({ name, serve, groupVersions: () => [], onChange: () => () => undefined });
  const handler = (chain: DelegationTarget[]) =>
    new APIServerHandler({ chain, discovery: { serve: () => undefined }, openapi: { serve: () => undefined }, health: { healthz: [], livez: [], readyz: [] } });
  const resourceURL = '/apis/widgets.example.com/v1/namespaces/default/widgets/a';

  it('passes over servers that answer undefined at once, and returns the answer itself', () => {
    const response = objectResponse(200, { ok: true });
    const answer = handler([target('first', () => undefined), target('second', () => response)]).handle(request('GET', resourceURL));
    assert.equal(answer, response);
  });

  it('awaits only a server that returns a promise; the rest of the chain then runs after it', async () => {
    const response = objectResponse(200, { ok: true });
    const answer = handler([target('first', async () => undefined), target('second', () => response)]).handle(request('GET', resourceURL));
    assert.ok(answer instanceof Promise);
    assert.equal(await answer, response);
  });

  it('a server that throws synchronously gives a Status, as a rejected promise does; nobody answering is 404', async () => {
    const thrown = handler([
      target('broken', () => {
        throw new Error('boom');
      }),
    ]).handle(request('GET', resourceURL)) as ObjectResponse;
    assert.equal(thrown.code, 500);
    const rejected = (await handler([target('broken', () => Promise.reject(new Error('boom')))]).handle(request('GET', resourceURL))) as ObjectResponse;
    assert.deepEqual(JSON.parse(rejected.payload), JSON.parse(thrown.payload));
    assert.equal((handler([target('none', () => undefined)]).handle(request('GET', resourceURL)) as ObjectResponse).code, 404);
  });
});

describe('Cacher.getIfCurrent', () => {
  it('answers from a ready cache at the backend revision, and defers (undefined) otherwise', async () => {
    const backend = new MemoryStorage();
    const cacher = new Cacher(backend, { prefix: '/registry/things' });
    try {
      await backend.create('/registry/things/a', { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'a' } });
      const deadline = Date.now() + 3000;
      while (cacher.getIfCurrent('/registry/things/a') === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      const obj = cacher.getIfCurrent('/registry/things/a');
      assert.equal(obj?.metadata.name, 'a');
      assert.equal(obj, await cacher.get('/registry/things/a'), 'the same shared object get() returns');
      assert.equal(cacher.getIfCurrent('/registry/things/missing'), undefined);
      assert.equal(cacher.getIfCurrent('/registry/other/a'), undefined);
      // A write elsewhere moves the backend's revision past the cache's: get() must decide.
      await backend.create('/registry/other/x', { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'x' } });
      assert.equal(cacher.getIfCurrent('/registry/things/a'), undefined);
      assert.equal((await cacher.get('/registry/things/a'))?.metadata.name, 'a');
    } finally {
      await cacher.close();
      await backend.close();
    }
    assert.equal(cacher.getIfCurrent('/registry/things/a'), undefined, 'closed');
  });
});

/** A raw GET: status, headers, body bytes. */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders; rawHeaders: string[]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { accept: 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Header lines without the per-request values (Audit-Id, Date). */
function stableHeaders(raw: string[]): string[] {
  const lines: string[] = [];
  for (let i = 0; i < raw.length; i += 2) lines.push(`${raw[i]}: ${/^(audit-id|date)$/i.test(raw[i]!) ? '*' : raw[i + 1]}`);
  return lines;
}

describe('GET answered without awaiting', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false });
    assert.equal((await t.request('POST', WIDGETS, { body: widget('a') })).status, 201);
  });
  after(() => t.close());

  it('gives the same status, header lines and bytes as the awaiting path', async () => {
    const url = `${t.url}${WIDGETS}/a`;
    const original = Cacher.prototype.getIfCurrent;
    let answered = 0;
    Cacher.prototype.getIfCurrent = function (key: string) {
      const obj = original.call(this, key);
      if (obj !== undefined) answered++;
      return obj;
    };
    let sync: Awaited<ReturnType<typeof rawGet>>;
    let awaited: Awaited<ReturnType<typeof rawGet>>;
    try {
      const deadline = Date.now() + 3000;
      do sync = await rawGet(url);
      while (answered === 0 && Date.now() < deadline);
      assert.ok(answered > 0, 'the watch cache answered synchronously');
      Cacher.prototype.getIfCurrent = () => undefined;
      awaited = await rawGet(url);
    } finally {
      Cacher.prototype.getIfCurrent = original;
    }
    assert.equal(sync.status, 200);
    assert.equal(awaited.status, 200);
    assert.deepEqual(sync.body, awaited.body);
    assert.deepEqual(stableHeaders(sync.rawHeaders), stableHeaders(awaited.rawHeaders));
    assert.match(String(sync.headers['audit-id']), /^[0-9a-f-]{36}$/);
    assert.equal(JSON.parse(sync.body.toString()).metadata.name, 'a');
    // A client's Audit-ID is kept on either path; a missing object is the same 404 either way.
    assert.equal((await rawGet(url, { 'audit-id': 'mine-1' })).headers['audit-id'], 'mine-1');
    assert.equal((await rawGet(`${t.url}${WIDGETS}/missing`)).status, 404);
  });
});

describe('HTTPServer: synchronous answers', () => {
  async function serve(answer: (signal: () => AbortSignal) => APIResponse | Promise<APIResponse>): Promise<{ http: HTTPServer; url: string }> {
    const http = new HTTPServer((incoming) => answer(() => incoming.signal));
    await http.app.listen({ host: '127.0.0.1', port: 0 });
    const address = http.app.server.address() as { port: number };
    return { http, url: `http://127.0.0.1:${address.port}/x` };
  }

  it('writes every header once, in order, and counts nothing in progress afterwards', async () => {
    const response = objectResponse(200, { ok: true }, 'json', ['careful']);
    response.headers = { 'Audit-Id': 'id-1', ...response.headers };
    const { http, url } = await serve(() => response);
    try {
      const res = await rawGet(url);
      assert.deepEqual(stableHeaders(res.rawHeaders).slice(0, 4), ['Audit-Id: *', 'Warning: 299 - "careful"', 'Content-Type: application/json', `Content-Length: ${res.body.length}`]);
      assert.deepEqual(JSON.parse(res.body.toString()), { ok: true });
      await http.drain();
    } finally {
      await http.app.close();
    }
  });

  it('merges header names that differ only in case, as setHeader does', async () => {
    const response = objectResponse(200, { ok: true });
    response.headers = { 'Audit-Id': 'from-filter', 'audit-id': 'from-backend', 'content-type': 'text/plain' };
    const { http, url } = await serve(() => response);
    try {
      const res = await rawGet(url);
      assert.equal(res.rawHeaders.filter((h) => h.toLowerCase() === 'audit-id').length, 1);
      assert.equal(res.headers['audit-id'], 'from-backend');
      assert.equal(res.headers['content-type'], 'application/json');
    } finally {
      await http.app.close();
    }
  });

  it('keeps a synchronous answer whose signal was taken active until the connection side closes', async () => {
    let signal: AbortSignal | undefined;
    const { http, url } = await serve((take) => {
      signal = take();
      return objectResponse(200, { ok: true });
    });
    try {
      assert.equal((await rawGet(url)).status, 200);
      await http.drain();
      assert.equal(signal?.aborted, true, 'aborted once the response closed');
    } finally {
      await http.app.close();
    }
  });
});

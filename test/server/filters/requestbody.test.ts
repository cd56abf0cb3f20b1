import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { statusError } from '../../../runtime/api/status.js';
import { objectResponse } from '../../../runtime/endpoints/responsewriters.js';
import { BodyMemoryBudget } from '../../../runtime/server/body.js';
import { hasDotSegment } from '../../../runtime/server/filters/dotsegments.js';
import { isLoopbackHostHeader, withLoopbackHostOnly } from '../../../runtime/server/filters/loopbackhost.js';
import { withRequestBody } from '../../../runtime/server/filters/requestbody.js';
import { body, contextFor } from './helpers.js';

describe('request-body filter', () => {
  it('reads the body before the handler, and passes requests without one through synchronously', async () => {
    const seen: string[] = [];
    const filter = withRequestBody();
    const handler = () => objectResponse(200, {});
    const sync = filter(handler)(contextFor('GET', '/api/v1/namespaces'));
    assert.equal(sync instanceof Promise, false);
    const ctx = contextFor('POST', '/api/v1/namespaces', {
      extra: {
        readBody() {
          seen.push('read');
          ctx.request.body = Buffer.from('{}');
          return Promise.resolve();
        },
      },
    });
    const r = await filter((c) => (seen.push(`handler ${c.request.body}`), objectResponse(201, {})))(ctx);
    assert.equal(r.code, 201);
    assert.deepEqual(seen, ['read', 'handler {}']);
  });

  it('answers a body that cannot be read with its Status, without calling the handler', async () => {
    const ctx = contextFor('POST', '/api/v1/namespaces', { extra: { readBody: () => Promise.reject(statusError('RequestEntityTooLarge', 'too large')) } });
    const r = await withRequestBody()(() => assert.fail('the handler ran'))(ctx);
    assert.equal(r.code, 413);
    assert.equal(body(r).reason, 'RequestEntityTooLarge');
  });
});

describe('body memory budget', () => {
  it('reserves what fits and refuses the rest; 0 is no limit', () => {
    const budget = new BodyMemoryBudget(10);
    assert.equal(budget.take(6), true);
    assert.equal(budget.take(5), false);
    assert.equal(budget.held, 6);
    budget.give(6);
    assert.equal(budget.take(10), true);
    assert.equal(new BodyMemoryBudget(0).take(1e12), true);
  });
});

describe('dot segments', () => {
  it('finds . and .. segments, literal or percent-encoded, in the path only', () => {
    for (const url of ['/.', '/..', '/a/./b', '/a/../b', '/a/%2e', '/a/%2E%2e/b', '/a/.%2e', '/a/%2e.?x=1', '/a/b/..']) assert.equal(hasDotSegment(url), true, url);
    for (const url of ['/', '/a.b', '/...', '/a/.b', '/a/b.', '/%2e%2e%2e', '/a?x=/../', '/apis/widgets.example.com/v1', '/a/%2f']) assert.equal(hasDotSegment(url), false, url);
  });
});

describe('loopback Host check', () => {
  it('accepts localhost, 127.0.0.0/8 and [::1], with or without a port', () => {
    for (const host of ['localhost', 'LocalHost:8080', '127.0.0.1', '127.255.0.9:1', '[::1]', '[::1]:6443', '[0:0:0:0:0:0:0:1]']) assert.equal(isLoopbackHostHeader(host), true, host);
    for (const host of [undefined, '', 'localhost.', 'evil.localhost', 'localhost.evil', '127.0.0.256', '127.1', '::1', '[::2]', '128.0.0.1', 'localhost:', 'localhost:123456']) assert.equal(isLoopbackHostHeader(host), false, String(host));
  });

  it('refuses any other Host with 403', async () => {
    const filter = withLoopbackHostOnly();
    const r = await filter(() => assert.fail('served'))(contextFor('GET', '/api', { headers: { host: 'rebound.example' } }));
    assert.equal(r.code, 403);
    assert.equal((await filter(() => objectResponse(200, {}))(contextFor('GET', '/api', { headers: { host: 'localhost:8080' } }))).code, 200);
  });

  it('refuses another Host right after a loopback one passed (the last one is remembered, nothing else)', async () => {
    const filter = withLoopbackHostOnly();
    const served = () => objectResponse(200, {});
    for (const [host, code] of [['127.0.0.1:6443', 200], ['127.0.0.1:6443', 200], ['rebound.example', 403], ['127.0.0.1:6443', 200], [undefined, 403], ['localhost', 200], ['rebound.example:6443', 403]] as const) {
      const headers: Record<string, string> = host === undefined ? {} : { host };
      assert.equal((await filter(served)(contextFor('GET', '/api', { headers }))).code, code, String(host));
    }
  });
});

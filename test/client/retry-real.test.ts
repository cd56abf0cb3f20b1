/**
 * RestClient's retries against a real kgen server behind a TCP proxy: a read survives the server
 * being unreachable for a moment (retried with backoff), a write is not resent after its
 * connection failed, and a read whose connection is reset mid-response is retried.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isConnectionError } from '../../packages/client/src/retry.js';
import { startTestServer, type TestServer } from '../server/testserver.js';
import { RecordingRest, newWidget, widgetClient } from './helpers.js';
import { startProxy, type Proxy } from './proxy.js';

describe('RestClient retries against a real server', () => {
  let ts: TestServer;
  let proxy: Proxy;

  before(async () => {
    ts = await startTestServer({ log: () => {} });
    proxy = await startProxy(ts.url);
  });
  after(async () => {
    await proxy.close();
    await ts.close();
  });

  it('retries a GET with backoff until the server is reachable again', async () => {
    const rest = new RecordingRest({ server: proxy.url });
    await widgetClient(rest, 'default').create(newWidget('reachable', 3));
    await proxy.refuse();
    const started = Date.now();
    const reading = widgetClient(rest, 'default').get('reachable');
    setTimeout(() => void proxy.accept(), 500);
    const got = await reading;
    assert.equal(got.spec.replicas, 3);
    assert.ok(Date.now() - started >= 500, 'it waited for the server');
    rest.close();
  });

  it('does not resend a write whose connection failed', async () => {
    const rest = new RecordingRest({ server: proxy.url });
    await proxy.refuse();
    const before = proxy.accepted();
    await assert.rejects(widgetClient(rest, 'default').create(newWidget('never', 1)), (err) => isConnectionError(err));
    await proxy.accept();
    assert.equal(proxy.accepted(), before);
    const list = await widgetClient(rest, 'default').list();
    assert.ok(!list.items.some((w) => w.metadata.name === 'never'));
    rest.close();
  });

  it('retries a GET whose connection is reset before the response arrives', async () => {
    const rest = new RecordingRest({ server: proxy.url });
    const first = proxy.accepted();
    proxy.resetNext(2);
    const list = await widgetClient(rest, 'default').list();
    assert.ok(list.items.some((w) => w.metadata.name === 'reachable'));
    assert.equal(proxy.accepted() - first, 3, 'two reset attempts, then the one that worked');

    rest.close();
    const fresh = new RecordingRest({ server: proxy.url }); // a new connection, not a pooled one
    proxy.resetNext(1);
    await assert.rejects(widgetClient(fresh, 'default').mergePatch('reachable', { spec: { replicas: 4 } }), (err) => isConnectionError(err), 'a write is not retried');
    fresh.close();
  });
});

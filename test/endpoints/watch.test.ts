/** Watch: newline-delimited events, synthetic ADDED, selectors, Table events, timeouts and 410. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, TABLE_ACCEPT, widget, WIDGETS, type TestServer } from '../server/testserver.js';
import { openWatchStream } from '../support/watch-stream.js';

/** Opens a watch and returns a reader of its events, one JSON line each. */
async function openWatch(t: TestServer, path: string, accept?: string) {
  const watch = await openWatchStream(t.url, path, accept);
  assert.equal(watch.contentType, 'application/json');
  return watch;
}

describe('watch', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    await t.request('POST', WIDGETS, { body: widget('w1') });
  });
  after(() => t.close());

  it('starts with synthetic ADDED events at resourceVersion=0, then streams changes', async () => {
    const w = await openWatch(t, `${WIDGETS}?watch=true&resourceVersion=0`);
    const first = await w.next();
    assert.equal(first?.type, 'ADDED');
    assert.equal(first?.object.metadata.name, 'w1');
    await t.request('POST', WIDGETS, { body: widget('w2') });
    await t.request('PATCH', `${WIDGETS}/w2`, { body: { spec: { replicas: 3 } }, contentType: 'application/merge-patch+json' });
    await t.request('DELETE', `${WIDGETS}/w2`);
    const events = [await w.next(), await w.next(), await w.next()];
    assert.deepEqual(events.map((e) => [e?.type, e?.object.metadata.name]), [
      ['ADDED', 'w2'],
      ['MODIFIED', 'w2'],
      ['DELETED', 'w2'],
    ]);
    assert.equal(events[1]?.object.kind, 'Widget');
    w.close();
  });

  it('continues from a list resourceVersion without replaying, and ends at timeoutSeconds', async () => {
    const list = await t.request('GET', WIDGETS);
    const started = Date.now();
    const w = await openWatch(t, `${WIDGETS}?watch=1&resourceVersion=${list.body.metadata.resourceVersion}&timeoutSeconds=1`);
    await t.request('POST', WIDGETS, { body: widget('w3') });
    const e = await w.next();
    assert.equal(e?.type, 'ADDED');
    assert.equal(e?.object.metadata.name, 'w3');
    assert.equal(await w.next(), undefined, 'stream ends');
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 900 && elapsed < 5000, `ended after ${elapsed}ms`);
  });

  it('watches a single object with fieldSelector=metadata.name', async () => {
    const w = await openWatch(t, `${WIDGETS}?watch=true&fieldSelector=metadata.name%3Dw1&resourceVersion=0&timeoutSeconds=5`);
    assert.equal((await w.next())?.object.metadata.name, 'w1');
    await t.request('POST', WIDGETS, { body: widget('w4') });
    await t.request('PATCH', `${WIDGETS}/w1`, { body: { metadata: { labels: { touched: 'yes' } } }, contentType: 'application/merge-patch+json' });
    const e = await w.next();
    assert.equal(e?.type, 'MODIFIED');
    assert.equal(e?.object.metadata.name, 'w1');
    w.close();
  });

  it('keeps every term of a field selector that also pins the name (the name is for authorization)', async () => {
    const w = await openWatch(t, `${WIDGETS}?watch=true&fieldSelector=metadata.name%3Dw1,metadata.namespace%3Dother&resourceVersion=0&timeoutSeconds=1`);
    assert.equal(await w.next(), undefined, 'w1 is in default, not other: no events');
    // The legacy watch path names the object in the URL.
    const legacy = await openWatch(t, `/apis/widgets.example.com/v1/watch/namespaces/default/widgets/w1?resourceVersion=0&timeoutSeconds=1`);
    const first = await legacy.next();
    assert.equal(first?.object.metadata.name, 'w1');
    assert.equal(await legacy.next(), undefined);
  });

  it('sends one-row Tables, column definitions on the first event only', async () => {
    const w = await openWatch(t, `${WIDGETS}?watch=true&resourceVersion=0&timeoutSeconds=5`, TABLE_ACCEPT);
    const first = await w.next();
    assert.equal(first?.object.kind, 'Table');
    assert.ok(Array.isArray(first?.object.columnDefinitions));
    const second = await w.next();
    assert.equal(second?.object.kind, 'Table');
    assert.equal(second?.object.columnDefinitions, undefined);
    assert.equal((second?.object.rows as unknown[]).length, 1);
    w.close();
  });

  it('ends with an ERROR event carrying 410 Expired for a compacted resourceVersion', async () => {
    // Compacting through the watch cache also drops its history, so version 1 is gone everywhere.
    const cacher = t.server.cachers?.get('/registry/widgets.example.com/widgets/');
    assert.ok(cacher);
    await cacher.compact(await t.server.storage.currentRevision());
    const w = await openWatch(t, `${WIDGETS}?watch=true&resourceVersion=1`);
    const e = await w.next();
    assert.equal(e?.type, 'ERROR');
    assert.equal(e?.object.kind, 'Status');
    assert.equal(e?.object.code, 410);
    assert.equal(e?.object.reason, 'Expired');
    assert.equal(await w.next(), undefined);
  });
});

describe('watch timeoutSeconds beyond a Node timer', () => {
  // setTimeout fires at once for delays over 2^31 - 1 ms (about 24.8 days): a watch asking for
  // timeoutSeconds=3000000 ended after 1 ms, and a client that re-watches would loop.
  for (const [label, watchCache] of [
    ['from the watch cache', undefined],
    ['from storage (no watch cache)', false],
  ] as const) {
    it(`keeps a watch open ${label}`, async () => {
      const t = await startTestServer(watchCache === false ? { watchCache: false } : {});
      try {
        const list = await t.request('GET', WIDGETS);
        for (const seconds of [2_147_484, 99_999_999_999]) {
          const w = await openWatch(t, `${WIDGETS}?watch=1&resourceVersion=${list.body.metadata.resourceVersion}&timeoutSeconds=${seconds}`);
          await new Promise((r) => setTimeout(r, 100));
          const name = `long-${seconds}`;
          assert.equal((await t.request('POST', WIDGETS, { body: widget(name) })).status, 201);
          let e = await w.next();
          while (e && e.object.metadata.name !== name) e = await w.next();
          assert.equal(e?.type, 'ADDED', `timeoutSeconds=${seconds}: the watch ended before the event`);
          w.close();
        }
      } finally {
        await t.close();
      }
    });
  }
});


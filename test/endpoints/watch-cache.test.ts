/**
 * Reads and watches through the watch cache over HTTP: scopes, bookmarks, WatchList, clean-up on
 * disconnect, slow clients, and the resourceVersion rules of get and list.
 */
import assert from 'node:assert/strict';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startTestServer, TABLE_ACCEPT, widget, WIDGETS, type TestServer } from '../server/testserver.js';
import { resourcePrefix } from '../../runtime/storage/keys.js';
import { openWatchStream, type WatchStreamEvent } from '../support/watch-stream.js';

const ALL_WIDGETS = '/apis/widgets.example.com/v1/widgets';
const OTHER_WIDGETS = '/apis/widgets.example.com/v1/namespaces/other/widgets';
const WIDGETS_PREFIX = '/registry/widgets.example.com/widgets/';

type Event = WatchStreamEvent;

function openWatch(t: TestServer, path: string, accept?: string) {
  return openWatchStream(t.url, path, accept);
}

async function eventually(check: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('watch cache over HTTP', () => {
  let t: TestServer;
  // Widget watchers only: the RBAC authorizer keeps its own watches on the RBAC caches.
  const watchers = () => widgetWatchers(t);
  before(async () => {
    t = await startTestServer({ controllers: false, watchCache: { waitTimeoutMs: 200 } });
    assert.equal((await t.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } } })).status, 201);
    for (const name of ['a', 'b']) assert.equal((await t.request('POST', WIDGETS, { body: widget(name) })).status, 201);
    assert.equal((await t.request('POST', OTHER_WIDGETS, { body: widget('c') })).status, 201);
  });
  after(() => t.close());

  it('watches one namespace or all of them', async () => {
    const ns = await openWatch(t, `${WIDGETS}?watch=true&resourceVersion=0&timeoutSeconds=5`);
    const all = await openWatch(t, `${ALL_WIDGETS}?watch=true&resourceVersion=0&timeoutSeconds=5`);
    assert.deepEqual([(await ns.next())?.object.metadata.name, (await ns.next())?.object.metadata.name], ['a', 'b']);
    const initial = [await all.next(), await all.next(), await all.next()].map((e) => `${e?.object.metadata.namespace}/${e?.object.metadata.name}`);
    assert.deepEqual(initial, ['default/a', 'default/b', 'other/c']);
    await t.request('POST', OTHER_WIDGETS, { body: widget('d') });
    await t.request('POST', WIDGETS, { body: widget('e') });
    assert.equal((await ns.next())?.object.metadata.name, 'e', 'the other namespace is not seen');
    assert.deepEqual([(await all.next())?.object.metadata.name, (await all.next())?.object.metadata.name], ['d', 'e']);
    ns.close();
    all.close();
    await t.request('DELETE', `${OTHER_WIDGETS}/d`);
    await t.request('DELETE', `${WIDGETS}/e`);
  });

  it('ends a watch at timeoutSeconds with a BOOKMARK of the kind carrying only the resourceVersion', async () => {
    const list = await t.request('GET', WIDGETS);
    const rv = list.body.metadata.resourceVersion;
    const w = await openWatch(t, `${WIDGETS}?watch=true&resourceVersion=${rv}&allowWatchBookmarks=true&timeoutSeconds=1`);
    const created = await t.request('POST', WIDGETS, { body: widget('f') });
    const events = await w.rest();
    assert.deepEqual(events.map((e) => e.type), ['ADDED', 'BOOKMARK']);
    assert.deepEqual(events[1].object, {
      apiVersion: 'widgets.example.com/v1',
      kind: 'Widget',
      metadata: { resourceVersion: created.body.metadata.resourceVersion },
    });
    await t.request('DELETE', `${WIDGETS}/f`);
  });

  it('sends the initial state and an initial-events-end BOOKMARK for sendInitialEvents (WatchList)', async () => {
    const w = await openWatch(t, `${WIDGETS}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=5`);
    const list = await t.request('GET', WIDGETS);
    const first = [await w.next(), await w.next(), await w.next()];
    assert.deepEqual(first.map((e) => [e?.type, e?.object.metadata.name]), [['ADDED', 'a'], ['ADDED', 'b'], ['BOOKMARK', undefined]]);
    assert.deepEqual(first[2]?.object.metadata, {
      resourceVersion: list.body.metadata.resourceVersion,
      annotations: { 'k8s.io/initial-events-end': 'true' },
    });
    await t.request('POST', WIDGETS, { body: widget('g') });
    assert.equal((await w.next())?.object.metadata.name, 'g');
    w.close();
    await t.request('DELETE', `${WIDGETS}/g`);
  });

  it('sends BOOKMARKs as row-less Tables when the Accept asks for Table', async () => {
    const rv = (await t.request('GET', WIDGETS)).body.metadata.resourceVersion;
    const w = await openWatch(t, `${WIDGETS}?watch=true&resourceVersion=${rv}&allowWatchBookmarks=true&timeoutSeconds=1`, TABLE_ACCEPT);
    const [bookmark] = await w.rest();
    assert.equal(bookmark.type, 'BOOKMARK');
    assert.equal(bookmark.object.kind, 'Table');
    assert.deepEqual(bookmark.object.rows, []);
    assert.equal(bookmark.object.metadata.resourceVersion, rv);
  });

  it('releases the cache watcher when the client disconnects', async () => {
    await eventually(() => watchers() === 0, 'no open watchers');
    const opened = await Promise.all(Array.from({ length: 20 }, () => openWatch(t, `${WIDGETS}?watch=true&resourceVersion=0`)));
    await Promise.all(opened.map((w) => w.next()));
    assert.equal(watchers(), 20);
    for (const w of opened) w.close();
    await eventually(() => watchers() === 0, 'watchers released after disconnect');
  });

  it('watches one object through fieldSelector=metadata.name', async () => {
    const rv = (await t.request('GET', WIDGETS)).body.metadata.resourceVersion;
    const w = await openWatch(t, `${WIDGETS}?watch=true&resourceVersion=${rv}&fieldSelector=metadata.name%3Db&timeoutSeconds=5`);
    await t.request('PATCH', `${WIDGETS}/a`, { body: { spec: { replicas: 2 } }, contentType: 'application/merge-patch+json' });
    await t.request('PATCH', `${WIDGETS}/b`, { body: { spec: { replicas: 3 } }, contentType: 'application/merge-patch+json' });
    const e = await w.next();
    assert.deepEqual([e?.type, e?.object.metadata.name, e?.object.spec.replicas], ['MODIFIED', 'b', 3]);
    w.close();
  });
});

describe('resourceVersion on get and list', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false, watchCache: { waitTimeoutMs: 200 } });
    for (let i = 0; i < 7; i++) await t.request('POST', WIDGETS, { body: widget(`w${i}`) });
  });
  after(() => t.close());

  it('refuses invalid combinations as kube does', async () => {
    const cases: Array<[string, number, string]> = [
      ['?resourceVersionMatch=Exact', 422, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided'],
      ['?resourceVersion=0&resourceVersionMatch=Exact', 422, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"'],
      ['?resourceVersion=5&resourceVersionMatch=Newest', 422, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""'],
      ['?limit=1&continue=abc&resourceVersion=5', 400, 'specifying resource version is not allowed when using continue'],
      // kube's storage.ValidateListOptions refuses a resourceVersion beside continue before it parses one.
      ['?limit=1&continue=abc&resourceVersion=abc', 400, 'specifying resource version is not allowed when using continue'],
      ['?sendInitialEvents=true', 422, 'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list'],
      ['?watch=true&resourceVersionMatch=NotOlderThan', 422, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'],
      ['?watch=true&sendInitialEvents=true', 422, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'],
      ['?resourceVersion=abc', 400, 'invalid resource version: "abc"'],
      // A watch hears it as the answer's status, not as an ERROR event in a 200 stream.
      ['?watch=true&resourceVersion=abc', 400, 'invalid resource version: "abc"'],
      ['?watch=true&resourceVersion=-1', 400, 'invalid resource version: "-1"'],
    ];
    for (const [query, code, message] of cases) {
      const r = await t.request('GET', WIDGETS + query);
      assert.equal(r.status, code, query);
      assert.equal(r.body.message, message, query);
    }
  });

  it('serves 0 (any), N (not older than), Exact N, and times out on a future N with 504', async () => {
    const first = await t.request('GET', `${WIDGETS}/w0`);
    const old = first.body.metadata.resourceVersion;
    await t.request('PATCH', `${WIDGETS}/w0`, { body: { spec: { replicas: 9 } }, contentType: 'application/merge-patch+json' });
    const any = await t.request('GET', `${WIDGETS}?resourceVersion=0`);
    assert.equal(any.status, 200);
    assert.equal(any.body.items.length, 7);
    const exact = await t.request('GET', `${WIDGETS}?resourceVersion=${old}&resourceVersionMatch=Exact`);
    assert.equal(exact.body.metadata.resourceVersion, old);
    assert.equal(exact.body.items.length, 1, 'only w0 existed then');
    const notOlder = await t.request('GET', `${WIDGETS}?resourceVersion=${old}&resourceVersionMatch=NotOlderThan`);
    assert.equal(notOlder.body.items[0].spec.replicas, 9);
    const got = await t.request('GET', `${WIDGETS}/w0?resourceVersion=${old}`);
    assert.equal(got.body.spec.replicas, 9);
    const future = Number(any.body.metadata.resourceVersion) + 100;
    for (const path of [`${WIDGETS}?resourceVersion=${future}`, `${WIDGETS}/w0?resourceVersion=${future}`]) {
      const r = await t.request('GET', path);
      assert.equal(r.status, 504, path);
      assert.equal(r.body.reason, 'Timeout');
      assert.match(r.body.message, /^Timeout: Too large resource version: \d+, current: \d+$/);
      assert.deepEqual(r.body.details, { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 });
      assert.equal(r.headers.get('retry-after'), '1');
    }
  });

  it('pages consistently under concurrent writes; a compacted token is 410', async () => {
    const first = await t.request('GET', `${WIDGETS}?limit=3`);
    const rv = first.body.metadata.resourceVersion;
    const names = first.body.items.map((o: { metadata: { name: string } }) => o.metadata.name);
    let token = first.body.metadata.continue;
    let step = 0;
    while (token) {
      await t.request('POST', WIDGETS, { body: widget(`x${step++}`) });
      await t.request('DELETE', `${WIDGETS}/w6`);
      const page = await t.request('GET', `${WIDGETS}?limit=3&continue=${encodeURIComponent(token)}`);
      assert.equal(page.status, 200);
      assert.equal(page.body.metadata.resourceVersion, rv);
      names.push(...page.body.items.map((o: { metadata: { name: string } }) => o.metadata.name));
      token = page.body.metadata.continue;
    }
    assert.deepEqual(names, ['w0', 'w1', 'w2', 'w3', 'w4', 'w5', 'w6']);
    const again = await t.request('GET', `${WIDGETS}?limit=2`);
    const cacher = t.server.cachers?.get(WIDGETS_PREFIX);
    assert.ok(cacher);
    await t.request('POST', WIDGETS, { body: widget('y') });
    await cacher.compact(await t.server.storage.currentRevision());
    const expired = await t.request('GET', `${WIDGETS}?limit=2&continue=${encodeURIComponent(again.body.metadata.continue)}`);
    assert.equal(expired.status, 410);
    assert.equal(expired.body.reason, 'Expired');
    assert.match(expired.body.message, /continue parameter is too old/);
    // kube's inconsistent continue: the 410 carries a token that lists on at the latest revision.
    assert.ok(expired.body.metadata.continue, JSON.stringify(expired.body));
    const rest = await t.request('GET', `${WIDGETS}?limit=100&continue=${encodeURIComponent(expired.body.metadata.continue)}`);
    assert.equal(rest.status, 200);
    assert.equal(rest.body.metadata.resourceVersion, String(await t.server.storage.currentRevision()));
    const seen = new Set(again.body.items.map((o: { metadata: { name: string } }) => o.metadata.name));
    assert.ok(rest.body.items.some((o: { metadata: { name: string } }) => o.metadata.name === 'y'));
    assert.ok(rest.body.items.every((o: { metadata: { name: string } }) => !seen.has(o.metadata.name)));
  });
});

/** Open watches on the widgets cache. */
function widgetWatchers(t: TestServer): number {
  return t.server.cachers?.get(resourcePrefix('widgets.example.com', 'widgets'))?.watcherCount ?? 0;
}

describe('a slow watch client', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ controllers: false, watchCache: { watcherBufferSize: 5 } });
  });
  after(() => t.close());

  it('is disconnected once it falls behind, instead of buffering without bound', async () => {
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      httpGet(`${t.url}${WIDGETS}?watch=true&resourceVersion=0`, resolve).on('error', reject);
    });
    res.pause();
    let ended = false;
    res.on('close', () => (ended = true));
    await eventually(() => widgetWatchers(t) === 1, 'the watch to start');
    const notes = ['x'.repeat(256 * 1024)];
    for (let i = 0; i < 300 && widgetWatchers(t) === 1; i++) {
      assert.equal((await t.request('POST', WIDGETS, { body: widget(`big${i}`, { replicas: 1, notes }) })).status, 201);
    }
    await eventually(() => widgetWatchers(t) === 0, 'the slow watcher to be closed');
    res.resume();
    res.on('data', () => undefined);
    await eventually(() => ended, 'the response to end');
  });
});

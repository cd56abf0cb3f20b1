/**
 * ResourceClient.watchWithResume against a real kgen server: list then watch, resume after a
 * dropped connection and after the server ends a watch, relist on 410 after compaction, backoff
 * while the server is unreachable. Connections are broken by a TCP proxy, never mocked.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Backoff, isGone, isNotFound, isTransientError, ResourceClient } from '@kgen/client';
import { startTestServer, type TestServer } from '../server/testserver.js';
import { RecordingRest, WIDGETS, assertIncreasing, consume, describeEvent, newWidget, until, widgetClient, type Widget } from './helpers.js';
import { startProxy, type Proxy } from './proxy.js';
import { startStub } from './stub-server.js';

const FAST = { initialMs: 10, maxMs: 80, factor: 2, jitter: 0 };

describe('watchWithResume', () => {
  let ts: TestServer;
  let proxy: Proxy;
  let direct: RecordingRest;
  let ns: string;
  let counter = 0;

  before(async () => {
    ts = await startTestServer({ log: () => {} });
    proxy = await startProxy(ts.url);
    direct = new RecordingRest({ server: ts.url });
  });
  after(async () => {
    direct.close();
    await proxy.close();
    await ts.close();
  });
  beforeEach(async () => {
    ns = `rw-${++counter}`;
    await direct.request({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } });
  });

  /** The writer: straight to the server. The watcher: through the proxy, without RestClient retries. */
  const writer = () => widgetClient(direct, ns);
  const watcher = (rest = new RecordingRest({ server: proxy.url, maxRetries: 0 })) => ({ rest, client: widgetClient(rest, ns) });

  it('lists first (ADDED per object), then yields typed changes in order', async () => {
    await writer().create(newWidget('a', 1));
    await writer().create(newWidget('b', 2));
    const { rest, client } = watcher();
    const ac = new AbortController();
    const c = consume(client.watchWithResume({ signal: ac.signal, backoff: FAST }));
    await until(() => c.events.length === 2, 'the initial list');
    await writer().create(newWidget('c', 3));
    await writer().mergePatch('a', { spec: { replicas: 5 } });
    await writer().delete('b');
    await until(() => c.events.length === 5, 'three changes');
    ac.abort();
    await c.done;
    assert.equal(c.error(), undefined);
    assert.deepEqual(c.events.map(describeEvent), ['ADDED a 1', 'ADDED b 2', 'ADDED c 3', 'MODIFIED a 5', 'DELETED b 2']);
    const typed: Widget = c.events[2]!.object;
    assert.equal(typed.kind, 'Widget');
    assertIncreasing(c.events.slice(2));
    const [list, watch] = [rest.lists()[0]!, rest.watches()[0]!];
    assert.equal(list.query?.limit, 500, 'the list is paged');
    assert.equal(watch.query?.allowWatchBookmarks, true);
    assert.ok(Number(watch.query?.resourceVersion) >= Number(c.events[1]!.object.metadata.resourceVersion), 'the watch starts at the list');
    rest.close();
  });

  it('starts from a resourceVersion without listing, and with initialEvents: false yields only later changes', async () => {
    const a = await writer().create(newWidget('a', 1));
    await writer().mergePatch('a', { spec: { replicas: 2 } });
    const { rest, client } = watcher();
    const ac = new AbortController();
    const fromRV = consume(client.watchWithResume({ resourceVersion: a.metadata.resourceVersion, signal: ac.signal, backoff: FAST }));
    const later = consume(client.watchWithResume({ initialEvents: false, signal: ac.signal, backoff: FAST }));
    await until(() => fromRV.events.length === 1, 'the change after the given version');
    await until(() => rest.watches().length === 2, 'both watches open');
    await writer().mergePatch('a', { spec: { replicas: 3 } });
    await until(() => fromRV.events.length === 2 && later.events.length === 1, 'the later change');
    ac.abort();
    await Promise.all([fromRV.done, later.done]);
    assert.deepEqual(fromRV.events.map(describeEvent), ['MODIFIED a 2', 'MODIFIED a 3']);
    assert.deepEqual(later.events.map(describeEvent), ['MODIFIED a 3']);
    assert.equal(rest.lists().length, 1, 'only the initialEvents:false watch listed');
    rest.close();
  });

  it('resumes from the last resourceVersion after dropped connections: nothing lost, nothing twice', async () => {
    const { rest, client } = watcher();
    const ac = new AbortController();
    const c = consume(client.watchWithResume({ signal: ac.signal, backoff: FAST }));
    await until(() => rest.watches().length === 1, 'the first watch');
    const expected: string[] = [];
    for (let i = 0; i < 12; i++) {
      const name = `w${i % 4}`;
      if (i < 4) await writer().create(newWidget(name, i));
      else await writer().mergePatch(name, { spec: { replicas: i } });
      expected.push(`${i < 4 ? 'ADDED' : 'MODIFIED'} ${name} ${i}`);
      if (i % 3 === 2) {
        await until(() => c.events.length === expected.length, `event ${i}`);
        proxy.drop(); // mid-watch, with more writes to come while it reconnects
      }
    }
    await writer().delete('w0');
    expected.push('DELETED w0 8');
    await until(() => c.events.length >= expected.length, 'every change');
    ac.abort();
    await c.done;
    assert.deepEqual(c.events.map(describeEvent), expected);
    assertIncreasing(c.events);
    const watches = rest.watches();
    assert.ok(watches.length >= 5, `re-watched after each drop (${watches.length} watches)`);
    for (const w of watches.slice(1)) assert.match(String(w.query?.resourceVersion), /^\d+$/, 'each re-watch resumes from a version');
    rest.close();
  });

  it('re-watches from the last version when the server ends the watch (timeoutSeconds)', async () => {
    const { rest, client } = watcher();
    const ac = new AbortController();
    const c = consume(client.watchWithResume({ signal: ac.signal, backoff: FAST, watchTimeoutSeconds: 1 }));
    await until(() => rest.watches().length === 1, 'the first watch');
    await writer().create(newWidget('t', 1));
    await until(() => rest.watches().length === 2, 'the server to end the first watch', 5_000);
    await writer().mergePatch('t', { spec: { replicas: 2 } });
    await until(() => c.events.length === 2, 'both changes');
    ac.abort();
    await c.done;
    assert.deepEqual(c.events.map(describeEvent), ['ADDED t 1', 'MODIFIED t 2']);
    assert.equal(rest.watches()[1]!.query?.resourceVersion, c.events[0]!.object.metadata.resourceVersion);
    assert.equal(rest.watches()[1]!.query?.timeoutSeconds, 1);
    rest.close();
  });

  it('relists on 410 after compaction and yields the difference from what it delivered', async () => {
    // A watch cache of 2 events, so the missed changes fall out of it and storage answers 410.
    const small = await startTestServer({ log: () => {}, watchCache: { eventCapacity: 2 } });
    const proxy = await startProxy(small.url);
    const smallRest = new RecordingRest({ server: small.url });
    await smallRest.request({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } });
    const writer = () => widgetClient(smallRest, ns);
    for (const [name, replicas] of [['keep', 1], ['change', 1], ['remove', 1]] as const) await writer().create(newWidget(name, replicas));
    const rest = new RecordingRest({ server: proxy.url, maxRetries: 0 });
    const client = widgetClient(rest, ns);
    const errors: unknown[] = [];
    const ac = new AbortController();
    const c = consume(client.watchWithResume({ signal: ac.signal, backoff: FAST, onError: (e) => errors.push(e) }));
    await until(() => c.events.length === 3, 'the initial list');
    await proxy.refuse(); // the watcher falls behind
    await until(() => errors.some(isTransientError), 'a refused reconnection');
    await writer().mergePatch('change', { spec: { replicas: 2 } });
    await writer().delete('remove');
    await writer().create(newWidget('new', 7));
    await writer().create(newWidget('ephemeral', 1));
    await writer().delete('ephemeral');
    await writer().mergePatch('change', { spec: { replicas: 3 } });
    await small.server.storage.compact(await small.server.storage.currentRevision());
    await proxy.accept();
    await until(() => c.events.length === 6, 'the relisted difference');
    await writer().mergePatch('keep', { spec: { replicas: 9 } });
    await until(() => c.events.length === 7, 'a change after the relist');
    ac.abort();
    await c.done;
    assert.deepEqual(c.events.slice(3).map(describeEvent), ['ADDED new 7', 'MODIFIED change 3', 'DELETED remove 1', 'MODIFIED keep 9']);
    assert.ok(errors.some(isGone), 'the 410 was reported');
    // What the consumer holds now is exactly what the server has.
    const state = new Map<string, number | undefined>();
    for (const e of c.events) e.type === 'DELETED' ? state.delete(e.object.metadata.name!) : state.set(e.object.metadata.name!, e.object.spec.replicas);
    const server = (await writer().list()).items.map((w) => [w.metadata.name!, w.spec.replicas] as const);
    assert.deepEqual([...state].sort(), [...server].sort());
    rest.close();
    smallRest.close();
    await proxy.close();
    await small.close();
  });

  it('backs off exponentially, capped, while the server is unreachable, then recovers', async () => {
    await writer().create(newWidget('late', 1));
    await proxy.refuse();
    const delays: number[] = [];
    const { rest, client } = watcher();
    const ac = new AbortController();
    const sleep = (ms: number) => {
      delays.push(ms);
      return new Promise<void>((resolve) => setTimeout(resolve, 2));
    };
    const c = consume(client.watchWithResume({ signal: ac.signal, backoff: FAST, sleep }));
    await until(() => delays.length >= 6, 'six failed attempts');
    await proxy.accept();
    await until(() => c.events.length === 1, 'the list once reachable');
    ac.abort();
    await c.done;
    assert.deepEqual(delays.slice(0, 6), [10, 20, 40, 80, 80, 80]);
    assert.deepEqual(c.events.map(describeEvent), ['ADDED late 1']);
    rest.close();
  });

  it('throws what retrying cannot fix', async () => {
    const { rest } = watcher();
    const missing = new ResourceClient<Widget>(rest, { ...WIDGETS, plural: 'nonesuches' }, ns);
    const c = consume(missing.watchWithResume({ backoff: FAST }));
    await c.done;
    assert.ok(isNotFound(c.error()), String(c.error()));
    rest.close();
  });
});

describe('watchWithResume against a scripted server', () => {
  const event = (type: string, name: string, rv: string) =>
    JSON.stringify({ type, object: { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name, namespace: 'ns', resourceVersion: rv }, spec: {} } }) + '\n';

  it('resumes from BOOKMARK versions, drops replayed events, and yields bookmarks only when asked', async () => {
    // Watch 1 sends a change and a bookmark, then ends; watch 2 replays the change (a server
    // that resumes loosely) before a new one.
    const streams = [event('ADDED', 'a', '5') + event('BOOKMARK', '', '9'), event('ADDED', 'a', '5') + event('MODIFIED', 'a', '10')];
    const stub = await startStub((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(streams[Math.min(stub.requests.length - 1, streams.length - 1)]);
    });
    for (const bookmarks of [false, true]) {
      stub.requests.length = 0;
      const rest = new RecordingRest({ server: stub.url, maxRetries: 0 });
      const ac = new AbortController();
      const c = consume(widgetClient(rest, 'ns').watchWithResume({ resourceVersion: '1', bookmarks, signal: ac.signal, backoff: FAST }));
      await until(() => c.events.length === (bookmarks ? 3 : 2) && stub.requests.length >= 3, 'the events and a third watch');
      ac.abort();
      await c.done;
      assert.deepEqual(
        c.events.map((e) => `${e.type}@${e.object.metadata.resourceVersion}`),
        bookmarks ? ['ADDED@5', 'BOOKMARK@9', 'MODIFIED@10'] : ['ADDED@5', 'MODIFIED@10'],
      );
      assert.deepEqual(stub.requests.slice(0, 3).map((r) => r.query.get('resourceVersion')), ['1', '9', '10']);
      assert.ok(stub.requests.every((r) => r.query.get('allowWatchBookmarks') === 'true'));
      rest.close();
    }
    await stub.close();
  });
});

describe('watchWithResume against a server that answers 410 in a loop', () => {
  it('backs off between relists, as client-go\'s reflector (its delay runs between ListAndWatch calls)', async () => {
    // A broken server (or one behind a balancer whose members disagree) lists at rv 5 and
    // ends every watch at once with 410: without backoff the client lists and watches in a loop.
    const gone = { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410, message: 'too old resource version: 5 (9)' };
    const stub = await startStub((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      if (req.query.get('watch') === 'true') res.end(JSON.stringify({ type: 'ERROR', object: gone }) + '\n');
      else res.end(JSON.stringify({ kind: 'WidgetList', apiVersion: 'widgets.example.com/v1', metadata: { resourceVersion: '5' }, items: [] }));
    });
    const rest = new RecordingRest({ server: stub.url, maxRetries: 0, qps: 0 });
    const ac = new AbortController();
    const delays: number[] = [];
    const sleep = async (ms: number) => {
      delays.push(ms);
      if (delays.length >= 5) ac.abort();
    };
    const c = consume(widgetClient(rest, 'ns').watchWithResume({ signal: ac.signal, backoff: FAST, sleep }));
    await until(() => ac.signal.aborted || stub.requests.length >= 200, 'five pauses, or 200 requests without one');
    ac.abort();
    await c.done;
    assert.deepEqual(delays, [10, 20, 40, 80, 80]);
    assert.ok(stub.requests.length <= 12, `${stub.requests.length} requests for 5 pauses`);
    rest.close();
    await stub.close();
  });
});

describe('Backoff', () => {
  it('doubles from initial to the cap, adds up to jitter·delay, and resets', () => {
    const exact = new Backoff({ initialMs: 100, maxMs: 1000, jitter: 0 });
    assert.deepEqual([1, 2, 3, 4, 5, 6].map(() => exact.next()), [100, 200, 400, 800, 1000, 1000]);
    exact.reset();
    assert.equal(exact.next(), 100);
    const jittered = new Backoff({ initialMs: 100, maxMs: 1000, jitter: 1, random: () => 0.5 });
    assert.deepEqual([jittered.next(), jittered.next()], [150, 300]);
    const defaults = new Backoff({ random: () => 0 });
    assert.equal(defaults.next(), 800, "client-go's reflector starts at 800 ms");
    assert.throws(() => new Backoff({ initialMs: 10, maxMs: 5 }), /initialMs <= maxMs/);
  });
});

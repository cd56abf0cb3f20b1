/** Watch cache behaviour beyond the Storage contract: cost, fan-out, buffers, history and bookmarks. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { KubeObject } from '../../runtime/api/meta.js';
import { Cacher, type CacheEvent, type CacherOptions } from '../../runtime/storage/cacher/index.js';
import { StorageError, type Storage } from '../../runtime/storage/interface.js';
import { MemoryStorage } from '../../runtime/storage/memory.js';
import { SqliteStorage } from '../../runtime/storage/sqlite.js';
import { countingProxy, eventually } from './cacher-helpers.js';
import { key, names, PREFIX, widget } from './conformance-fixtures.js';
import { EventCollector, summary } from './watch-helpers.js';

const root = mkdtempSync(join(tmpdir(), 'kgen-cacher-'));
after(() => rmSync(root, { recursive: true, force: true }));

async function withCacher<T>(
  options: Partial<CacherOptions>,
  fn: (c: Cacher, backend: Storage, calls: Record<string, number>, reset: () => void) => Promise<T>,
  backend: Storage = new MemoryStorage(),
): Promise<T> {
  const proxy = countingProxy(backend);
  const cacher = new Cacher(proxy.storage, { prefix: PREFIX, ...options });
  try {
    return await fn(cacher, backend, proxy.calls, proxy.reset);
  } finally {
    await cacher.close();
    await backend.close();
  }
}

/** Drains a cache watcher in the background. */
class CacheEvents {
  readonly events: CacheEvent[] = [];
  done = false;
  error: unknown;
  constructor(readonly watcher: AsyncIterable<CacheEvent> & { stop(): void }) {
    void (async () => {
      try {
        for await (const e of watcher) this.events.push(e);
      } catch (err) {
        this.error = err;
      } finally {
        this.done = true;
      }
    })();
  }
  async waitFor(n: number): Promise<CacheEvent[]> {
    await eventually(() => this.events.length >= n || this.done, 3000, `${n} events (have ${this.events.length})`);
    return this.events.slice();
  }
}

const bump = (v: number) => (cur: KubeObject | undefined) => ({ ...(cur as KubeObject), spec: { v } });

async function fill(s: Storage, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await s.create(key(`ns${i % 3}`, `w${String(i).padStart(5, '0')}`), widget(`w${i}`, { i }));
}

describe('cacher: reads', () => {
  it('lists 5,000 objects at resourceVersion=0 without touching the backend', async (t) => {
    await withCacher({}, async (c, backend, calls, reset) => {
      await fill(backend, 5000);
      await c.getList(PREFIX); // a consistent list makes sure the cache caught up
      reset();
      const started = performance.now();
      const list = await c.getList(PREFIX, { resourceVersion: '0' });
      const fromCache = performance.now() - started;
      assert.equal(list.items.length, 5000);
      const paged = await c.getList(`${PREFIX}ns1/`, { resourceVersion: '0', limit: 500 });
      assert.equal(paged.items.length, 500);
      assert.equal(paged.remainingItemCount, 1667 - 500);
      const next = await c.getList(`${PREFIX}ns1/`, { limit: 500, continue: paged.continue });
      assert.equal(next.items[0].metadata.name, 'w1501');
      assert.deepEqual(calls, {}, 'no backend call at all');
      const consistent = await c.getList(PREFIX, { limit: 10 });
      assert.equal(consistent.items.length, 10);
      assert.deepEqual(Object.keys(calls), ['currentRevision'], 'a consistent list only reads the revision');
      const t0 = performance.now();
      const direct = await backend.getList(PREFIX);
      const fromBackend = performance.now() - t0;
      assert.deepEqual(direct.items, list.items);
      t.diagnostic(`list of 5000: cache ${fromCache.toFixed(1)} ms, memory backend ${fromBackend.toFixed(1)} ms`);
    });
  });

  it('serves sqlite lists from memory; the backend is read only for the revision', async (t) => {
    await withCacher(
      {},
      async (c, backend, calls, reset) => {
        await fill(backend, 2000);
        await c.getList(PREFIX);
        reset();
        const t0 = performance.now();
        const cached = await c.getList(PREFIX);
        const fromCache = performance.now() - t0;
        assert.deepEqual(Object.keys(calls), ['currentRevision']);
        const t1 = performance.now();
        const direct = await backend.getList(PREFIX);
        const fromBackend = performance.now() - t1;
        assert.deepEqual(cached, direct);
        t.diagnostic(`consistent list of 2000: cache ${fromCache.toFixed(1)} ms, sqlite ${fromBackend.toFixed(1)} ms`);
      },
      new SqliteStorage(join(root, 'reads.db')),
    );
  });

  it('a consistent list sees writes to other prefixes advance the revision (progress)', async () => {
    await withCacher({}, async (c, backend) => {
      await backend.create(key('ns1', 'a'), widget('a'));
      await backend.create('/registry/example.com/others/ns1/x', widget('x'));
      const list = await c.getList(PREFIX);
      assert.equal(list.resourceVersion, await backend.currentRevision());
      assert.deepEqual(names(list.items), ['a']);
    });
  });

  it('get: unset reads the cache only when it is current (else the backend), 0 and N read the cache, a future N times out as TooLargeResourceVersion', async () => {
    await withCacher({ waitTimeoutMs: 100 }, async (c, backend, calls, reset) => {
      const a = await c.create(key('ns1', 'a'), widget('a'));
      await c.getList(PREFIX);
      reset();
      assert.deepEqual(await c.get(key('ns1', 'a'), { resourceVersion: a.metadata.resourceVersion }), a);
      assert.deepEqual(await c.get(key('ns1', 'a'), { resourceVersion: '0' }), a);
      assert.equal(await c.get(key('ns1', 'zz'), { resourceVersion: '0', ignoreNotFound: true }), undefined);
      assert.deepEqual(calls, {});
      // Current at the backend's revision: served from the cache (one revision read, no get).
      assert.deepEqual(await c.get(key('ns1', 'a')), a);
      assert.equal(calls.get, undefined);
      // A write outside the cache's prefix moves the backend on: the backend answers.
      await backend.create('/registry/other/x', widget('x'));
      assert.deepEqual(await c.get(key('ns1', 'a')), a);
      assert.equal(calls.get, 1);
      const future = String(Number(await backend.currentRevision()) + 5);
      await assert.rejects(c.get(key('ns1', 'a'), { resourceVersion: future }), (err: StorageError) => {
        assert.equal(err.code, 'TooLargeResourceVersion');
        assert.match(err.message, /^Too large resource version: \d+, current: \d+$/);
        return true;
      });
    });
  });

  it('serves Exact lists and continue tokens from its history while writes go on', async () => {
    await withCacher({}, async (c, backend, calls, reset) => {
      await fill(c, 20);
      const first = await c.getList(PREFIX, { limit: 7 });
      const old = first.resourceVersion;
      for (let i = 0; i < 5; i++) {
        await c.delete(key('ns0', `w${String(i * 3).padStart(5, '0')}`));
        await c.create(key('ns0', `new${i}`), widget(`new${i}`));
      }
      await c.getList(PREFIX);
      reset();
      const exact = await c.getList(PREFIX, { resourceVersion: old, resourceVersionMatch: 'Exact' });
      assert.equal(exact.items.length, 20);
      const pages = [...first.items];
      let token = first.continue;
      while (token) {
        const page = await c.getList(PREFIX, { limit: 7, continue: token });
        assert.equal(page.resourceVersion, old);
        pages.push(...page.items);
        token = page.continue;
      }
      assert.deepEqual(pages, exact.items);
      assert.deepEqual(calls, {}, 'history served from the ring');
      assert.deepEqual(exact, await backend.getList(PREFIX, { resourceVersion: old, resourceVersionMatch: 'Exact' }));
    });
  });

  it('delegates Exact lists and continue tokens older than its ring to the backend', async () => {
    await withCacher({ eventCapacity: 3 }, async (c, _backend, calls, reset) => {
      await fill(c, 6);
      const first = await c.getList(PREFIX, { limit: 2 });
      for (let i = 0; i < 5; i++) await c.guaranteedUpdate(key('ns0', 'w00000'), {}, bump(i));
      await c.getList(PREFIX);
      reset();
      const second = await c.getList(PREFIX, { limit: 10, continue: first.continue });
      assert.equal(second.resourceVersion, first.resourceVersion);
      assert.equal(second.items.length, 4);
      assert.equal(calls.getList, 1, 'the backend served the old page');
      await c.compact(await c.currentRevision());
      await assert.rejects(c.getList(PREFIX, { limit: 10, continue: first.continue }), (err: StorageError) => err.code === 'Expired');
    });
  });
});

describe('cacher: watch', () => {
  it('fans one backend watch out to 2,000 watchers', async (t) => {
    await withCacher({}, async (c, backend) => {
      await c.getList(PREFIX);
      const before = (backend as MemoryStorage).watcherCount;
      const collectors = Array.from({ length: 2000 }, (_, i) => new EventCollector(c.watch(i % 2 ? PREFIX : `${PREFIX}ns1/`)));
      await eventually(() => c.watcherCount === 2000);
      const t0 = performance.now();
      const created = await c.create(key('ns1', 'a'), widget('a'));
      await eventually(() => collectors.every((w) => w.events.length === 1), 5000, 'every watcher to see the event');
      t.diagnostic(`2000 watchers received one event in ${(performance.now() - t0).toFixed(1)} ms`);
      for (const w of collectors) assert.equal(w.events[0].object.metadata.resourceVersion, created.metadata.resourceVersion);
      assert.equal((backend as MemoryStorage).watcherCount, before, 'no backend watch per watcher');
      assert.equal(before, 1, 'one backend watch for the cache');
      for (const w of collectors) w.stop();
      assert.equal(c.watcherCount, 0);
    });
  });

  it('terminates a watcher that falls behind its buffer; others keep going', async () => {
    await withCacher({ watcherBufferSize: 10 }, async (c) => {
      await c.getList(PREFIX);
      const slow = c.watchEvents(PREFIX, { resourceVersion: await c.currentRevision() });
      const fast = new EventCollector(c.watch(PREFIX));
      await eventually(() => c.watcherCount === 2);
      for (let i = 0; i < 30; i++) await c.create(key('ns1', `w${i}`), widget(`w${i}`));
      await fast.waitFor(30);
      assert.equal(slow.terminated, true);
      assert.equal(c.watcherCount, 1, 'the slow watcher was released');
      const it = slow[Symbol.asyncIterator]();
      assert.equal((await it.next()).done, true, 'its iteration ends (the client re-watches)');
      fast.stop();
    });
  });

  it('falls back to a backend watch for versions older than its ring, and 410 once compacted', async () => {
    await withCacher({ eventCapacity: 5 }, async (c, backend) => {
      const from = await c.currentRevision();
      const written: string[] = [];
      for (let i = 0; i < 12; i++) {
        const o = await c.create(key('ns1', `w${i}`), widget(`w${i}`));
        written.push(`ADDED ${key('ns1', `w${i}`)} ${o.metadata.resourceVersion}`);
      }
      await c.getList(PREFIX);
      const old = new EventCollector(c.watch(PREFIX, { resourceVersion: from }));
      await old.waitFor(12);
      assert.deepEqual(summary(old.events), written);
      assert.equal((backend as MemoryStorage).watcherCount, 2, 'a backend watch for the old version');
      const live = await c.create(key('ns1', 'live'), widget('live'));
      await old.waitFor(13);
      assert.equal(old.events[12].object.metadata.resourceVersion, live.metadata.resourceVersion);
      old.stop();
      const recent = new EventCollector(c.watch(PREFIX, { resourceVersion: old.events[10].resourceVersion }));
      await recent.waitFor(2);
      assert.equal((backend as MemoryStorage).watcherCount, 1, 'recent versions come from the ring');
      recent.stop();
      await c.compact(old.events[11].resourceVersion);
      const expired = new EventCollector(c.watch(PREFIX, { resourceVersion: from }));
      await expired.waitFor(1);
      assert.ok(expired.error instanceof StorageError && expired.error.code === 'Expired', String(expired.error));
    });
  });

  it('sends initial events, then an initial-events-end bookmark, then changes (WatchList)', async () => {
    await withCacher({}, async (c) => {
      await c.create(key('ns1', 'a'), widget('a'));
      await c.create(key('ns2', 'b'), widget('b'));
      const w = new CacheEvents(
        c.watchEvents(`${PREFIX}ns1/`, { sendInitialEvents: true, initialEventsEndBookmark: true, allowBookmarks: true }),
      );
      const [added, end] = await w.waitFor(2);
      assert.equal(added.type, 'ADDED');
      assert.equal(added.type === 'ADDED' && added.object.metadata.name, 'a');
      assert.deepEqual(end, { type: 'BOOKMARK', resourceVersion: await c.currentRevision(), initialEventsEnd: true });
      const c2 = await c.create(key('ns1', 'c'), widget('c'));
      const events = await w.waitFor(3);
      assert.equal(events[2].resourceVersion, c2.metadata.resourceVersion);
      w.watcher.stop();
    });
  });

  it('sends periodic bookmarks and one when the timeout ends the watch', async () => {
    await withCacher({ bookmarkIntervalMs: 20 }, async (c) => {
      await c.getList(PREFIX);
      const silent = new CacheEvents(c.watchEvents(PREFIX, { resourceVersion: '0', sendInitialEvents: true, timeoutMs: 150 }));
      const w = new CacheEvents(c.watchEvents(PREFIX, { resourceVersion: '0', sendInitialEvents: true, allowBookmarks: true, timeoutMs: 150 }));
      await eventually(() => w.events.length >= 1);
      const a = await c.create('/registry/example.com/others/x', widget('x'));
      await eventually(() => w.done && silent.done, 3000, 'the timeout');
      assert.deepEqual(silent.events, []);
      assert.ok(w.events.length >= 2, `periodic and final bookmarks, got ${w.events.length}`);
      assert.ok(w.events.every((e) => e.type === 'BOOKMARK' && !e.initialEventsEnd));
      assert.equal(w.events[w.events.length - 1].resourceVersion, a.metadata.resourceVersion, 'progress reaches the bookmark');
    });
  });

  it('ends every watch on close without touching the shared backend', async () => {
    const backend = new MemoryStorage();
    const c = new Cacher(backend, { prefix: PREFIX });
    const w = new EventCollector(c.watch(PREFIX));
    await c.close();
    await w.waitDone();
    assert.equal(w.error, undefined);
    await backend.create(key('ns1', 'a'), widget('a'));
    assert.equal(backend.watcherCount, 0);
    await backend.close();
  });
});

/**
 * A watcher that never reads its socket (sec11, issue 19): what the server holds for it must be
 * bounded, as kube's cacheWatcher is ("Forcing ... watcher close due to unresponsiveness": a
 * watcher whose result channel stays full is closed, and the client re-lists).
 *
 * Two places could grow per watcher: the HTTP response (events written on a socket no one reads
 * pile up in node's userland buffer unless the writer waits for 'drain') and the watcher's own
 * buffer of events (bounded, then terminated). Here stalled watchers (raw sockets, paused) sit
 * beside one that reads, while far more bytes are written than a socket's kernel buffers take:
 * - every stalled watcher is closed (the cache's watcher count falls back to the reader's one);
 * - resumed afterwards, a stalled socket gets what the kernel and one chunk held, then the end of
 *   the chunked stream: far fewer events than were written (unbounded, it would get them all);
 * - the reader gets every event.
 * The watchers' buffer is 50 events here (watchCache.watcherBufferSize) to keep the test short; the
 * default is 1000, the same rule.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestServer, WIDGETS, widget, type TestServer } from '../server/testserver.js';
import { openWatchStream } from '../support/watch-stream.js';

const STALLED = 6;
const EVENTS = 240;
/** 64 KiB per event: EVENTS of them are ~15 MiB per watcher, far beyond loopback's socket buffers. */
const PADDING = 'x'.repeat(64 * 1024);

let t: TestServer;
before(async () => {
  t = await startTestServer({ controllers: false, watchCache: { watcherBufferSize: 50 } });
});
after(() => t?.close());

/** A watch request on a raw socket that is then never read. */
async function stalledWatch(port: number, rv: string): Promise<Socket> {
  const socket = connect({ port, host: '127.0.0.1' });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.write(`GET ${WIDGETS}?watch=true&resourceVersion=${rv} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  socket.pause();
  return socket;
}

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a watcher that never reads', () => {
  it('is closed once it falls behind, and what the server holds for it stays bounded', async () => {
    const cachers = t.server.cachers!;
    // The controllers' informers watch too (the garbage collector watches every resource).
    const base = cachers.watcherCount;
    const rv = (await t.request('GET', WIDGETS)).body.metadata.resourceVersion as string;
    const reader = await openWatchStream(t.url, `${WIDGETS}?watch=true&resourceVersion=${rv}`);
    const stalled: Socket[] = [];
    try {
      for (let i = 0; i < STALLED; i++) stalled.push(await stalledWatch(t.server.port, rv));
      await until(() => cachers.watcherCount === base + STALLED + 1, `every watch to start (${base} → ${cachers.watcherCount})`);

      // The reader drains as the events come; the stalled sockets do not.
      const seen: string[] = [];
      const reading = (async () => {
        while (seen.length < EVENTS) {
          const event = await reader.next();
          if (!event) break;
          seen.push(event.object.metadata.name as string);
        }
      })();
      for (let i = 0; i < EVENTS; i++) {
        const r = await t.request('POST', WIDGETS, { body: widget(`w${i}`, { replicas: 1 }, { metadata: { annotations: { padding: PADDING } } }) });
        assert.equal(r.status, 201, r.text);
      }
      await reading;
      assert.equal(seen.length, EVENTS, 'the reader gets every event');

      // Every stalled watcher was closed: only the reader's is left.
      await until(() => cachers.watcherCount === base + 1, 'the stalled watchers to be closed');

      // Resumed, a stalled socket gets what was already in flight, then the stream's end.
      const socket = stalled[0]!;
      let text = '';
      let ended = false;
      socket.setEncoding('latin1');
      socket.on('data', (d: string) => {
        text += d;
        if (text.endsWith('\r\n0\r\n\r\n')) ended = true;
      });
      socket.on('end', () => (ended = true));
      socket.resume();
      await until(() => ended, 'the stalled stream to end');
      const received = text.split('"type":"ADDED"').length - 1;
      assert.ok(received < EVENTS / 2, `a stalled watcher got ${received} of ${EVENTS} events: the server held them for it`);
    } finally {
      reader.close();
      for (const s of stalled) s.destroy();
    }
  });
});

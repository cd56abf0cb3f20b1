/**
 * Graceful shutdown, as kube-apiserver's on SIGTERM: /readyz fails first (check `shutdown`),
 * after --shutdown-delay-duration the listener closes, requests in flight finish, watches end
 * cleanly, storage closes, and `kgen serve` exits 0.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Authorizer } from '../../runtime/api/auth.js';
import { removeDir, REPO, startKgen, tempDir } from '../e2e/harness.js';
import { startTestServer, widget, WIDGETS } from '../server/testserver.js';

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Reads a stream to its end; resolves true when it ended cleanly. */
async function drainBody(res: Response): Promise<boolean> {
  const reader = res.body!.getReader();
  try {
    for (;;) if ((await reader.read()).done) return true;
  } catch {
    return false;
  }
}

describe('graceful shutdown', () => {
  it('fails /readyz first, then stops listening, drains requests in flight and ends watches cleanly', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let held = 0;
    // Holds GETs of widgets named held-*: a slow request in flight.
    const authorizer: Authorizer = {
      async authorize(a) {
        if (a.verb === 'get' && a.name.startsWith('held-')) {
          held++;
          await gate;
        }
        return { decision: 'Allow', reason: '' };
      },
    };
    const t = await startTestServer({ controllers: false, authorizer, shutdownDelayMs: 400 });
    for (const name of ['held-0', 'held-1', 'held-2']) assert.equal((await t.request('POST', WIDGETS, { body: widget(name) })).status, 201);
    const inFlight = ['held-0', 'held-1', 'held-2'].map((name) => fetch(`${t.url}${WIDGETS}/${name}`));
    const watch = await fetch(`${t.url}${WIDGETS}?watch=true`);
    assert.equal(watch.status, 200);
    const watchEnded = drainBody(watch);
    await until(() => held === 3, 'the requests to be in flight');

    const events: string[] = [];
    const closed = t.close().then(() => events.push('closed'));
    const ready = await fetch(`${t.url}/readyz?verbose`);
    assert.equal(ready.status, 500);
    assert.match(await ready.text(), /\[-\]shutdown failed: reason withheld/);
    assert.equal((await fetch(`${t.url}/livez`)).status, 200, 'liveness holds while draining');
    events.push('readyz failed');

    await until(() => fetch(`${t.url}/version`).then(() => false, () => true), 'the listener to close');
    events.push('listener closed');
    await new Promise((r) => setTimeout(r, 100));
    events.push('released');
    release();
    for (const res of await Promise.all(inFlight)) {
      assert.equal(res.status, 200, 'a request in flight finishes');
      assert.equal((await res.json()).metadata.name.startsWith('held-'), true);
    }
    assert.equal(await watchEnded, true, 'the watch ends cleanly');
    await closed;
    assert.deepEqual(events, ['readyz failed', 'listener closed', 'released', 'closed'], 'close() waited for the requests in flight');
  });

  it('a watch still in the chain when the others are ended is ended too, and close() does not wait for it for ever', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let held = 0;
    // Holds watches of widgets: a watch that reached the server before the listener closed and
    // starts streaming only after drain() has ended the streams it knew of.
    const authorizer: Authorizer = {
      async authorize(a) {
        if (a.verb === 'watch' && a.resource === 'widgets') {
          held++;
          await gate;
        }
        return { decision: 'Allow', reason: '' };
      },
    };
    const t = await startTestServer({ controllers: false, authorizer });
    const watch = fetch(`${t.url}${WIDGETS}?watch=true`);
    await until(() => held === 1, 'the watch to be in the chain');
    let closedAt = 0;
    const closed = t.close().then(() => (closedAt = Date.now()));
    await until(() => fetch(`${t.url}/version`).then(() => false, () => true), 'the listener to close');
    await new Promise((r) => setTimeout(r, 100));
    const releasedAt = Date.now();
    release();
    // Before the fix the watch streamed on and close() waited for it for ever: bounded here.
    const within = <T>(p: Promise<T>, what: string) =>
      Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} after 10 s`)), 10_000).unref())]);
    const res = await within(watch, 'no answer to the late watch');
    assert.equal(res.status, 200);
    assert.equal(await within(drainBody(res), 'the late watch still streams'), true, 'the late watch ends cleanly');
    await within(closed, 'close() still waits for the late watch');
    assert.ok(closedAt >= releasedAt, 'close() waited for the request in flight');
  });

  it('cuts off a request that does not finish within the shutdown timeout, as kube-apiserver\'s ShutdownTimeout does', async () => {
    let held = 0;
    let answer!: () => void;
    const answered = new Promise<void>((r) => (answer = r));
    // A GET that does not finish while the server closes: its authorizer answers only once this
    // test has seen the connection cut. (One that never answered left the request's 60 s deadline
    // timer running in this process, which then outlived its tests by a minute.)
    const authorizer: Authorizer = {
      async authorize(a) {
        if (a.verb === 'get' && a.name === 'stuck') {
          held++;
          await answered;
          return { decision: 'Deny', reason: 'answered after the server closed' };
        }
        return { decision: 'Allow', reason: '' };
      },
    };
    const t = await startTestServer({ controllers: false, authorizer, shutdownTimeoutMs: 1_000 });
    const stuck = fetch(`${t.url}${WIDGETS}/stuck`).then(
      (res) => res.status,
      () => 'connection closed',
    );
    await until(() => held === 1, 'the request to be in flight');
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const closed = await Promise.race([t.close().then(() => 'closed'), new Promise((r) => (timer = setTimeout(() => r('still waiting after 20 s'), 20_000)))]);
    clearTimeout(timer);
    assert.equal(closed, 'closed');
    assert.ok(Date.now() - started >= 900, 'the request in flight was given the shutdown timeout');
    assert.equal(await stuck, 'connection closed');
    answer();
  });

  it('kgen serve exits 0 on SIGTERM during load: requests in flight finish, /readyz fails first', async () => {
    const dataDir = tempDir('shutdown');
    const server = await startKgen({
      dataDir,
      args: ['serve', join(REPO, 'generated'), '--port', '0', '--data-dir', dataDir, '--shutdown-delay-duration', '2s'],
    });
    try {
      const watch = await server.fetch(`${server.url}/apis/widgets.example.com/v1/namespaces/default/widgets?watch=true`);
      assert.equal(watch.status, 200);
      const watchEnded = drainBody(watch);
      let stop = false;
      const statuses: number[] = [];
      const load = Array.from({ length: 6 }, async (_, worker) => {
        for (let i = 0; !stop; i++) {
          try {
            const res = await server.fetch(`${server.url}/apis/widgets.example.com/v1/namespaces/default/widgets`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(widget(`load-${worker}-${i}`)),
            });
            await res.arrayBuffer();
            statuses.push(res.status);
          } catch {
            // Once the listener has closed, new connections are refused.
            await new Promise((r) => setTimeout(r, 20));
          }
        }
      });
      await until(() => statuses.length >= 30, 'some load', 30_000);
      const exited = server.stop('SIGTERM');
      await until(async () => (await server.fetch(`${server.url}/readyz`).then((r) => r.status, () => 0)) === 500, '/readyz to fail');
      const servedWhileNotReady = statuses.length;
      assert.equal(await exited, 0, server.output());
      stop = true;
      await Promise.all(load);
      assert.ok(statuses.length > servedWhileNotReady, 'requests kept being served while /readyz failed');
      assert.deepEqual([...new Set(statuses)].filter((s) => s !== 201 && s !== 503), [], 'every answer was a success, or 503 while draining');
      assert.equal(await watchEnded, true, 'the watch ended cleanly');
      assert.match(server.output(), /received SIGTERM, shutting down/);
    } finally {
      await server.stop();
      removeDir(dataDir);
    }
  });
});

/**
 * Overload: past --max-requests-inflight / --max-mutating-requests-inflight, requests get 429
 * with Retry-After and a TooManyRequests Status at once; memory stays bounded while thousands are
 * refused, watches do not count, and the server serves normally once the load is gone. "Slow"
 * requests are held in the authorizer, which runs inside the in-flight slot, as a slow handler would.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Authorizer } from '../../runtime/api/auth.js';
import { startTestServer, widget, WIDGETS, type TestServer } from '../server/testserver.js';
import type { Fetch } from '../support/https.js';

const MAX_READS = 5;
const MAX_WRITES = 3;

/** Allows everything; requests of user `loader` other than watches wait until released. */
class GatedAuthorizer implements Authorizer {
  private gate!: Promise<void>;
  private open!: () => void;
  held = 0;
  constructor() {
    this.close();
  }
  close() {
    this.gate = new Promise((r) => (this.open = r));
  }
  release() {
    this.open();
  }
  async authorize(a: Parameters<Authorizer['authorize']>[0]) {
    if (a.user.username === 'loader' && a.verb !== 'watch' && a.verb !== 'impersonate') {
      this.held++;
      await this.gate;
      this.held--;
    }
    return { decision: 'Allow' as const, reason: '' };
  }
}

async function until(check: () => boolean, what: string) {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('overload protection (max-in-flight)', () => {
  let t: TestServer;
  let dir: string;
  let loader: Fetch;
  const authorizer = new GatedAuthorizer();

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kgen-overload-'));
    writeFileSync(join(dir, 'tokens.csv'), 'load-token,loader,1,loaders\n');
    t = await startTestServer({
      tls: true,
      dataDir: dir,
      controllers: false,
      tokenAuthFile: join(dir, 'tokens.csv'),
      authorizer,
      maxRequestsInflight: MAX_READS,
      maxMutatingRequestsInflight: MAX_WRITES,
    });
    loader = t.fetchAs({ token: 'load-token' });
  });
  after(async () => {
    authorizer.release();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers requests past the limits with 429, Retry-After: 1 and a Status; watches do not count', async () => {
    const reads = Array.from({ length: MAX_READS }, () => loader(`${t.url}${WIDGETS}`));
    const writes = Array.from({ length: MAX_WRITES }, (_, i) =>
      loader(`${t.url}${WIDGETS}`, { method: 'POST', body: JSON.stringify(widget(`held-${i}`)), headers: { 'content-type': 'application/json' } }),
    );
    await until(() => authorizer.held === MAX_READS + MAX_WRITES, 'the slow requests to occupy every slot');

    const refusedRead = await loader(`${t.url}${WIDGETS}/x`);
    assert.equal(refusedRead.status, 429);
    assert.equal(refusedRead.headers.get('retry-after'), '1');
    const status = await refusedRead.json();
    assert.equal(status.kind, 'Status');
    assert.equal(status.reason, 'TooManyRequests');
    assert.equal(status.code, 429);
    const refusedWrite = await loader(`${t.url}${WIDGETS}/x`, { method: 'DELETE' });
    assert.equal(refusedWrite.status, 429);

    const controller = new AbortController();
    const watch = await loader(`${t.url}${WIDGETS}?watch=true`, { signal: controller.signal });
    assert.equal(watch.status, 200, 'a watch is not limited');
    controller.abort();
    // system:masters is always served (kube: "a system:master is so powerful that they should always get an answer").
    assert.equal((await t.fetch(`${t.url}${WIDGETS}`)).status, 200);

    authorizer.release();
    for (const res of await Promise.all(reads)) assert.equal(res.status, 200);
    for (const res of await Promise.all(writes)) assert.equal(res.status, 201);
    authorizer.close();
  });

  it('keeps memory bounded while thousands of requests are refused, and recovers afterwards', async () => {
    const held = Array.from({ length: MAX_READS }, () => loader(`${t.url}${WIDGETS}`));
    await until(() => authorizer.held === MAX_READS, 'the slow requests to occupy every slot');
    global.gc?.();
    const before = process.memoryUsage().rss;
    let refused = 0;
    for (let wave = 0; wave < 10; wave++) {
      const responses = await Promise.all(Array.from({ length: 200 }, () => loader(`${t.url}${WIDGETS}?limit=1`).then(async (r) => (await r.arrayBuffer(), r.status))));
      refused += responses.filter((s) => s === 429).length;
    }
    assert.equal(refused, 2000);
    const growth = process.memoryUsage().rss - before;
    assert.ok(growth < 150 * 1024 * 1024, `RSS grew by ${Math.round(growth / 1048576)} MiB`);

    authorizer.release();
    for (const res of await Promise.all(held)) assert.equal(res.status, 200);
    const list = await loader(`${t.url}${WIDGETS}`);
    assert.equal(list.status, 200);
    assert.equal((await list.json()).items.length, MAX_WRITES);
    const created = await loader(`${t.url}${WIDGETS}`, { method: 'POST', body: JSON.stringify(widget('after')), headers: { 'content-type': 'application/json' } });
    assert.equal(created.status, 201);
  });
});

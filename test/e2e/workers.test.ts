/**
 * `kgen serve --workers 2` on a three-member etcd cluster: one listening socket, two worker
 * processes (node:cluster), each with its own watch cache.
 * - The replica suites' consistency scenarios (./replica-scenarios.ts) hold with both "replicas"
 *   being the one URL: each client's connections are handed to the workers in turn.
 * - /metrics, answered by whichever worker gets the scrape, counts the requests every worker
 *   served (prom-client's AggregatorRegistry in the primary).
 * - A killed worker is replaced, and the server keeps answering on the same URL.
 * - SQLite (and memory) storage refuse --workers 2 with a clear error.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync } from 'node:fs';
import https from 'node:https';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { Clientset } from '../../generated/client/index.js';
import { EtcdCluster } from '../support/etcd.js';
import { parseScrape, sampleSum } from '../metrics/scrape.js';
import { KGEN_BIN, REPO, removeDir, tempDir, type KgenServer } from './harness.js';
import { GENERATED, retrying, startReplica } from './replica-helpers.js';
import { incrementsSurviveLeaderLoss, writeSeenByWatchOnOther } from './replica-scenarios.js';

/**
 * The worker processes: the primary's children (from /proc) that run its own executable. A
 * primary that bundled kgen's sources on start (a cold code cache) also has esbuild's service
 * process as a child; it is not a worker.
 */
function workerPids(server: KgenServer): number[] {
  const pid = server.process.pid!;
  const file = `/proc/${pid}/task/${pid}/children`;
  assert.ok(existsSync(file), `${file} is needed to find the workers`);
  const exe = (p: number) => {
    try {
      return readlinkSync(`/proc/${p}/exe`);
    } catch {
      return undefined; // exited meanwhile
    }
  };
  const node = exe(pid);
  return readFileSync(file, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number).filter((p) => exe(p) === node);
}

/** One request on a connection of its own (so the primary hands it to the next worker), as admin. */
function freshRequest(server: KgenServer, path: string): Promise<{ status: number; body: string }> {
  const c = server.credentials();
  return new Promise((resolve, reject) => {
    const req = https.request(`${server.url}${path}`, { agent: false, ca: c.ca, cert: c.cert, key: c.key, headers: c.token ? { authorization: `Bearer ${c.token}` } : {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    // A connection the primary handed to a worker as it died is never answered (node:cluster
    // keeps it open): like any client, give up on it and retry.
    req.setTimeout(5_000, () => req.destroy(new Error(`no answer to ${path} within 5 s`)));
    req.end();
  });
}

/** freshRequest, retried on a connection error or timeout (as clients retry reads). */
function freshRequestRetrying(server: KgenServer, path: string) {
  return retrying(() => freshRequest(server, path), () => true, 60_000);
}

async function scrape(server: KgenServer) {
  const res = await freshRequest(server, '/metrics');
  assert.equal(res.status, 200, res.body.slice(0, 300));
  return parseScrape(res.body);
}

describe('kgen serve --workers 2 on a three-member etcd cluster', () => {
  let etcd: EtcdCluster;
  const dataDir = tempDir('workers');
  let server: KgenServer;
  const clients: Clientset[] = [];

  before(async () => {
    etcd = await EtcdCluster.start({ members: 3 });
    server = await startReplica({ dataDir, storage: etcd.storageUrl, args: ['--workers', '2'] });
  });

  after(async () => {
    for (const c of clients) c.rest.close();
    await server?.stop('SIGKILL');
    await etcd?.stop();
    removeDir(dataDir);
  });

  it('runs two worker processes behind one URL and prints the server lines once', () => {
    const pids = workerPids(server);
    assert.equal(pids.length, 2);
    assert.match(server.output(), new RegExp(`workers: 2 \\(pids ${pids.join(' ')}\\)`));
    assert.equal(server.output().match(/kgen API server: /g)?.length, 1);
  });

  it('/metrics counts the requests of every worker', async () => {
    const labels = { verb: 'GET', resource: 'configmaps', code: '404' };
    const before = sampleSum(await scrape(server), 'apiserver_request_total', labels);
    const REQUESTS = 20;
    for (let i = 0; i < REQUESTS; i++) {
      const res = await freshRequest(server, `/api/v1/namespaces/default/configmaps/no-such-${i}`);
      assert.equal(res.status, 404);
    }
    // Each request went to the next worker: a scrape of one worker alone would count half.
    const after = await scrape(server);
    assert.equal(sampleSum(after, 'apiserver_request_total', labels) - before, REQUESTS);
    // A gauge of the shared storage is reported once, not once per worker.
    assert.equal(after.families.get('apiserver_storage_objects')?.type, 'GAUGE');
  });

  it('a write through one worker is seen by kubectl get -w through another, with the same resourceVersion', () => writeSeenByWatchOnOther([server, server]));

  it('500 concurrent increments through the workers end at exactly 500, and no acknowledged write is lost when the etcd leader dies', () =>
    incrementsSurviveLeaderLoss([server, server], etcd, clients));

  it('a killed worker is replaced, and the server keeps answering', async () => {
    const [victim, survivor] = workerPids(server) as [number, number];
    const from = server.output().length;
    process.kill(victim, 'SIGKILL');
    // Meanwhile the other worker answers every request.
    for (let i = 0; i < 4; i++) assert.equal((await freshRequestRetrying(server, '/readyz')).status, 200);
    const deadline = Date.now() + 60_000;
    let pids = workerPids(server);
    while (!(pids.length === 2 && !pids.includes(victim) && /worker \d+ ready/.test(server.output().slice(from))) && Date.now() < deadline) {
      await delay(200);
      pids = workerPids(server);
    }
    assert.match(server.output().slice(from), new RegExp(`worker ${victim} stopped \\(signal SIGKILL\\); starting another`));
    assert.equal(pids.length, 2, 'two workers again');
    assert.ok(pids.includes(survivor) && !pids.includes(victim));
    const replacement = pids.find((p) => p !== survivor)!;
    assert.match(server.output().slice(from), new RegExp(`worker ${replacement} ready`));
    for (let i = 0; i < 6; i++) {
      const res = await freshRequestRetrying(server, '/apis/widgets.example.com/v1/namespaces/default/widgets?limit=1');
      assert.equal(res.status, 200, res.body.slice(0, 300));
    }
    // Both workers answer the primary's collection again.
    const metrics = await retrying(() => scrape(server), () => true, 60_000);
    assert.ok(sampleSum(metrics, 'apiserver_request_total') > 0);
  });
});

describe('kgen serve --workers on storage one process owns', () => {
  for (const storage of ['sqlite:', 'memory:']) {
    it(`${storage} refuses --workers 2 with a clear error`, () => {
      const dataDir = tempDir('workers-refused');
      try {
        const r = spawnSync(process.execPath, [KGEN_BIN, 'serve', GENERATED, '--port', '0', '--data-dir', dataDir, '--storage', storage, '--workers', '2'], { cwd: REPO, encoding: 'utf8', timeout: 60_000 });
        assert.equal(r.status, 1, r.stderr);
        assert.match(r.stderr, /--workers 2 needs etcd storage/);
        assert.match(r.stderr, storage === 'sqlite:' ? /SQLite has a single writer/ : /memory storage is private to one process/);
      } finally {
        removeDir(dataDir);
      }
    });
  }
});

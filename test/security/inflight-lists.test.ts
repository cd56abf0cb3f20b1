/**
 * Issue 12, item 4: the read-only in-flight limit. With --max-requests-inflight 10 the probe's
 * 200 concurrent multi-megabyte LISTs all got 200 (reads left the count before their bodies were
 * written); 300 of them took the server to 3 GB and /readyz stopped answering for up to 28 s.
 * Here `kgen serve` runs in a child process with that limit and a ~5.5 MB list; 300 concurrent
 * LISTs from a user outside system:masters must be shed with 429 + Retry-After past the limit,
 * the server's RSS must stay within the README's bound, and /readyz must answer in under 1 s
 * throughout (or 4 × one LIST's time alone, when the machine is slower than that).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import https from 'node:https';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { REPO, removeDir, startKgen, tempDir, type KgenServer } from '../e2e/harness.js';
import { MiB, rssOf, rssSampler } from '../support/rss.js';

const MAX_READS = 10;
const CONCURRENT_LISTS = 300;
const WIDGETS = 90;
const ANNOTATION_BYTES = 60 * 1024;
/** The README's bound: RSS over idle while the limit sheds the rest. */
const RSS_BOUND_MiB = 120;
const LIST = '/apis/widgets.example.com/v1/namespaces/default/widgets';

interface Answer {
  status: number;
  retryAfter?: string;
  bytes: number;
  body?: string;
  ms: number;
}

function get(agent: https.Agent, url: string, token: string, keepBody: (status: number) => boolean): Promise<Answer> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const req = https.get(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let bytes = 0;
      const chunks: Buffer[] = [];
      const keep = keepBody(res.statusCode ?? 0);
      res.on('data', (d: Buffer) => {
        bytes += d.length;
        if (keep) chunks.push(d);
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined, bytes, body: keep ? Buffer.concat(chunks).toString() : undefined, ms: Date.now() - started }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/**
 * Probes /readyz every 50 ms until stopped, from a worker thread: its own event loop, so what is
 * timed is the server's answer, not this process reading 300 responses.
 */
function readyzProber(url: string, ca: string) {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const https = require('node:https');
     const agent = new https.Agent({ keepAlive: true, maxSockets: 1, ca: workerData.ca });
     let probing = true;
     const times = [];
     parentPort.on('message', () => (probing = false));
     const probe = () => new Promise((resolve, reject) => {
       const started = Date.now();
       https.get(workerData.url, { agent }, (res) => {
         res.resume();
         res.on('end', () => (res.statusCode === 200 ? resolve(Date.now() - started) : reject(new Error('readyz ' + res.statusCode))));
       }).on('error', reject);
     });
     (async () => {
       await probe();
       parentPort.postMessage({ ready: true });
       while (probing) {
         times.push(await probe());
         await new Promise((r) => setTimeout(r, 50));
       }
       agent.destroy();
       parentPort.postMessage({ times });
     })().catch((err) => parentPort.postMessage({ error: String(err) }));`,
    { eval: true, workerData: { url: `${url}/readyz`, ca } },
  );
  const messages: Array<{ ready?: boolean; times?: number[]; error?: string }> = [];
  const waiters: Array<() => void> = [];
  worker.on('message', (m) => {
    messages.push(m);
    for (const w of waiters.splice(0)) w();
  });
  const next = async () => {
    while (messages.length === 0) await new Promise<void>((r) => waiters.push(r));
    const m = messages.shift()!;
    if (m.error) throw new Error(m.error);
    return m;
  };
  return {
    started: () => next(),
    async stop(): Promise<number[]> {
      worker.postMessage('stop');
      const { times } = await next();
      await worker.terminate();
      return times!;
    },
  };
}

describe('the read-only in-flight limit limits (issue 12, item 4)', () => {
  let server: KgenServer;
  let dataDir: string;

  before(async () => {
    dataDir = tempDir('inflight-lists');
    writeFileSync(join(dataDir, 'tokens.csv'), 'list-token,lister,1001,\n');
    server = await startKgen({
      dataDir,
      args: ['serve', join(REPO, 'generated'), '--port', '0', '--data-dir', dataDir, '--storage', 'memory:', '--max-requests-inflight', String(MAX_READS), '--token-auth-file', join(dataDir, 'tokens.csv')],
    });
    const post = async (path: string, body: unknown) => {
      const r = await server.fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      assert.equal(r.status, 201, await r.text());
    };
    await post('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'lister' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'lister' }],
    });
    for (let i = 0; i < WIDGETS; i++) {
      await post(LIST, {
        apiVersion: 'widgets.example.com/v1',
        kind: 'Widget',
        metadata: { name: `w-${i}`, annotations: { filler: String(i % 10).repeat(ANNOTATION_BYTES) } },
        spec: { replicas: 1 },
      });
    }
  });
  after(async () => {
    await server.stop();
    removeDir(dataDir);
  });

  it(`sheds ${CONCURRENT_LISTS} concurrent large LISTs past --max-requests-inflight ${MAX_READS} with 429, bounds RSS, and keeps /readyz under 1 s (or 4 LISTs' time on a slow machine)`, async () => {
    const pid = server.process.pid!;
    const agent = new https.Agent({ keepAlive: true, maxSockets: CONCURRENT_LISTS, ca: server.credentials().ca });
    // Open the connections first (health probes are never limited), so the burst measures serving, not handshakes.
    for (const r of await Promise.all(Array.from({ length: CONCURRENT_LISTS }, () => get(agent, `${server.url}/livez`, 'list-token', () => false)))) assert.equal(r.status, 200);
    // The machine's pace, measured here: one LIST alone (its ~5.5 MB encoded and read) is the
    // yardstick for /readyz's bound below, so a loaded machine does not fail a server that kept
    // answering, while a /readyz stuck behind the burst (28 s before the fix) still fails.
    const oneStarted = performance.now();
    const one = await get(agent, `${server.url}${LIST}`, 'list-token', () => false);
    const oneMs = performance.now() - oneStarted;
    assert.equal(one.status, 200);
    assert.ok(one.bytes > 5 * 1_000_000, `the list is ${one.bytes} bytes`);
    await new Promise((r) => setTimeout(r, 500));
    const idle = rssOf(pid);

    const prober = readyzProber(server.url, server.credentials().ca);
    await prober.started();
    const sampler = rssSampler(pid);
    const answers = await Promise.all(Array.from({ length: CONCURRENT_LISTS }, () => get(agent, `${server.url}${LIST}`, 'list-token', (status) => status !== 200)));
    const probes = await prober.stop();
    const peak = sampler.stop();
    agent.destroy();

    const ok = answers.filter((a) => a.status === 200);
    const shed = answers.filter((a) => a.status === 429);
    assert.equal(ok.length + shed.length, CONCURRENT_LISTS, `other statuses: ${answers.filter((a) => a.status !== 200 && a.status !== 429).map((a) => a.status)}`);
    assert.ok(ok.length >= MAX_READS, `${ok.length} served`);
    assert.ok(shed.length > 0, 'no LIST was shed');
    for (const a of ok) assert.equal(a.bytes, one.bytes);
    for (const a of shed) {
      assert.equal(a.retryAfter, '1');
      const status = JSON.parse(a.body!);
      assert.equal(status.kind, 'Status');
      assert.equal(status.reason, 'TooManyRequests');
      assert.equal(status.code, 429);
    }
    const growth = (peak - idle) / MiB;
    const slowest = Math.max(...probes);
    console.log(
      `# ${ok.length} served, ${shed.length} shed; RSS idle ${(idle / MiB).toFixed(1)} MiB, peak ${(peak / MiB).toFixed(1)} MiB (+${growth.toFixed(1)}); /readyz ${probes.length} probes, slowest ${slowest} ms (one LIST alone ${oneMs.toFixed(0)} ms) [${probes.join(",")}]`,
    );
    assert.ok(probes.length >= 2, `${probes.length} /readyz probes`);
    const bound = Math.max(1_000, 4 * oneMs);
    assert.ok(slowest < bound, `/readyz took ${slowest} ms (bound ${bound.toFixed(0)} ms: 1 s, or 4 × one LIST alone, ${oneMs.toFixed(0)} ms)`);
    assert.ok(growth < RSS_BOUND_MiB, `RSS grew by ${growth.toFixed(1)} MiB`);
  });
});

/**
 * Crash safety: `kgen serve` is killed with SIGKILL while 50 clients create objects at once. After
 * a restart on the same storage every create that was acknowledged (201 received) is there, and
 * the storage opens and serves normally: on SQLite (WAL, synchronous=FULL) and on etcd.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Clientset } from '../../generated/client/index.js';
import { EtcdCluster } from '../support/etcd.js';
import { kubectlOk, removeDir, tempDir, type KgenServer } from './harness.js';
import { clientsetFor, startReplica } from './replica-helpers.js';

const CLIENTS = 50;
/** Kill once this many creates were acknowledged (well inside the run, never at its end). */
const KILL_AFTER = 300;

interface CrashRun {
  acknowledged: Set<string>;
  /** Creates sent whose answer never came (may or may not have happened). */
  unanswered: number;
}

/**
 * Starts CLIENTS clients, each with its own connection pool, creating widgets one after the
 * other (no client retries: a request the dying server dropped stays unanswered), and SIGKILLs
 * the server once KILL_AFTER creates were acknowledged.
 */
async function createUntilKilled(server: KgenServer, clients: Clientset[]): Promise<CrashRun> {
  const acknowledged = new Set<string>();
  let unanswered = 0;
  let killed = false;
  const client = async (c: number) => {
    const set = clientsetFor(server, { maxRetries: 0, timeoutMs: 60_000 });
    clients.push(set);
    const widgets = set.widgetsExampleComV1.widgets('default');
    for (let i = 0; !killed; i++) {
      const name = `c${c}-${i}`;
      try {
        const created = await widgets.create({ metadata: { name }, spec: { replicas: 1 } });
        assert.equal(created.metadata.name, name);
        acknowledged.add(name);
      } catch (err) {
        if (!killed) throw err;
        unanswered++;
        return;
      }
    }
  };
  const running = Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
  while (acknowledged.size < KILL_AFTER) await new Promise((r) => setTimeout(r, 2));
  killed = true;
  await server.stop('SIGKILL');
  await running;
  return { acknowledged, unanswered };
}

async function assertAllThere(server: KgenServer, clients: Clientset[], run: CrashRun): Promise<void> {
  const set = clientsetFor(server);
  clients.push(set);
  const widgets = set.widgetsExampleComV1.widgets('default');
  const names = new Set((await widgets.list()).items.map((w) => w.metadata.name));
  const missing = [...run.acknowledged].filter((n) => !names.has(n));
  assert.deepEqual(missing, [], 'every acknowledged create survived the SIGKILL');
  assert.ok(names.size <= run.acknowledged.size + run.unanswered, 'nothing appeared that was never sent');
  // The storage is whole: it takes writes and serves them.
  await widgets.create({ metadata: { name: 'after-crash' }, spec: { replicas: 2 } });
  assert.match(kubectlOk(server.kubeconfig, ['--server', server.url, 'get', 'wd', 'after-crash', '-o', 'name']), /after-crash/);
}

describe('SIGKILL while 50 clients create', () => {
  const dirs: string[] = [];
  const servers: KgenServer[] = [];
  const clients: Clientset[] = [];
  let etcd: EtcdCluster | undefined;
  after(async () => {
    for (const c of clients) c.rest.close();
    await Promise.all(servers.map((s) => s.stop('SIGKILL')));
    await etcd?.stop();
    for (const d of dirs) removeDir(d);
  });

  it('SQLite: every acknowledged create is there after restart', async () => {
    const dataDir = tempDir('crash-sqlite');
    dirs.push(dataDir);
    const first = await startReplica({ dataDir });
    servers.push(first);
    const run = await createUntilKilled(first, clients);
    const second = await startReplica({ dataDir });
    servers.push(second);
    await assertAllThere(second, clients, run);
  });

  it('etcd: every acknowledged create is there after restart', async () => {
    etcd = await EtcdCluster.start();
    const dataDir = tempDir('crash-etcd');
    dirs.push(dataDir);
    const first = await startReplica({ dataDir, storage: etcd.storageUrl });
    servers.push(first);
    const run = await createUntilKilled(first, clients);
    const second = await startReplica({ dataDir, storage: etcd.storageUrl });
    servers.push(second);
    await assertAllThere(second, clients, run);
  });
});

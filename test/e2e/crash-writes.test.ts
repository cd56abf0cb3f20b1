/**
 * Every kind of write acknowledged to a client survives `kill -9` of `kgen serve` right after the
 * answer (crash.test.ts does this for creates): an update, a merge patch, a status update, a delete
 * and a deletecollection. 20 clients each write their own widgets, one request at a time with no
 * retries, and the server is SIGKILLed the moment the 250th answer arrives. After a restart on the
 * same storage, each widget is in the state of its last acknowledged write, or of the one write
 * left unanswered (which may or may not have happened); a deletecollection left unanswered may have
 * deleted part of its widgets, and no other. SQLite, etcd, and `--workers 2` on etcd.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Clientset } from '../../generated/client/index.js';
import type { Widget } from '../../generated/models/widgets.example.com/v1.js';
import { EtcdCluster } from '../support/etcd.js';
import { removeDir, tempDir, type KgenServer } from './harness.js';
import { clientsetFor, startReplica } from './replica-helpers.js';

const CLIENTS = 20;
const KILL_AFTER = 250;

/** What a widget holds: spec.replicas/status.replicas, or gone. */
type State = string;
const GONE = 'gone';
const stateOf = (w: Widget): State => `spec ${w.spec.replicas} status ${w.status?.replicas ?? '-'}`;

interface Run {
  /** Each widget's states that may be found after the restart (the last acknowledged first). */
  allowed: Map<string, Set<State>>;
  acknowledged: number;
}

/** The clients' writes until the server is SIGKILLed right after the KILL_AFTER-th answer. */
async function writeUntilKilled(server: KgenServer, clients: Clientset[], label: string): Promise<Run> {
  const run: Run = { allowed: new Map(), acknowledged: 0 };
  let killed = false;
  let killing: Promise<unknown> | undefined;
  const client = async (c: number) => {
    const set = clientsetFor(server, { maxRetries: 0, timeoutMs: 60_000 });
    clients.push(set);
    const widgets = set.widgetsExampleComV1.widgets('default');
    const mine = new Set<string>();
    /** Sends one write whose success leaves `names` in `after`; on no answer, either state is allowed. */
    const write = async <T>(names: string[], after: State, send: () => Promise<T>): Promise<T | undefined> => {
      if (killed) return undefined;
      for (const n of names) {
        if (!run.allowed.has(n)) run.allowed.set(n, new Set([GONE]));
        run.allowed.get(n)!.add(after);
      }
      try {
        const answer = await send();
        // Acknowledged: only `after` may be found now.
        for (const n of names) run.allowed.set(n, new Set([after]));
        if (++run.acknowledged === KILL_AFTER) {
          killed = true;
          killing = server.stop('SIGKILL');
        }
        return answer;
      } catch (err) {
        if (!killed) throw err;
        return undefined;
      }
    };
    for (let r = 0; !killed; r++) {
      const name = `${label}-c${c}-r${r}`;
      const created = await write([name], 'spec 0 status -', () => widgets.create({ metadata: { name, labels: { crash: label, group: `g${c}` } }, spec: { replicas: 0 } }));
      if (!created) return;
      mine.add(name);
      const updated = await write([name], 'spec 1 status -', () => widgets.update({ ...created, spec: { ...created.spec, replicas: 1 } }));
      if (!updated) return;
      const patched = await write([name], 'spec 2 status -', () => widgets.mergePatch(name, { spec: { replicas: 2 } }));
      if (!patched) return;
      const status = await write([name], 'spec 2 status 3', () => widgets.updateStatus({ ...patched, status: { replicas: 3 } }));
      if (!status) return;
      assert.equal(stateOf(status), 'spec 2 status 3');
      if (r % 2 === 0) {
        if (!(await write([name], GONE, () => widgets.delete(name)))) return;
        mine.delete(name);
      }
      if (r % 3 === 2) {
        if (!(await write([...mine], GONE, () => widgets.deleteCollection({ labelSelector: `crash=${label},group=g${c}` })))) return;
        mine.clear();
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
  await killing;
  return run;
}

async function assertSurvived(server: KgenServer, clients: Clientset[], run: Run, label: string): Promise<void> {
  const set = clientsetFor(server);
  clients.push(set);
  const found = new Map((await set.widgetsExampleComV1.widgets('default').list({ labelSelector: `crash=${label}` })).items.map((w) => [w.metadata.name!, stateOf(w)]));
  const wrong: string[] = [];
  for (const [name, allowed] of run.allowed) {
    const state = found.get(name) ?? GONE;
    if (!allowed.has(state)) wrong.push(`${name}: ${state}, expected ${[...allowed].join(' or ')}`);
  }
  for (const name of found.keys()) if (!run.allowed.has(name)) wrong.push(`${name}: never written`);
  assert.deepEqual(wrong, [], 'each widget is in the state of its last acknowledged write (or of its unanswered one)');
  assert.ok(run.acknowledged >= KILL_AFTER);
}

describe('SIGKILL right after an answer: updates, patches, status updates, deletes and deletecollections survive', () => {
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

  const crashAndRestart = async (label: string, storage: () => Promise<string | undefined>, args: string[] = []) => {
    const dataDir = tempDir(`crash-writes-${label}`);
    dirs.push(dataDir);
    const url = await storage();
    const first = await startReplica({ dataDir, storage: url, args });
    servers.push(first);
    const run = await writeUntilKilled(first, clients, label);
    const second = await startReplica({ dataDir, storage: url });
    servers.push(second);
    await assertSurvived(second, clients, run, label);
  };
  const etcdUrl = async () => (etcd ??= await EtcdCluster.start()).storageUrl;

  it('SQLite', () => crashAndRestart('sqlite', async () => undefined));
  it('etcd', () => crashAndRestart('etcd', etcdUrl));
  it('etcd, --workers 2', () => crashAndRestart('workers', etcdUrl, ['--workers', '2']));
});

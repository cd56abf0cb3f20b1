/**
 * The consistency scenarios of the replica suites, run against two replicas of `kgen serve` on
 * one etcd cluster (test/e2e/replicas.test.ts) and against the workers of one
 * `kgen serve --workers N` (test/e2e/workers.test.ts, where "both replicas" are two clients of the
 * same URL whose connections the primary hands to different workers):
 * - a kubectl write through one is seen by `kubectl get wd -w` on the other, with the same
 *   resourceVersion (each follows etcd with its own watch cache);
 * - 500 concurrent read-modify-write increments of one object, split across both, end at exactly
 *   500 (optimistic concurrency holds across processes), while the etcd leader is killed mid-run
 *   and later restarted; creates acknowledged meanwhile are all there afterwards.
 */
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import type { Clientset } from '../../generated/client/index.js';
import type { Widget } from '../../generated/models/widgets.example.com/v1.js';
import { isAlreadyExists, isConflict } from '@kgen/client';
import type { EtcdCluster } from '../support/etcd.js';
import { kubectlOk, type KgenServer } from './harness.js';
import { kubectlBackground } from './kubectl-workflow-helpers.js';
import { clientsetFor, isUnknownOutcome, retrying } from './replica-helpers.js';

const COUNTER = 'example.com/counter';
const OPS = 'example.com/ops';

/** A write through `a` is seen by `kubectl get -w` through `b`, with the same resourceVersion. */
export async function writeSeenByWatchOnOther(servers: [KgenServer, KgenServer]): Promise<void> {
  const [a, b] = servers;
  const rvOf = (name: string, replicas: number) =>
    kubectlOk(a.kubeconfig, ['--server', a.url, 'create', '-o', 'jsonpath={.metadata.resourceVersion}', '-f', '-'], widget(name, replicas)).trim();
  const first = rvOf('seen-first', 1);
  const watch = kubectlBackground(b.kubeconfig, [
    '--server', b.url, 'get', 'wd', '-w', '-o', 'jsonpath={.metadata.name} {.metadata.resourceVersion} {.spec.replicas}{"\\n"}',
  ]);
  try {
    await watch.waitFor(new RegExp(`seen-first ${first} 1\\n`), 30_000);
    const second = rvOf('seen-second', 2);
    await watch.waitFor(new RegExp(`seen-second ${second} 2\\n`), 30_000);
    kubectlOk(a.kubeconfig, ['--server', a.url, 'scale', 'wd', 'seen-first', '--replicas', '3']);
    const scaled = kubectlOk(a.kubeconfig, ['--server', a.url, 'get', 'wd', 'seen-first', '-o', 'jsonpath={.metadata.resourceVersion}']).trim();
    await watch.waitFor(new RegExp(`seen-first ${scaled} 3\\n`), 30_000);
    const lines = watch.stdout().trim().split('\n');
    assert.deepEqual(lines, [`seen-first ${first} 1`, `seen-second ${second} 2`, `seen-first ${scaled} 3`]);
  } finally {
    await watch.stop();
  }
}

/**
 * 500 increments through both, the etcd leader killed mid-run: exactly 500, no acknowledged create
 * lost. The clients made are pushed to `clients` (the caller closes them).
 */
export async function incrementsSurviveLeaderLoss(servers: [KgenServer, KgenServer], etcd: EtcdCluster, clients: Clientset[]): Promise<void> {
  const [a, b] = servers;
  // The client's own retries stay on (429/5xx with Retry-After, reads after connection errors).
  clients.push(clientsetFor(a), clientsetFor(b));
  const widgets = clients.map((c) => c.widgetsExampleComV1.widgets('default'));
  await widgets[0]!.create({ metadata: { name: 'counter', annotations: { [COUNTER]: '0', [OPS]: '' } }, spec: { replicas: 1 } });

  const INCREMENTS = 500;
  const WORKERS = 10;
  let done = 0;
  /** Requests that failed beyond the client's own retries (5xx, connection lost). */
  const failures: string[] = [];
  const countFailure = (err: unknown) => {
    if (!isUnknownOutcome(err)) return false;
    failures.push((err as Error).message);
    return true;
  };
  /** The ids whose increment landed: each one once, so the counter must equal their number. */
  const opsOf = (w: Widget) => new Set((w.metadata.annotations?.[OPS] ?? '').split(',').filter(Boolean));

  // One increment: read, add one and this op's id, write back with the read resourceVersion.
  // A 409 means someone else won: read again after a short jittered pause (client-go's
  // RetryOnConflict backs off too). A write whose outcome is unknown (the etcd member
  // carrying it died) is decided by reading: the op id is there exactly when it landed.
  const increment = async (id: string, via: number) => {
    const client = widgets[via]!;
    for (;;) {
      const current = await retrying(() => client.get('counter'), countFailure);
      if (opsOf(current).has(id)) return;
      const annotations = current.metadata.annotations ?? {};
      const next: Widget = {
        ...current,
        metadata: {
          ...current.metadata,
          annotations: { ...annotations, [COUNTER]: String(Number(annotations[COUNTER]) + 1), [OPS]: `${annotations[OPS] ?? ''},${id}` },
        },
      };
      try {
        await client.update(next);
        return;
      } catch (err) {
        if (isConflict(err)) {
          await delay(Math.random() * 10);
          continue;
        }
        if (!countFailure(err)) throw err;
      }
    }
  };

  // Creates run beside the increments; a create answered 201 must survive the leader's death.
  const acknowledged: string[] = [];
  const create = async (name: string, via: number) => {
    try {
      await retrying(() => widgets[via]!.create({ metadata: { name }, spec: { replicas: 1 } }), countFailure, 15_000);
      acknowledged.push(name);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err; // an earlier attempt landed: acknowledged now
      acknowledged.push(name);
    }
  };

  const worker = async (w: number) => {
    for (let i = w; i < INCREMENTS; i += WORKERS) {
      await increment(`o${i}`, i % 2);
      done++;
      if (i % 5 === 0) await create(`made-${i}`, (i + 1) % 2);
    }
  };
  const running = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));

  while (done < INCREMENTS / 3) await delay(5);
  const leader = await etcd.leaderIndex();
  assert.ok(leader >= 0, 'etcd has a leader');
  await etcd.kill(leader);
  const killedAt = done;
  while (done < killedAt + INCREMENTS / 4 && done < INCREMENTS) await delay(5);
  const restarting = etcd.restart(leader);
  await running;
  await restarting;

  for (const client of widgets) {
    const counter = await client.get('counter');
    assert.equal(counter.metadata.annotations?.[COUNTER], String(INCREMENTS), 'no lost and no doubled increment');
    assert.equal(opsOf(counter).size, INCREMENTS);
    const names = new Set((await client.list()).items.map((w) => w.metadata.name));
    const missing = acknowledged.filter((n) => !names.has(n));
    assert.deepEqual(missing, [], 'every acknowledged create is there, through either replica');
  }
  assert.equal(acknowledged.length, INCREMENTS / 5);
  // Every other request succeeded within the client's retries. What may fail is a write in
  // flight on the dying leader: etcd cannot say whether it was applied, so the server answers
  // 503 rather than guess (or apply it twice); the writer then reads, as above.
  const ambiguous = failures.filter((m) => /may or may not have been applied/.test(m));
  assert.deepEqual(failures, ambiguous, 'no failure other than a write of unknown outcome');
  assert.ok(ambiguous.length <= WORKERS, `${ambiguous.length} writes of unknown outcome`);
}

function widget(name: string, replicas: number): string {
  return `apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata: {name: ${name}}\nspec: {replicas: ${replicas}}\n`;
}

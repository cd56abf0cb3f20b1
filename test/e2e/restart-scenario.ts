/**
 * The restart scenario shared by the SQLite and etcd restart tests: a typed client watching with
 * resume, and a writer making one change at a time before, during and after a SIGKILL and a
 * SIGTERM restart of `kgen serve`. The watcher must see exactly the writer's changes — nothing
 * lost, nothing twice, resourceVersions strictly increasing — and the restarted server must
 * replay the same events with the same resourceVersions from its history.
 */
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { Clientset } from '../../generated/client/index.js';
import type { Widget } from '../../generated/models/widgets.example.com/v1.js';
import { isTransientError, type ResourceClient, type RestConfig, type WatchEvent } from '@kgen/client';
import { RecordingRest, assertIncreasing, consume, until } from '../client/helpers.js';
import type { KgenServer } from './harness.js';

const describeEvent = (e: WatchEvent<Widget>) => `${e.type} ${e.object.metadata.name} ${e.object.spec.replicas}`;

/** Runs fn until it succeeds, retrying transient failures; `idempotent` errors mean it already happened. */
export type Attempt = (fn: () => Promise<unknown>, idempotent: (err: unknown) => boolean) => Promise<unknown>;

export interface RestartScenario {
  /** Starts kgen serve (again) on the same port and storage. */
  serve(): Promise<KgenServer>;
  /** Reports each server started, so the caller's clean-up can stop the last one. */
  onServer(server: KgenServer): void;
  /** Client config for a server; neither client retries inside RestClient. */
  config(server: KgenServer): RestConfig;
  /** Aborted by the scenario once every change has arrived (and by the caller's clean-up). */
  watchAbort: AbortController;
  /** Keeps the clientsets so the caller can close them. */
  clients: Clientset[];
  ops: number;
  /** Makes change i through attempt() and returns the event the watcher must see for it. */
  step(i: number, writer: ResourceClient<Widget>, attempt: Attempt): Promise<string>;
  /** Changes written before the first and before the second restart. */
  restartAfter: [number, number];
  pauseMs: number;
  downMs: number;
  timeoutMs: number;
}

export async function runRestartScenario(s: RestartScenario): Promise<void> {
  let server = await s.serve();
  s.onServer(server);
  const config = s.config(server);
  const writerSet = new Clientset({ ...config, qps: 0 });
  const writer = writerSet.widgetsExampleComV1.widgets('default');
  const watchRest = new RecordingRest(config);
  const watcherSet = new Clientset(watchRest);
  const watcher = watcherSet.widgetsExampleComV1.widgets('default');
  s.clients.push(writerSet, watcherSet);

  const seed = await writer.create({ metadata: { name: 'seed' }, spec: { replicas: 1 } });
  const errors: unknown[] = [];
  const stream = consume(watcher.watchWithResume({ signal: s.watchAbort.signal, backoff: { initialMs: 25, maxMs: 250 }, onError: (e) => errors.push(e) }));
  await until(() => stream.events.length === 1, 'the initial list', s.timeoutMs);

  // One change at a time, each retried until the server takes it. Retries are idempotent (a
  // create that already happened is AlreadyExists, a repeated merge patch changes nothing, a
  // repeated delete is NotFound), so each op is exactly one change on the server.
  const expected: string[] = [];
  let done = 0;
  const attempt: Attempt = async (fn, idempotent) => {
    for (;;) {
      try {
        return await fn();
      } catch (err) {
        if (idempotent(err)) return;
        if (!isTransientError(err)) throw err;
        await delay(20);
      }
    }
  };
  const writing = (async () => {
    for (let i = 0; i < s.ops; i++) {
      expected.push(await s.step(i, writer, attempt));
      done++;
      await delay(s.pauseMs);
    }
  })();

  await until(() => done >= s.restartAfter[0], 'writes before the first restart', s.timeoutMs);
  await server.stop('SIGKILL');
  await delay(s.downMs); // writes fail while the server is down
  server = await s.serve();
  s.onServer(server);
  await until(() => done >= s.restartAfter[1], 'writes before the second restart', s.timeoutMs);
  assert.equal(await server.stop('SIGTERM'), 0, 'a clean stop with a watch open');
  await delay(s.downMs);
  server = await s.serve();
  s.onServer(server);
  await writing;
  await until(() => stream.events.length >= expected.length + 1, 'every change', s.timeoutMs);
  await delay(100); // anything extra would be a duplicate
  s.watchAbort.abort();
  await stream.done;
  assert.equal(stream.error(), undefined);

  const changes = stream.events.slice(1);
  assert.equal(describeEvent(stream.events[0]!), 'ADDED seed 1');
  assert.deepEqual(changes.map(describeEvent), expected);
  assertIncreasing(changes);
  assert.ok(errors.some(isTransientError), 'the watcher saw the server go away');
  assert.ok(watchRest.watches().length >= 3, `the watcher re-watched after each restart (${watchRest.watches().length} watches)`);

  // The restarted server's own history from before the first change agrees, resourceVersions included.
  const replay: WatchEvent<Widget>[] = [];
  for await (const e of watcher.watch({ resourceVersion: seed.metadata.resourceVersion, timeoutSeconds: 10 })) {
    replay.push(e);
    if (replay.length === changes.length) break;
  }
  const withRV = (e: WatchEvent<Widget>) => `${describeEvent(e)} @${e.object.metadata.resourceVersion}`;
  assert.deepEqual(changes.map(withRV), replay.map(withRV));
}

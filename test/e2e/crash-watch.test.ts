/**
 * A watch across server restarts on etcd (test/e2e/client-restart.test.ts is the SQLite case, and
 * this follows its approach): a typed client watching with resume, and a writer making changes
 * before, during and after a SIGKILL and a SIGTERM restart of `kgen serve` on the same port and
 * etcd. The watcher must see exactly the writer's changes: none missing, none twice, in order,
 * with the resourceVersions etcd gave them (the restarted server replays the same history).
 */
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import { Clientset } from '../../generated/client/index.js';
import type { Widget } from '../../generated/models/widgets.example.com/v1.js';
import { isAlreadyExists, isNotFound, isTransientError, type WatchEvent } from '../../runtime/client/index.js';
import { RecordingRest, assertIncreasing, consume, until } from '../client/helpers.js';
import { EtcdCluster } from '../support/etcd.js';
import { removeDir, tempDir, type KgenServer } from './harness.js';
import { configFor, freePort, startReplica } from './replica-helpers.js';

const describeEvent = (e: WatchEvent<Widget>) => `${e.type} ${e.object.metadata.name} ${e.object.spec.replicas}`;

describe('typed watch across kgen serve restarts on etcd', () => {
  const dataDir = tempDir('crash-watch');
  let etcd: EtcdCluster | undefined;
  let server: KgenServer | undefined;
  const ac = new AbortController();
  const clients: Clientset[] = [];
  after(async () => {
    ac.abort();
    for (const c of clients) c.rest.close();
    await server?.stop('SIGKILL');
    await etcd?.stop();
    removeDir(dataDir);
  });

  it('resumes from its last resourceVersion with no event missing or repeated', async () => {
    etcd = await EtcdCluster.start();
    const port = await freePort();
    const serve = () => startReplica({ dataDir, storage: etcd!.storageUrl, port });
    server = await serve();
    // Neither client retries inside RestClient: the writer retries itself, the watcher through its backoff.
    const config = configFor(server, { maxRetries: 0 });
    const writerSet = new Clientset(config);
    const writer = writerSet.widgetsExampleComV1.widgets('default');
    const watchRest = new RecordingRest(config);
    const watcherSet = new Clientset(watchRest);
    const watcher = watcherSet.widgetsExampleComV1.widgets('default');
    clients.push(writerSet, watcherSet);

    const seed = await writer.create({ metadata: { name: 'seed' }, spec: { replicas: 1 } });
    const errors: unknown[] = [];
    const stream = consume(watcher.watchWithResume({ signal: ac.signal, backoff: { initialMs: 25, maxMs: 250 }, onError: (e) => errors.push(e) }));
    await until(() => stream.events.length === 1, 'the initial list', 30_000);

    // One change at a time, each retried until the server takes it; retries are idempotent
    // (AlreadyExists, the same merge patch, NotFound), so each op is exactly one change.
    const expected: string[] = [];
    let done = 0;
    const attempt = async (fn: () => Promise<unknown>, idempotent: (err: unknown) => boolean) => {
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
    const OPS = 45;
    const write = async () => {
      for (let i = 0; i < OPS; i++) {
        const name = `r${Math.floor(i / 3)}`;
        if (i % 3 === 0) {
          await attempt(() => writer.create({ metadata: { name }, spec: { replicas: 0 } }), isAlreadyExists);
          expected.push(`ADDED ${name} 0`);
        } else if (i % 3 === 1) {
          await attempt(() => writer.mergePatch(name, { spec: { replicas: i } }), () => false);
          expected.push(`MODIFIED ${name} ${i}`);
        } else {
          await attempt(() => writer.delete(name), isNotFound);
          expected.push(`DELETED ${name} ${i - 1}`);
        }
        done++;
        await delay(10);
      }
    };
    const writing = write();

    await until(() => done >= 12, 'writes before the first restart', 30_000);
    await server.stop('SIGKILL');
    await delay(100); // writes fail while the server is down
    server = await serve();
    await until(() => done >= 27, 'writes before the second restart', 30_000);
    assert.equal(await server.stop('SIGTERM'), 0, 'a clean stop with a watch open');
    await delay(100);
    server = await serve();
    await writing;
    await until(() => stream.events.length >= expected.length + 1, 'every change', 30_000);
    await delay(100); // anything extra would be a duplicate
    ac.abort();
    await stream.done;
    assert.equal(stream.error(), undefined);

    const changes = stream.events.slice(1);
    assert.equal(describeEvent(stream.events[0]!), 'ADDED seed 1');
    assert.deepEqual(changes.map(describeEvent), expected);
    assertIncreasing(changes);
    assert.ok(errors.some(isTransientError), 'the watcher saw the server go away');
    assert.ok(watchRest.watches().length >= 3, `the watcher re-watched after each restart (${watchRest.watches().length} watches)`);

    // etcd's history, read through the restarted server from before the first change, agrees.
    const replay: WatchEvent<Widget>[] = [];
    for await (const e of watcher.watch({ resourceVersion: seed.metadata.resourceVersion, timeoutSeconds: 10 })) {
      replay.push(e);
      if (replay.length === changes.length) break;
    }
    const withRV = (e: WatchEvent<Widget>) => `${describeEvent(e)} @${e.object.metadata.resourceVersion}`;
    assert.deepEqual(changes.map(withRV), replay.map(withRV));
  });
});

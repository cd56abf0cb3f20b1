/**
 * THE restart test: a `kgen serve` process on SQLite, a typed client watching with resume, and a
 * writer making changes before, during and after two restarts of the server on the same port and
 * data dir (SIGKILL, then SIGTERM). The watcher must see exactly the writer's sequence of changes:
 * nothing lost, nothing twice, resourceVersions strictly increasing, and the same events (with the
 * same resourceVersions) the restarted server replays from its history.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import { Clientset } from '../../generated/client/index.js';
import type { Widget } from '../../generated/models/widgets.example.com/v1.js';
import { isAlreadyExists, isNotFound, isTransientError, loadKubeconfig, type WatchEvent } from '../../runtime/client/index.js';
import { RecordingRest, assertIncreasing, consume, until } from '../client/helpers.js';
import { REPO, removeDir, startKgen, tempDir, type KgenServer } from './harness.js';

/** A port that was free a moment ago, so a restarted server can listen where the first one did. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const describeEvent = (e: WatchEvent<Widget>) => `${e.type} ${e.object.metadata.name} ${e.object.spec.replicas}`;

describe('typed watch across kgen serve restarts', () => {
  const dataDir = tempDir('client-restart');
  let server: KgenServer | undefined;
  const ac = new AbortController();
  const clients: Clientset[] = [];
  after(async () => {
    ac.abort();
    for (const c of clients) c.rest.close();
    await server?.stop('SIGKILL');
    removeDir(dataDir);
  });

  it('delivers every change exactly once, in order, across a SIGKILL and a SIGTERM restart', async () => {
    const port = await freePort();
    const serve = () => startKgen({ dataDir, args: ['serve', join(REPO, 'generated'), '--port', String(port), '--data-dir', dataDir] });
    server = await serve();
    // Neither client retries inside RestClient: the writer retries itself, the watcher through its backoff.
    const config = { ...loadKubeconfig(server.kubeconfig), maxRetries: 0 };
    const writerSet = new Clientset({ ...config, qps: 0 });
    const writer = writerSet.widgetsExampleComV1.widgets('default');
    const watchRest = new RecordingRest(config);
    const watcherSet = new Clientset(watchRest);
    const watcher = watcherSet.widgetsExampleComV1.widgets('default');
    clients.push(writerSet, watcherSet);

    const seed = await writer.create({ metadata: { name: 'seed' }, spec: { replicas: 1 } });
    const errors: unknown[] = [];
    const stream = consume(watcher.watchWithResume({ signal: ac.signal, backoff: { initialMs: 25, maxMs: 250 }, onError: (e) => errors.push(e) }));
    await until(() => stream.events.length === 1, 'the initial list');

    // The writer: one change at a time, each retried until the server takes it. Retries are
    // idempotent (a create that already happened is AlreadyExists, a repeated merge patch changes
    // nothing, a repeated delete is NotFound), so each op is exactly one change on the server.
    const expected: string[] = [];
    const replicas = new Map<string, number>();
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
    const OPS = 60;
    const write = async () => {
      for (let i = 0; i < OPS; i++) {
        const name = `r${Math.floor(i / 3)}`;
        if (i % 3 === 0) {
          await attempt(() => writer.create({ metadata: { name }, spec: { replicas: 0 } }), isAlreadyExists);
          replicas.set(name, 0);
          expected.push(`ADDED ${name} 0`);
        } else if (i % 3 === 1) {
          await attempt(() => writer.mergePatch(name, { spec: { replicas: i } }), () => false);
          replicas.set(name, i);
          expected.push(`MODIFIED ${name} ${i}`);
        } else if (i % 6 === 5) {
          await attempt(() => writer.delete(name), isNotFound);
          expected.push(`DELETED ${name} ${replicas.get(name)}`);
        } else {
          await attempt(() => writer.mergePatch(name, { spec: { replicas: i } }), () => false);
          expected.push(`MODIFIED ${name} ${i}`);
        }
        done++;
        await delay(15);
      }
    };
    const writing = write();

    await until(() => done >= 15, 'writes before the first restart');
    await server.stop('SIGKILL');
    await delay(150); // writes fail while the server is down
    server = await serve();
    await until(() => done >= 35, 'writes before the second restart');
    assert.equal(await server.stop('SIGTERM'), 0, 'a clean stop with a watch open');
    await delay(150);
    server = await serve();
    await writing;
    await until(() => stream.events.length >= expected.length + 1, 'every change', 15_000);
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

    // The restarted server's own history from before the first change agrees, resourceVersions included.
    const replay: WatchEvent<Widget>[] = [];
    for await (const e of watcher.watch({ resourceVersion: seed.metadata.resourceVersion, timeoutSeconds: 10 })) {
      replay.push(e);
      if (replay.length === changes.length) break;
    }
    const withRV = (e: WatchEvent<Widget>) => `${describeEvent(e)} @${e.object.metadata.resourceVersion}`;
    assert.deepEqual(changes.map(withRV), replay.map(withRV));
  });
});

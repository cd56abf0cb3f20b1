/**
 * THE restart test: a `kgen serve` process on SQLite, a typed client watching with resume, and a
 * writer making changes before, during and after two restarts of the server on the same port and
 * data dir (SIGKILL, then SIGTERM). The watcher must see exactly the writer's sequence of changes:
 * nothing lost, nothing twice, resourceVersions strictly increasing, and the same events (with the
 * same resourceVersions) the restarted server replays from its history.
 */
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Clientset } from '../../generated/client/index.js';
import { isAlreadyExists, isNotFound, loadKubeconfig } from '@kgen/client';
import { REPO, removeDir, startKgen, tempDir, type KgenServer } from './harness.js';
import { freePort } from './replica-helpers.js';
import { runRestartScenario } from './restart-scenario.js';

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
    const replicas = new Map<string, number>();
    await runRestartScenario({
      serve: () => startKgen({ dataDir, args: ['serve', join(REPO, 'generated'), '--port', String(port), '--data-dir', dataDir] }),
      onServer: (s) => (server = s),
      config: (s) => ({ ...loadKubeconfig(s.kubeconfig), maxRetries: 0 }),
      watchAbort: ac,
      clients,
      ops: 60,
      async step(i, writer, attempt) {
        const name = `r${Math.floor(i / 3)}`;
        if (i % 3 === 0) {
          await attempt(() => writer.create({ metadata: { name }, spec: { replicas: 0 } }), isAlreadyExists);
          replicas.set(name, 0);
          return `ADDED ${name} 0`;
        }
        if (i % 6 === 5) {
          await attempt(() => writer.delete(name), isNotFound);
          return `DELETED ${name} ${replicas.get(name)}`;
        }
        await attempt(() => writer.mergePatch(name, { spec: { replicas: i } }), () => false);
        replicas.set(name, i);
        return `MODIFIED ${name} ${i}`;
      },
      restartAfter: [15, 35],
      pauseMs: 15,
      downMs: 150,
      timeoutMs: 15_000,
    });
  });
});

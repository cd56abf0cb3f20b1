/**
 * A watch across server restarts on etcd (test/e2e/client-restart.test.ts is the SQLite case, and
 * this follows its approach): a typed client watching with resume, and a writer making changes
 * before, during and after a SIGKILL and a SIGTERM restart of `kgen serve` on the same port and
 * etcd. The watcher must see exactly the writer's changes: none missing, none twice, in order,
 * with the resourceVersions etcd gave them (the restarted server replays the same history).
 */
import { after, describe, it } from 'node:test';
import type { Clientset } from '../../generated/client/index.js';
import { isAlreadyExists, isNotFound } from '@kgen/client';
import { EtcdCluster } from '../support/etcd.js';
import { removeDir, tempDir, type KgenServer } from './harness.js';
import { configFor, freePort, startReplica } from './replica-helpers.js';
import { runRestartScenario } from './restart-scenario.js';

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
    await runRestartScenario({
      serve: () => startReplica({ dataDir, storage: etcd!.storageUrl, port }),
      onServer: (s) => (server = s),
      config: (s) => configFor(s, { maxRetries: 0 }),
      watchAbort: ac,
      clients,
      ops: 45,
      async step(i, writer, attempt) {
        const name = `r${Math.floor(i / 3)}`;
        if (i % 3 === 0) {
          await attempt(() => writer.create({ metadata: { name }, spec: { replicas: 0 } }), isAlreadyExists);
          return `ADDED ${name} 0`;
        }
        if (i % 3 === 1) {
          await attempt(() => writer.mergePatch(name, { spec: { replicas: i } }), () => false);
          return `MODIFIED ${name} ${i}`;
        }
        await attempt(() => writer.delete(name), isNotFound);
        return `DELETED ${name} ${i - 1}`;
      },
      restartAfter: [12, 27],
      pauseMs: 10,
      downMs: 100,
      timeoutMs: 30_000,
    });
  });
});

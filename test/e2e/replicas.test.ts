/**
 * Two `kgen serve` replicas on a three-member etcd cluster, sharing one data dir (and so one set of
 * credentials), as they would behind a load balancer (the scenarios are in ./replica-scenarios.ts):
 * - a kubectl write through one is seen by `kubectl get wd -w` on the other, with the same
 *   resourceVersion (each replica's watch cache follows etcd);
 * - 500 concurrent read-modify-write increments of one object, split across both replicas, end
 *   at exactly 500 (optimistic concurrency holds across replicas), while the etcd leader is
 *   killed mid-run and later restarted; creates acknowledged meanwhile are all there afterwards.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Clientset } from '../../generated/client/index.js';
import { EtcdCluster } from '../support/etcd.js';
import { kubectlOk, removeDir, tempDir, type KgenServer } from './harness.js';
import { startReplica } from './replica-helpers.js';
import { incrementsSurviveLeaderLoss, writeSeenByWatchOnOther } from './replica-scenarios.js';

describe('two kgen replicas on a three-member etcd cluster', () => {
  let etcd: EtcdCluster;
  const dataDir = tempDir('replicas');
  const servers: KgenServer[] = [];
  const clients: Clientset[] = [];

  before(async () => {
    etcd = await EtcdCluster.start({ members: 3 });
    // One after the other: the second finds the credentials and kubeconfig the first made.
    servers.push(await startReplica({ dataDir, storage: etcd.storageUrl }));
    servers.push(await startReplica({ dataDir, storage: etcd.storageUrl }));
  });

  after(async () => {
    for (const c of clients) c.rest.close();
    await Promise.all(servers.map((s) => s.stop('SIGKILL')));
    await etcd?.stop();
    removeDir(dataDir);
  });

  it('shares the data dir: one kubeconfig, left as the first replica wrote it, works with either replica', () => {
    const [a, b] = servers as [KgenServer, KgenServer];
    assert.ok(existsSync(join(dataDir, 'kubeconfig')));
    assert.match(b.output(), /kept the existing kubeconfig/);
    assert.match(kubectlOk(a.kubeconfig, ['get', '--raw', '/readyz?verbose']), /\[\+\]etcd ok/);
    assert.match(kubectlOk(b.kubeconfig, ['--server', b.url, 'get', '--raw', '/readyz?verbose']), /\[\+\]etcd ok/);
  });

  it('a write through one replica is seen by kubectl get -w on the other, with the same resourceVersion', () => writeSeenByWatchOnOther(servers as [KgenServer, KgenServer]));

  it('500 concurrent increments through both replicas end at exactly 500, and no acknowledged write is lost when the etcd leader dies', () =>
    incrementsSurviveLeaderLoss(servers as [KgenServer, KgenServer], etcd, clients));
});

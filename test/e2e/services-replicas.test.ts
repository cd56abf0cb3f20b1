/**
 * Services on two `kgen serve` replicas sharing etcd, as kube-apiservers behind a load balancer:
 * - Services created concurrently through both replicas never share a cluster IP (each address
 *   is a reservation created only if absent in etcd), and their addresses are spread at random
 *   above kube's static band rather than taken from the bottom;
 * - the same for node ports of NodePort Services;
 * - the default/kubernetes Endpoints name both replicas (each keeps a lease), and a replica that
 *   shuts down takes itself out.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Clientset } from '../../generated/client/index.js';
import { EtcdCluster } from '../support/etcd.js';
import { removeDir, tempDir, type KgenServer } from './harness.js';
import { clientsetFor, startReplica } from './replica-helpers.js';

describe('Services on two kgen replicas sharing etcd', () => {
  let etcd: EtcdCluster;
  const dataDir = tempDir('svc-replicas');
  const servers: KgenServer[] = [];
  const clients: Clientset[] = [];

  before(async () => {
    etcd = await EtcdCluster.start({ members: 1 });
    servers.push(await startReplica({ dataDir, storage: etcd.storageUrl }));
    servers.push(await startReplica({ dataDir, storage: etcd.storageUrl }));
    clients.push(...servers.map((s) => clientsetFor(s)));
  });

  after(async () => {
    for (const c of clients) c.rest.close();
    await Promise.all(servers.map((s) => s.stop('SIGKILL')));
    await etcd?.stop();
    removeDir(dataDir);
  });

  it('gives 60 Services created concurrently through both replicas 60 distinct cluster IPs', async () => {
    const created = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        clients[i % 2]!.coreV1.services('default').create({ apiVersion: 'v1', kind: 'Service', metadata: { name: `svc-${i}` }, spec: { ports: [{ port: 80 }] } }),
      ),
    );
    const ips = created.map((s) => s.spec?.clusterIP ?? '');
    assert.equal(new Set(ips).size, 60, `distinct: ${ips.join(' ')}`);
    const octets = ips.map((ip) => Number(ip.split('.')[3]));
    assert.ok(octets.every((o) => o >= 17 && o <= 254), 'dynamic addresses come from above the static band (10.0.0.1-16)');
    const listed = await clients[1]!.coreV1.services('default').list();
    assert.equal(new Set(listed.items.map((s) => s.spec?.clusterIP)).size, listed.items.length, 'what is stored is distinct too');
  });

  it('gives NodePort Services created concurrently through both replicas distinct node ports', async () => {
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        clients[i % 2]!.coreV1.services('default').create({
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: `np-${i}` },
          spec: { type: 'NodePort', ports: [{ name: 'a', port: 80 }, { name: 'b', port: 81 }] },
        }),
      ),
    );
    const ports = created.flatMap((s) => (s.spec?.ports ?? []).map((p) => p.nodePort));
    assert.equal(new Set(ports).size, 40, `distinct: ${ports.join(' ')}`);
  });

  it('names both replicas in the default/kubernetes Endpoints, and drops one that shuts down', async () => {
    const ports = servers.map((s) => Number(new URL(s.url).port)).sort((a, b) => a - b);
    const subsetsPorts = async () => {
      const eps = await clients[0]!.coreV1.endpoints('default').get('kubernetes');
      return (eps.subsets ?? []).flatMap((s) => (s.ports ?? []).map((p) => p.port));
    };
    assert.deepEqual(await subsetsPorts(), ports);
    const [stay, leave] = servers as [KgenServer, KgenServer];
    await leave.stop('SIGTERM');
    servers.pop();
    clients.pop()?.rest.close();
    assert.deepEqual(await subsetsPorts(), [Number(new URL(stay.url).port)]);
  });
});

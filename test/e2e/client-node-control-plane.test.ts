/**
 * @kubernetes/client-node 1.4.0 on kgen's control-plane kinds: its informer (makeInformer over
 * ListWatch) on ConfigMaps, and a Lease-based leader loop written with its CoordinationV1Api
 * (client-node has no leader election of its own): one holder at a time through optimistic
 * concurrency, takeover after the lease duration when the holder stops renewing; and server-side
 * apply of a Deployment's Scale, as client-go's ApplyScale sends it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { REPO, kubectlOk, removeDir, startKgen, type KgenServer } from './harness.js';
import { apiError, loadKubeConfig, until } from './client-node-helpers.js';

const NS = 'cn';
const LEASE = 'loop';
const LEASE_SECONDS = 2;

/** One round of a client-go style acquire-or-renew with client-node's typed API. */
async function tryAcquireOrRenew(api: k8s.CoordinationV1Api, identity: string, observed: Map<string, { renewTime: string; at: number }>): Promise<boolean> {
  // MicroTime fields: kube's decoder wants six fraction digits (a plain Date's toISOString has three,
  // which kube-apiserver refuses with a 400); client-node's V1MicroTime writes six.
  const now = new k8s.V1MicroTime();
  let lease: k8s.V1Lease;
  try {
    lease = await api.readNamespacedLease({ name: LEASE, namespace: NS });
  } catch (err) {
    if (!(err instanceof k8s.ApiException) || err.code !== 404) throw err;
    try {
      await api.createNamespacedLease({ namespace: NS, body: { metadata: { name: LEASE }, spec: { holderIdentity: identity, leaseDurationSeconds: LEASE_SECONDS, acquireTime: now, renewTime: now, leaseTransitions: 0 } } });
      return true;
    } catch (createErr) {
      if (createErr instanceof k8s.ApiException && createErr.code === 409) return false;
      throw createErr;
    }
  }
  const spec = lease.spec ?? {};
  const renew = String(spec.renewTime?.toISOString?.() ?? spec.renewTime);
  const seen = observed.get(identity);
  if (!seen || seen.renewTime !== renew) observed.set(identity, { renewTime: renew, at: Date.now() });
  const heldByOther = spec.holderIdentity && spec.holderIdentity !== identity;
  if (heldByOther && observed.get(identity)!.at + (spec.leaseDurationSeconds ?? LEASE_SECONDS) * 1000 > Date.now()) return false;
  const mine = spec.holderIdentity === identity;
  try {
    await api.replaceNamespacedLease({
      name: LEASE,
      namespace: NS,
      body: {
        metadata: { name: LEASE, resourceVersion: lease.metadata?.resourceVersion },
        spec: { holderIdentity: identity, leaseDurationSeconds: LEASE_SECONDS, acquireTime: mine && spec.acquireTime ? new k8s.V1MicroTime(spec.acquireTime) : now, renewTime: now, leaseTransitions: (spec.leaseTransitions ?? 0) + (mine ? 0 : 1) },
      },
    });
    return true;
  } catch (err) {
    if (err instanceof k8s.ApiException && err.code === 409) return false;
    throw err;
  }
}

describe('@kubernetes/client-node on the control-plane kinds', () => {
  let server: KgenServer;
  let kc: k8s.KubeConfig;

  before(async () => {
    server = await startKgen({ generatedDir: join(REPO, 'generated'), storage: 'memory:' });
    kubectlOk(server.kubeconfig, ['create', 'namespace', NS]);
    kc = loadKubeConfig(server.kubeconfig);
  });
  after(async () => {
    await server.stop();
    removeDir(server.dataDir);
  });

  it('its informer follows ConfigMaps (list, then watch adds, updates and deletes)', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'before' }, data: { a: '1' } } });
    const informer = k8s.makeInformer(kc, `/api/v1/namespaces/${NS}/configmaps`, () => core.listNamespacedConfigMap({ namespace: NS }));
    const seen: string[] = [];
    informer.on('add', (cm) => seen.push(`add ${cm.metadata?.name}`));
    informer.on('update', (cm) => seen.push(`update ${cm.metadata?.name} ${cm.data?.a}`));
    informer.on('delete', (cm) => seen.push(`delete ${cm.metadata?.name}`));
    await informer.start();
    try {
      await until(() => seen.includes('add before'), () => seen.join(', '));
      kubectlOk(server.kubeconfig, ['create', 'configmap', 'after', '-n', NS, '--from-literal=a=1']);
      await until(() => seen.includes('add after'), () => seen.join(', '));
      await core.patchNamespacedConfigMap({ name: 'after', namespace: NS, body: { data: { a: '2' } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
      await until(() => seen.includes('update after 2'), () => seen.join(', '));
      await core.deleteNamespacedConfigMap({ name: 'before', namespace: NS });
      await until(() => seen.includes('delete before'), () => seen.join(', '));
      assert.deepEqual(informer.list().map((c) => c.metadata?.name), ['after']);
    } finally {
      await informer.stop();
    }
  });

  it('server-side apply of a Deployment\'s Scale (client-go ApplyScale\'s request): owns replicas, conflicts with their creator', async () => {
    const apps = kc.makeApiClient(k8s.AppsV1Api);
    const labels = { app: 'ssa-scale' };
    await apps.createNamespacedDeployment({
      namespace: NS,
      fieldManager: 'deployer',
      body: { metadata: { name: 'ssa-scale' }, spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } },
    });
    const apply = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply);
    const body = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'ssa-scale', namespace: NS }, spec: { replicas: 4 } };
    const conflict = await apiError(() => apps.patchNamespacedDeploymentScale({ name: 'ssa-scale', namespace: NS, body, fieldManager: 'autoscaler' }, apply));
    assert.equal(conflict.code, 409);
    assert.equal(conflict.status.message, 'Apply failed with 1 conflict: conflict with "deployer" using apps/v1: .spec.replicas');
    const scale = await apps.patchNamespacedDeploymentScale({ name: 'ssa-scale', namespace: NS, body, fieldManager: 'autoscaler', force: true }, apply);
    assert.equal(scale.spec?.replicas, 4);
    assert.equal(scale.status?.selector, 'app=ssa-scale');
    const deployment = await apps.readNamespacedDeployment({ name: 'ssa-scale', namespace: NS });
    assert.equal(deployment.spec?.replicas, 4);
    const autoscaler = deployment.metadata?.managedFields?.find((e) => e.manager === 'autoscaler');
    assert.equal(autoscaler?.operation, 'Apply');
    assert.equal(autoscaler?.subresource, 'scale');
    assert.deepEqual(autoscaler?.fieldsV1, { 'f:spec': { 'f:replicas': {} } });
  });

  it('a Lease-based leader loop: one holder at a time, takeover after the lease duration', async () => {
    const api = kc.makeApiClient(k8s.CoordinationV1Api);
    const observed = new Map<string, { renewTime: string; at: number }>();
    // Both race for a free Lease: exactly one wins.
    const [a, b] = await Promise.all([tryAcquireOrRenew(api, 'a', observed), tryAcquireOrRenew(api, 'b', observed)]);
    assert.equal(Number(a) + Number(b), 1, 'exactly one acquired');
    const leader = a ? 'a' : 'b';
    const follower = a ? 'b' : 'a';
    // The leader renews; the follower keeps failing while it does.
    for (let i = 0; i < 4; i++) {
      assert.equal(await tryAcquireOrRenew(api, leader, observed), true);
      assert.equal(await tryAcquireOrRenew(api, follower, observed), false);
      await new Promise((r) => setTimeout(r, 400));
    }
    // The leader stops renewing: the follower takes over once it saw no renewal for the lease duration.
    const stoppedAt = Date.now();
    let took = false;
    while (!took && Date.now() - stoppedAt < 10_000) {
      took = await tryAcquireOrRenew(api, follower, observed);
      if (!took) await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(took, true);
    const tookAt = Date.now();
    assert.ok(tookAt - observed.get(follower)!.at >= LEASE_SECONDS * 1000, 'not before the lease duration since the follower saw the last renewal');
    assert.ok(tookAt - stoppedAt < LEASE_SECONDS * 1000 + 1000, 'soon after it expired');
    const lease = await api.readNamespacedLease({ name: LEASE, namespace: NS });
    assert.equal(lease.spec?.holderIdentity, follower);
    assert.equal(lease.spec?.leaseTransitions, 1);
    assert.ok(!Number.isNaN(Date.parse(String(lease.spec?.renewTime))), 'renewTime round-trips as a timestamp');
    // A stale write (old resourceVersion) is refused with kube's 409.
    const stale = await apiError(() => api.replaceNamespacedLease({ name: LEASE, namespace: NS, body: { metadata: { name: LEASE, resourceVersion: '1' }, spec: { holderIdentity: leader } } }));
    assert.equal(stale.code, 409);
    assert.equal(stale.status.reason, 'Conflict');
  });
});

/**
 * The example Widget controller (examples/widget-controller) as real processes under its own
 * ServiceAccount token and Role, two replicas with leader election:
 *
 * - every Widget gets its owned ConfigMap, status Ready with observedGeneration, and Events;
 * - SIGKILL of the leader: the other replica takes over within leaseDuration + retryPeriod (plus
 *   the measured request latency, see takeoverBound) and no Widget (created or changed meanwhile)
 *   stays unreconciled;
 * - deleting a Widget deletes its ConfigMap through garbage collection;
 * - a clean stop releases the Lease.
 * It runs against one kgen on SQLite, and against two kgen replicas on etcd (one controller per replica).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Acquisition } from '@kgen/client';
import { Clientset } from '../../generated/client/index.js';
import { loadKubeconfig } from '../../runtime/client/index.js';
import { EtcdCluster } from '../support/etcd.js';
import { REPO, kubectl, kubectlOk, removeDir, startKgen, tempDir, type KgenServer } from './harness.js';
import { startReplica } from './replica-helpers.js';

const NS = 'default';
const LEASE_MS = 5000;
const RENEW_MS = 4000;
const RETRY_MS = 500;

interface ControllerProcess {
  child: ChildProcess;
  identity: string;
  output(): string;
  exited: Promise<number | null>;
}

function startController(server: KgenServer, tokenFile: string, identity: string): ControllerProcess {
  const child = spawn(
    process.execPath,
    [
      // test/run.js's TypeScript loader, not tsx's costlier hooks (~1 s of CPU less per process).
      '--import',
      join(REPO, 'test/support/ts-loader.mjs'),
      join(REPO, 'examples/widget-controller/main.ts'),
      '--server',
      server.url,
      '--ca',
      join(server.dataDir, 'pki', 'ca', 'tls.crt'),
      '--token-file',
      tokenFile,
      '--namespace',
      NS,
      '--identity',
      identity,
      '--lease-duration',
      `${LEASE_MS}ms`,
      '--renew-deadline',
      `${RENEW_MS}ms`,
      '--retry-period',
      `${RETRY_MS}ms`,
    ],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, identity, output: () => out, exited };
}

/** The process's last line about its own leadership ("leading as …" or "stopped leading as …"), if any. */
function lastLeadership(c: ControllerProcess): string | undefined {
  return c.output().match(new RegExp(`^(?:stopped )?leading as ${c.identity}\\b.*$`, 'gm'))?.at(-1);
}

/** Whether the process leads now by its own output: its last such line begins a term. */
const leadsNow = (c: ControllerProcess) => lastLeadership(c)?.startsWith('leading as') ?? false;

async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const widgetYAML = (name: string, replicas: number) => `apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata:\n  name: ${name}\nspec:\n  replicas: ${replicas}\n  color: green\n`;

/** Names of Widgets whose status does not yet show their generation reconciled, or whose ConfigMap is missing or stale. */
async function unreconciled(admin: Clientset): Promise<string[]> {
  const widgets = (await admin.widgetsExampleComV1.widgets(NS).list()).items;
  const configMaps = new Map((await admin.coreV1.configmaps(NS).list()).items.map((c) => [c.metadata.name, c]));
  return widgets
    .filter((w) => {
      const ready = w.status?.conditions?.find((c) => c.type === 'Ready');
      const cm = configMaps.get(`${w.metadata.name}-spinner`);
      return (
        w.status?.observedGeneration !== w.metadata.generation ||
        ready?.status !== 'True' ||
        ready.observedGeneration !== w.metadata.generation ||
        cm?.data?.replicas !== String(w.spec.replicas) ||
        cm.metadata.ownerReferences?.[0]?.uid !== w.metadata.uid
      );
    })
    .map((w) => w.metadata.name!);
}

async function scenario(servers: [KgenServer, KgenServer], dir: string): Promise<Takeover> {
  const [first, second] = servers;
  const admin = new Clientset({ ...loadKubeconfig(first.kubeconfig), qps: 0 });
  kubectlOk(first.kubeconfig, ['apply', '-n', NS, '-f', join(REPO, 'examples/widget-controller/rbac.yaml')]);
  const tokenFile = join(dir, 'token');
  writeFileSync(tokenFile, kubectlOk(first.kubeconfig, ['create', 'token', 'widget-controller', '-n', NS, '--duration=1h']).trim());

  const controllers = [startController(first, tokenFile, 'replica-a'), startController(second, tokenFile, 'replica-b')];
  try {
    await until('a leader', () => controllers.find((c) => leadsNow(c)));
    for (let i = 1; i <= 5; i++) kubectlOk(first.kubeconfig, ['apply', '-n', NS, '-f', '-'], widgetYAML(`w${i}`, i));
    await until('every Widget reconciled by the leader', async () => (await unreconciled(admin)).length === 0);

    // The controller acted under its own identity: the Lease names the replica that says it leads,
    // and its token is confined by the Role. (The leader is the one leading now: on a loaded
    // machine the first term may already have ended, missing its renewDeadline, and the other
    // replica led since.)
    const lease = await admin.coordinationK8sIoV1.leases(NS).get('widget-controller');
    const leader = controllers.find((c) => c.identity === lease.spec?.holderIdentity);
    assert.ok(leader && leadsNow(leader), `the Lease names a replica that leads: ${lease.spec?.holderIdentity}; ${controllers.map((c) => `${c.identity}: ${lastLeadership(c) ?? 'none'}`).join('; ')}`);
    const other = controllers.find((c) => c !== leader)!;
    assert.ok(!leadsNow(other), `one leader: ${lastLeadership(other)}`);
    const token = (await import('node:fs')).readFileSync(tokenFile, 'utf8').trim();
    const asController = kubectl('/dev/null', ['--server', first.url, `--certificate-authority=${join(first.dataDir, 'pki', 'ca', 'tls.crt')}`, `--token=${token}`, 'get', 'secrets', '-n', NS]);
    assert.match(asController.stderr, /User "system:serviceaccount:default:widget-controller" cannot list resource "secrets"/);

    // Events about the Widget, recorded by the controller.
    const events = (await admin.coreV1.events(NS).list({ fieldSelector: 'involvedObject.name=w1,reason=ConfigMapCreated' })).items;
    assert.equal(events.length, 1);
    assert.equal(events[0]!.source?.component, 'widget-controller');

    // SIGKILL the leader, then change things while no one leads.
    // The takeover is the other replica's first term begun after the kill (its output from here on).
    const before = other.output().length;
    const killedAt = Date.now();
    leader.child.kill('SIGKILL');
    await leader.exited;
    for (let i = 6; i <= 8; i++) kubectlOk(first.kubeconfig, ['apply', '-n', NS, '-f', '-'], widgetYAML(`w${i}`, i));
    kubectlOk(first.kubeconfig, ['patch', 'widget', 'w1', '-n', NS, '--type=merge', '-p', '{"spec":{"replicas":9}}']);
    const line = await until('the other replica to lead', () => new RegExp(`leading as ${other.identity} (\\{.*\\})`).exec(other.output().slice(before)), LEASE_MS * 5);
    const acquisition = JSON.parse(line![1]!) as Acquisition;
    // Both processes read the same wall clock: the takeover is when the winning write was answered.
    const takeoverMs = acquisition.acquiredAt - killedAt;
    await until('every Widget reconciled after the takeover', async () => (await unreconciled(admin)).length === 0);
    const w1 = await admin.widgetsExampleComV1.widgets(NS).get('w1');
    assert.equal(w1.metadata.generation, 2);
    assert.equal(w1.status?.observedGeneration, 2);

    // Garbage collection: the Widget's ConfigMap goes with it.
    kubectlOk(first.kubeconfig, ['delete', 'widget', 'w2', '-n', NS]);
    await until('w2-spinner collected', async () => !(await admin.coreV1.configmaps(NS).list()).items.some((c) => c.metadata.name === 'w2-spinner'));

    // A clean stop releases the Lease.
    other.child.kill('SIGTERM');
    assert.equal(await other.exited, 0, other.output());
    assert.equal((await admin.coordinationK8sIoV1.leases(NS).get('widget-controller')).spec?.holderIdentity, '');
    return { takeoverMs, acquisition };
  } finally {
    for (const c of controllers) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  }
}

interface Takeover {
  takeoverMs: number;
  acquisition: Acquisition;
}

/**
 * The issue's bound, leaseDuration + retryPeriod from the kill, plus only what was measured on this
 * run (printed with the result):
 * - requests: the winning attempt's get + update, counted twice, because the observation of the
 *   dead leader's last renewal also costs up to one write (its renewal in flight at the kill) and
 *   one read (the candidate's);
 * - timer lateness: how late the candidate's event loop ran the attempt scheduled at the expiry.
 * The toolkit's timing is proven on a fake clock in test/client/toolkit/leaderelection.test.ts.
 */
function takeoverBound({ acquisition: a }: Takeover): { bound: number; requestMs: number; lateMs: number } {
  assert.ok(a.leaseExpiredAt !== undefined, `the takeover was an attempt at the observed expiry: ${JSON.stringify(a)}`);
  const requestMs = a.acquiredAt - a.attemptStartedAt;
  const lateMs = a.attemptStartedAt - a.leaseExpiredAt;
  return { bound: LEASE_MS + RETRY_MS + 2 * requestMs + lateMs, requestMs, lateMs };
}

function checkTakeover(backend: string, t: Takeover): void {
  const { bound, requestMs, lateMs } = takeoverBound(t);
  console.log(`# takeover after SIGKILL (${backend}): ${t.takeoverMs} ms; bound ${bound} ms = lease ${LEASE_MS} + retry ${RETRY_MS} + 2 x request ${requestMs} + timer lateness ${lateMs}`);
  assert.ok(t.takeoverMs <= bound, `took over after ${t.takeoverMs} ms, bound ${bound} ms`);
}

describe('example Widget controller', () => {
  const dirs: string[] = [];
  const servers: KgenServer[] = [];
  let etcd: EtcdCluster | undefined;
  after(async () => {
    for (const s of servers) await s.stop();
    await etcd?.stop();
    for (const d of dirs) removeDir(d);
  });

  it('reconciles, survives SIGKILL of the leader, and garbage-collects (one kgen on SQLite)', async () => {
    const dir = tempDir('widget-controller');
    dirs.push(dir);
    const server = await startKgen({ generatedDir: join(REPO, 'generated'), dataDir: join(dir, 'data') });
    servers.push(server);
    checkTakeover('sqlite', await scenario([server, server], dir));
  });

  it('does the same with one controller on each of two kgen replicas on etcd', async () => {
    const dir = tempDir('widget-controller-etcd');
    dirs.push(dir);
    etcd = await EtcdCluster.start({ members: 1 });
    const dataDir = join(dir, 'data');
    const a = await startReplica({ dataDir, storage: etcd.storageUrl });
    servers.push(a);
    const b = await startReplica({ dataDir, storage: etcd.storageUrl });
    servers.push(b);
    checkTakeover('etcd, two replicas', await scenario([a, b], dir));
  });
});

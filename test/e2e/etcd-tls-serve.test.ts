/**
 * `kgen serve` on an etcd that requires mutual TLS, given as kube-apiserver is given it
 * (--etcd-servers https://…, --etcd-cafile, --etcd-certfile, --etcd-keyfile): kubectl writes,
 * reads and watches through it, and a wrong CA or a missing client certificate stops start-up
 * with the cause instead of a server that hangs on every request.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { newCA } from '../../runtime/controlplane/certs.js';
import { EtcdCluster } from '../support/etcd.js';
import { KGEN_BIN, REPO, kubectlOk, removeDir, startKgen, tempDir, type KgenServer } from './harness.js';
import { kubectlBackground } from './kubectl-workflow-helpers.js';

const GENERATED = join(REPO, 'generated');

describe('kgen serve on etcd over mutual TLS', () => {
  let etcd: EtcdCluster;
  let server: KgenServer;
  const dataDir = tempDir('etcd-tls-serve');

  const tlsFlags = (overrides: Partial<Record<'ca' | 'cert' | 'key', string>> = {}) => {
    const files = etcd.tls!;
    const flags = ['--etcd-servers', etcd.endpoints.join(',')];
    const ca = 'ca' in overrides ? overrides.ca : files.caFile;
    const cert = 'cert' in overrides ? overrides.cert : files.certFile;
    const key = 'key' in overrides ? overrides.key : files.keyFile;
    if (ca) flags.push('--etcd-cafile', ca);
    if (cert) flags.push('--etcd-certfile', cert);
    if (key) flags.push('--etcd-keyfile', key);
    return flags;
  };

  before(async () => {
    etcd = await EtcdCluster.start({ tls: true });
    server = await startKgen({ dataDir, args: ['serve', GENERATED, '--port', '0', '--data-dir', dataDir, ...tlsFlags()] });
  });

  after(async () => {
    await server?.stop('SIGKILL');
    await etcd?.stop();
    removeDir(dataDir);
  });

  it('serves kubectl: readyz reports etcd, a create is listed and watched', async () => {
    assert.match(kubectlOk(server.kubeconfig, ['get', '--raw', '/readyz?verbose']), /\[\+\]etcd ok/);
    const watch = kubectlBackground(server.kubeconfig, ['get', 'wd', '-w', '-o', 'name']);
    try {
      kubectlOk(server.kubeconfig, ['create', '-f', '-'], 'apiVersion: widgets.example.com/v1\nkind: Widget\nmetadata: {name: tls-1}\nspec: {replicas: 1, color: blue}\n');
      await watch.waitFor(/widget\.widgets\.example\.com\/tls-1/, 15_000);
    } finally {
      await watch.stop();
    }
    assert.match(kubectlOk(server.kubeconfig, ['get', 'wd', 'tls-1', '-o', 'jsonpath={.spec.color}']), /^blue$/);
  });

  /** Runs `kgen serve` to its exit and returns its exit code and output. */
  const serveToExit = (flags: string[]) => {
    const dir = tempDir('etcd-tls-bad');
    try {
      const r = spawnSync(process.execPath, [KGEN_BIN, 'serve', GENERATED, '--port', '0', '--data-dir', dir, ...flags], { cwd: REPO, encoding: 'utf8', timeout: 30_000 });
      return { status: r.status, output: `${r.stdout}${r.stderr}` };
    } finally {
      removeDir(dir);
    }
  };

  it('stops at start-up with the cause when the CA is not the one etcd uses', () => {
    const other = join(tempDir('etcd-other-ca'), 'ca.crt');
    writeFileSync(other, newCA('not-the-etcd-ca').cert);
    const { status, output } = serveToExit(tlsFlags({ ca: other }));
    assert.equal(status, 1, output);
    assert.match(output, /kgen serve: etcd TLS handshake failed \(https:\/\/127\.0\.0\.1:\d+: unable to verify the first certificate\); check --etcd-cafile, --etcd-certfile and --etcd-keyfile/);
  });

  it('stops at start-up when etcd requires a client certificate and none is given', () => {
    const { status, output } = serveToExit(tlsFlags({ cert: undefined, key: undefined }));
    assert.equal(status, 1, output);
    assert.match(output, /kgen serve: etcd TLS handshake failed \(https:\/\/127\.0\.0\.1:\d+: the member refused the client certificate \(.*\)\)/);
  });

  it('refuses flags that contradict each other or name unreadable files', () => {
    assert.match(serveToExit(['--storage', 'memory:', '--etcd-cafile', etcd.tls!.caFile]).output, /kgen serve: --etcd-cafile, --etcd-certfile and --etcd-keyfile apply to etcd storage only/);
    assert.match(serveToExit(['--storage', 'memory:', ...tlsFlags()]).output, /kgen serve: --etcd-servers and --storage both name the storage: give one/);
    assert.match(serveToExit(tlsFlags({ key: '/nonexistent/key.pem' })).output, /kgen serve: --etcd-keyfile \/nonexistent\/key\.pem: no such file/);
  });
});

/**
 * etcd over mutual TLS (kube's --etcd-cafile/--etcd-certfile/--etcd-keyfile) against a real etcd
 * started with https client URLs and --client-cert-auth: the whole storage conformance suite runs
 * over it (unary calls and watch streams through our gRPC channel), and
 * certificate problems fail fast with a message naming the cause.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { EtcdStorage } from '../../runtime/storage/etcd.js';
import { etcdEndpoints, etcdServersStorageURL, openStorage } from '../../runtime/storage/factory.js';
import { loadEtcdTLS } from '../../runtime/storage/etcd/tls.js';
import { newCA } from '../../runtime/controlplane/certs.js';
import { EtcdCluster } from '../support/etcd.js';
import { tempDir } from '../e2e/harness.js';
import { describeStorageConformance } from './conformance.js';
import { key, widget } from './conformance-fixtures.js';

let started: Promise<EtcdCluster> | undefined;
const etcd = (): Promise<EtcdCluster> => (started ??= EtcdCluster.start({ tls: true }));
after(async () => {
  if (started) await (await started).stop();
});

const tlsOf = (cluster: EtcdCluster) => loadEtcdTLS(cluster.tls!)!;

let n = 0;
describeStorageConformance('etcd over mutual TLS', async () => {
  const cluster = await etcd();
  const storage = await EtcdStorage.open({ endpoints: cluster.endpoints, prefix: `/tls-conformance-${++n}`, tls: tlsOf(cluster) });
  return { storage, cleanup: () => storage.close() };
});

describe('etcd over mutual TLS: configuration', () => {
  it('openStorage takes https members in etcd:// URLs, and bare ones are https when TLS is set', async () => {
    const cluster = await etcd();
    assert.match(cluster.storageUrl, /^etcd:\/\/https:\/\/127\.0\.0\.1:\d+$/);
    const s = await openStorage(cluster.storageUrl, { dataDir: '/nonexistent', storagePrefix: '/factory-tls', etcdTLS: tlsOf(cluster) });
    const bare = await openStorage(cluster.storageUrl.replace('https://', ''), { dataDir: '/nonexistent', storagePrefix: '/factory-tls', etcdTLS: tlsOf(cluster) });
    try {
      const created = await s.create(key('ns1', 'f'), widget('f'));
      assert.deepEqual(await bare.get(key('ns1', 'f')), created);
    } finally {
      await Promise.all([s.close(), bare.close()]);
    }
  });

  it('refuses to start against an unknown CA, naming the member and the cause', async () => {
    const cluster = await etcd();
    const other = join(tempDir('etcd-ca'), 'other-ca.crt');
    writeFileSync(other, newCA('not-the-etcd-ca').cert);
    const tls = loadEtcdTLS({ ...cluster.tls!, caFile: other })!;
    const t0 = Date.now();
    await assert.rejects(EtcdStorage.open({ endpoints: cluster.endpoints, tls }), (err: Error) => {
      assert.match(err.message, /^etcd TLS handshake failed \(https:\/\/127\.0\.0\.1:\d+: .*certificate.*\); check --etcd-cafile, --etcd-certfile and --etcd-keyfile$/);
      return true;
    });
    assert.ok(Date.now() - t0 < 8000, 'fails within the first call deadline, not a hang');
  });

  it('refuses to start without a client certificate when etcd requires one', async () => {
    const cluster = await etcd();
    const tls = loadEtcdTLS({ caFile: cluster.tls!.caFile })!;
    await assert.rejects(
      EtcdStorage.open({ endpoints: cluster.endpoints, tls }),
      /^Error: etcd TLS handshake failed \(https:\/\/127\.0\.0\.1:\d+: the member refused the client certificate \(.*\)\); check --etcd-cafile/,
    );
  });

  it('reads the files with errors that name the flag', () => {
    const dir = tempDir('etcd-tls-files');
    const garbage = join(dir, 'garbage.pem');
    writeFileSync(garbage, 'not a certificate');
    assert.equal(loadEtcdTLS({}), undefined);
    assert.throws(() => loadEtcdTLS({ caFile: join(dir, 'missing.crt') }), /^Error: --etcd-cafile .*missing\.crt: no such file$/);
    assert.throws(() => loadEtcdTLS({ certFile: garbage }), /--etcd-certfile and --etcd-keyfile must be given together/);
    assert.throws(() => loadEtcdTLS({ caFile: garbage }), /^Error: --etcd-cafile .*garbage\.pem: not a PEM CA bundle/);
    assert.throws(() => loadEtcdTLS({ certFile: garbage, keyFile: garbage }), /^Error: --etcd-certfile .*garbage\.pem \/ --etcd-keyfile/);
  });

  it("takes kube's --etcd-servers form and https:// endpoints", () => {
    assert.equal(etcdServersStorageURL('https://10.0.0.1:2379,https://etcd-1'), 'etcd://https://10.0.0.1:2379,https://etcd-1:2379');
    assert.deepEqual(etcdEndpoints('etcd://https://a:1,b,http://[::1]:2'), ['https://a:1', 'b:2379', 'http://[::1]:2']);
    assert.throws(() => etcdServersStorageURL('ftp://x:1'), /invalid etcd endpoint "ftp:\/\/x:1" in --etcd-servers/);
  });
});

/**
 * --encryption-provider-config with kube's EncryptionConfiguration, checked on the raw storage:
 * Secrets written through kubectl are sealed in SQLite's rows and in etcd's values (no plaintext,
 * kube's provider prefix), read back whole through the API, and keys rotate (a new first provider
 * writes, the old one still reads). ConfigMaps, not named in the configuration, stay plain.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { EtcdCluster } from '../support/etcd.js';
import { REPO, kubectlOk, removeDir, startKgen, tempDir, type KgenServer } from './harness.js';

const KEY1 = Buffer.alloc(32, 1).toString('base64');
const KEY2 = Buffer.alloc(16, 2).toString('base64');
const SECRET_VALUE = 'correct-horse-battery-staple';

const config = (providers: string) => `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
${providers}
`;
const AESCBC = `      - aescbc:\n          keys:\n            - name: key1\n              secret: ${KEY1}\n`;
const AESGCM = `      - aesgcm:\n          keys:\n            - name: key2\n              secret: ${KEY2}\n`;
const IDENTITY = `      - identity: {}\n`;

/** What the raw value holds: no plaintext of the secret anywhere, and the provider prefix of its seal. */
function assertSealed(raw: string, prefix: string): void {
  assert.ok(!raw.includes(SECRET_VALUE), 'no plaintext');
  assert.ok(!raw.includes(Buffer.from(SECRET_VALUE).toString('base64')), 'no base64 of the plaintext');
  assert.ok(!raw.includes('last-applied-configuration'), 'annotations sealed too');
  const envelope = JSON.parse(raw) as Record<string, string>;
  assert.ok(Buffer.from(envelope['k8s:enc']!, 'base64').toString('latin1').startsWith(prefix), `sealed with ${prefix}`);
}

const secretYAML = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: applied\nstringData:\n  password: ${SECRET_VALUE}\n`;

function readBack(server: KgenServer, name: string): string {
  return Buffer.from(kubectlOk(server.kubeconfig, ['get', 'secret', name, '-o', 'jsonpath={.data.password}']), 'base64').toString();
}

describe('encryption at rest', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  after(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('seals Secrets in SQLite rows, reads them back, and rotates keys', async () => {
    const dir = tempDir('encryption-sqlite');
    cleanups.push(() => removeDir(dir));
    const configFile = join(dir, 'encryption.yaml');
    writeFileSync(configFile, config(AESCBC + IDENTITY));
    const dataDir = join(dir, 'data');
    const start = () => startKgen({ dataDir, args: ['serve', join(REPO, 'generated'), '--port', '0', '--data-dir', dataDir, '--encryption-provider-config', configFile] });
    let server = await start();
    kubectlOk(server.kubeconfig, ['create', 'secret', 'generic', 's1', `--from-literal=password=${SECRET_VALUE}`]);
    kubectlOk(server.kubeconfig, ['apply', '-f', '-'], secretYAML);
    kubectlOk(server.kubeconfig, ['create', 'configmap', 'plain', `--from-literal=password=${SECRET_VALUE}`]);
    assert.equal(readBack(server, 's1'), SECRET_VALUE);
    assert.equal(readBack(server, 'applied'), SECRET_VALUE);
    await server.stop();

    const rows = () => {
      const db = new Database(join(dataDir, 'kgen.db'), { readonly: true });
      try {
        return db.prepare('SELECT key, value FROM kv WHERE deleted = 0 ORDER BY revision').all() as { key: string; value: string }[];
      } finally {
        db.close();
      }
    };
    const latest = (key: string) => rows().filter((r) => r.key === key).at(-1)!.value;
    assertSealed(latest('/registry/core/secrets/default/s1'), 'k8s:enc:aescbc:v1:key1:');
    assertSealed(latest('/registry/core/secrets/default/applied'), 'k8s:enc:aescbc:v1:key1:');
    for (const r of rows().filter((r) => r.key.startsWith('/registry/core/secrets/'))) assert.ok(!r.value.includes(SECRET_VALUE), r.key);
    assert.ok(latest('/registry/core/configmaps/default/plain').includes(SECRET_VALUE), 'ConfigMaps are not in the configuration');

    // Rotation: aesgcm (key2) now writes; aescbc (key1) still reads what it wrote.
    writeFileSync(configFile, config(AESGCM + AESCBC));
    server = await start();
    cleanups.push(() => server.stop().then(() => undefined));
    assert.equal(readBack(server, 's1'), SECRET_VALUE);
    kubectlOk(server.kubeconfig, ['annotate', 'secret', 's1', 'rotated=yes']);
    await server.stop();
    assertSealed(latest('/registry/core/secrets/default/s1'), 'k8s:enc:aesgcm:v1:key2:');
    assertSealed(latest('/registry/core/secrets/default/applied'), 'k8s:enc:aescbc:v1:key1:');
    server = await start();
    assert.equal(readBack(server, 's1'), SECRET_VALUE);
    assert.equal(readBack(server, 'applied'), SECRET_VALUE);
  });

  it('seals Secrets in etcd values', async () => {
    const dir = tempDir('encryption-etcd');
    cleanups.push(() => removeDir(dir));
    const etcd = await EtcdCluster.start({ members: 1 });
    cleanups.push(() => etcd.stop());
    const configFile = join(dir, 'encryption.yaml');
    writeFileSync(configFile, config(AESGCM));
    const dataDir = join(dir, 'data');
    const server = await startKgen({ dataDir, args: ['serve', join(REPO, 'generated'), '--port', '0', '--data-dir', dataDir, '--storage', etcd.storageUrl, '--encryption-provider-config', configFile] });
    cleanups.push(() => server.stop().then(() => undefined));
    kubectlOk(server.kubeconfig, ['create', 'secret', 'generic', 's1', `--from-literal=password=${SECRET_VALUE}`]);
    assert.equal(readBack(server, 's1'), SECRET_VALUE);
    const res = await fetch(`${etcd.endpoints[0]}/v3/kv/range`, { method: 'POST', body: JSON.stringify({ key: Buffer.from('/registry/core/secrets/default/s1').toString('base64') }) });
    const body = (await res.json()) as { kvs?: { value: string }[] };
    assert.equal(body.kvs?.length, 1);
    assertSealed(Buffer.from(body.kvs![0]!.value, 'base64').toString('utf8'), 'k8s:enc:aesgcm:v1:key2:');
  });
});
